"""Lesson 8.7, the logits copied into new Values: right numbers, no gradient to any weight."""
# expect: fail | a gradient reaches every weight gpt() reads | lm_head
import math
import random

# Finished for you, from the course's library: Value (module 7), characters and positions (lesson
# 12.2 has you write their lines again), the attention matrices (lesson 8.3, and again 9.5),
# decayed and name_at (lessons 10.5 and 11.4), and invent_name, the sampling loop of module 11.
from given.train3 import (Value, attention_matrices, characters, decayed, invent_name, name_at,
                          positions)

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


def gpt(token, pos, keys, values):
    x = [t + p for t, p in zip(weights['wte'][token], weights['wpe'][pos])]
    x = rmsnorm(x)
    # attention: this position looks back at every position so far
    residual = x
    x = rmsnorm(x)
    q = linear(x, weights['attn_wq'])  # what this position is looking for
    k = linear(x, weights['attn_wk'])  # what this position offers to later ones
    v = linear(x, weights['attn_wv'])  # what it hands over when it is picked
    keys.append(k)  # the cache: earlier positions' keys and values are kept, not recomputed
    values.append(v)
    # how well q matches each key so far; dividing by sqrt(width) keeps softmax from saturating
    scores = [sum(qi * ki for qi, ki in zip(q, past_k)) / n_embd ** 0.5 for past_k in keys]
    attn = softmax(scores)
    # the output is a blend of the values, weighted by attention
    x = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(n_embd)]
    x = linear(x, weights['attn_wo'])
    x = [a + b for a, b in zip(x, residual)]
    return [Value(logit.data) for logit in linear(x, weights['lm_head'])]


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
learning_rate = 0.3  # below train1's: rmsnorm makes vectors size ~1, so gradients are bigger


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


def train_step(step):
    """One step of train3 on the step-th name; returns its loss."""
    loss = name_loss(name_at(docs, step))  # the names in order, round again after the last
    loss.backward()
    lr = decayed(learning_rate, step, num_steps)  # falls in a straight line to 0 at num_steps
    for p in params:  # step downhill, then zero the grad: backward() adds into it
        p.data -= lr * p.grad
        p.grad = 0
    return loss.data


# --- sampling: let the model invent names, one letter at a time ---
temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names


def sample_name():
    """One new name, drawn letter by letter until BOS comes out (or block_size letters)."""
    return invent_name(gpt, chars, block_size, temperature)


if __name__ == "__main__":  # Run trains the first 100 steps (Explore trains all 1,000)
    for step in range(100):
        print(f"step {step + 1:4d} / {num_steps} | loss {train_step(step):.4f}")
    print("--- samples, after 100 steps ---")
    for sample in range(10):
        print(f"sample {sample + 1:2d}: {sample_name()}")
