"""Lesson 8.3, q, k and v made from x's plain numbers instead of x itself."""
# expect: fail | q, k and v each come from x through their own matrix | plain numbers
import math
import random

# Finished for you, from the course's library: Value (module 7), characters (lesson 12.2 has you
# write its line again), and the parts of gpt() that lessons 8.4 to 8.7 have you write, each
# named for what it does.
from given.train3 import (Value, add_to_cache, attention_output, attention_weights, characters,
                          read_out)

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
for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
    weights[name] = matrix(n_embd, n_embd)
params = [p for mat in weights.values() for row in mat for p in row]
print(f"parameters: {len(params)}")


# --- the model's building blocks ---
def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


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
    numbers = [xi.data for xi in x]
    q = linear(numbers, weights['attn_wq'])  # what this position is looking for
    k = linear(numbers, weights['attn_wk'])  # what this position offers to later ones
    v = linear(numbers, weights['attn_wv'])  # what it hands over when it is picked
    add_to_cache(keys, values, k, v)  # the cache keeps every position's k and v (lesson 8.6)
    attn = attention_weights(q, keys)  # how well q matches each key so far (lesson 8.4)
    x = attention_output(attn, values, residual, weights)  # the values blended (lesson 8.5)
    return read_out(x, weights)  # one logit per token, through lm_head (lesson 8.7)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    tokens = [BOS] + [chars.index(ch) for ch in 'emma']
    keys, values = [], []
    for pos, token in enumerate(tokens):
        gpt(token, pos, keys, values)  # each call leaves its k in keys and its v in values
    print(f"'emma' read at {len(tokens)} positions: {len(keys)} keys and {len(values)} values kept")
    print("key of the last position ('a'):  ", [round(ki.data, 3) for ki in keys[-1][:5]], '...')
    print("value of the last position ('a'):", [round(vi.data, 3) for vi in values[-1][:5]], '...')
    print("is the key the same as the value?", all(a.data == b.data for a, b in zip(keys[-1], values[-1])))
