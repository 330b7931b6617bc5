"""Lesson 8.5, the blend computed from plain numbers: right numbers, no gradient to the values or attention."""
# expect: fail | a gradient reaches every weight gpt() reads | attn_wv
import math
import random

# Finished for you, from the course's library: Value (module 7), characters (lesson 12.2 has you
# write its line again), the attention matrices (lesson 8.3, and again 9.5), and the parts of
# gpt() that lessons 8.6 and 8.7 have you write, each named for what it does.
from given.train3 import Value, add_to_cache, attention_matrices, characters, read_out

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
    add_to_cache(keys, values, k, v)  # the cache keeps every position's k and v (lesson 8.6)
    # how well q matches each key so far; dividing by sqrt(width) keeps softmax from saturating
    scores = [sum(qi * ki for qi, ki in zip(q, past_k)) / n_embd ** 0.5 for past_k in keys]
    attn = softmax(scores)
    # the output is a blend of the values, weighted by attention
    x = [Value(sum(a.data * past_v[i].data for a, past_v in zip(attn, values)))
         for i in range(n_embd)]
    x = linear(x, weights['attn_wo'])
    x = [a + b for a, b in zip(x, residual)]
    return read_out(x, weights)  # one logit per token, through lm_head (lesson 8.7)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    seen = {}  # linear() and read_out() note the x they are given, so that sizes can be printed
    plain_linear, plain_read_out = linear, read_out

    def linear(x, w):
        seen[id(w)] = x
        return plain_linear(x, w)

    def read_out(x, weights):
        seen['lm_head'] = x
        return plain_read_out(x, weights)

    size = lambda vector: (sum(v.data ** 2 for v in vector) / len(vector)) ** 0.5
    tokens = [BOS] + [chars.index(ch) for ch in 'emma']
    keys, values = [], []
    for pos, token in enumerate(tokens):
        seen.clear()
        gpt(token, pos, keys, values)
        blend, out = seen.get(id(weights['attn_wo'])), seen['lm_head']
        said = f"blend of values {size(blend):.3f}" if blend else "no blend yet"
        print(f"position {pos}: {said}, x read out by lm_head {size(out):.3f} (root mean squares)")
