"""Lesson 8.6, the cache keeps the keys' plain numbers: right scores, no gradient to attn_wk."""
# expect: fail | a gradient reaches every weight gpt() reads | attn_wk
import math
import random

# Finished for you, from the course's library: Value (module 7), characters and positions (lesson
# 12.2 has you write their lines again), the attention matrices (lesson 8.3, and again 9.5),
# gpt()'s read-out through lm_head (lesson 8.7), and invent_name, the sampling loop of module 11.
from given.train3 import Value, attention_matrices, characters, invent_name, positions, read_out

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)  # every character of the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")


# --- the parameters: small random numbers, drawn in a fixed order ---
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees


def matrix(rows, cols, std=0.08):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
           'lm_head': matrix(vocab_size, n_embd)}
weights.update(attention_matrices(n_embd))  # attn_wq, attn_wk, attn_wv, attn_wo
params = [p for mat in weights.values() for row in mat for p in row]
print(f"parameters: {len(params)}")


# --- the model's building blocks ---
def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    biggest = max(v.data for v in logits)  # subtracting the max keeps exp() from overflowing
    exps = [(v - biggest).exp() for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def rmsnorm(x):
    mean_square = sum(xi * xi for xi in x) / len(x)
    scale = (mean_square + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def gpt(token, pos, keys=[], values=[]):  # a stand-in: lesson 8.7 has you write this line
    x = [t + p for t, p in zip(weights['wte'][token], weights['wpe'][pos])]
    x = rmsnorm(x)
    # attention: this position looks back at every position so far
    residual = x
    x = rmsnorm(x)
    q = linear(x, weights['attn_wq'])  # what this position is looking for
    k = linear(x, weights['attn_wk'])  # what this position offers to later ones
    v = linear(x, weights['attn_wv'])  # what it hands over when it is picked
    keys.append([ki.data for ki in k])  # the cache: earlier positions' keys and values are kept, not recomputed
    values.append(v)
    # how well q matches each key so far; dividing by sqrt(width) keeps softmax from saturating
    scores = [sum(qi * ki for qi, ki in zip(q, past_k)) / n_embd ** 0.5 for past_k in keys]
    attn = softmax(scores)
    # the output is a blend of the values, weighted by attention
    x = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(n_embd)]
    x = linear(x, weights['attn_wo'])
    x = [a + b for a, b in zip(x, residual)]
    return read_out(x, weights)  # one logit per token, through lm_head (lesson 8.7)


# --- training's forward half: the loss of one name ---
def name_loss(doc):
    """The mean loss of one name, position by position: the forward half of a training step."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)  # one per next token, at most block_size
    keys, values = [], []
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    return (1 / n) * sum(losses)


# --- sampling: let the model invent names, one letter at a time ---
temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names


def sample_name():
    """One new name, drawn letter by letter until BOS comes out (or block_size letters)."""
    return invent_name(gpt, chars, block_size, temperature)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    tokens = [BOS] + [chars.index(ch) for ch in 'emma']
    keys, values = [], []
    for pos, token in enumerate(tokens):
        gpt(token, pos, keys, values)
        print(f"after position {pos} ({'BOS' if token == BOS else chars[token]}): "
              f"len(keys) = {len(keys)}, len(values) = {len(values)}")
    once, twice = name_loss('emma').data, name_loss('emma').data
    print(f"name_loss('emma'), twice: {once:.4f} {twice:.4f}")
    print("a name from the untrained model:", repr(sample_name()))
