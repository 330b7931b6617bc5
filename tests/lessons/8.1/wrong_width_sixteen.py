"""Lesson 8.1, x counted to 16, the bundled width, instead of pairing the rows."""
# expect: fail | x adds the token's row and the position's row | n_embd = 8
import math
import random

# Finished for you, from the course's library: Value (module 7), characters (lesson 12.2 has you
# write its line again), the attention matrices (lesson 8.3), and the parts of gpt() that lessons
# 8.2 to 8.7 have you write, each named for what it does.
from given.train3 import (Value, add_to_cache, attention_matrices, attention_output,
                          attention_weights, characters, qkv, read_out, rmsnorm)

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


def gpt(token, pos, keys=[], values=[]):  # a stand-in: lesson 8.7 has you write this line
    x = [weights['wte'][token][i] + weights['wpe'][pos][i] for i in range(16)]
    x = rmsnorm(x)
    # attention: this position looks back at every position so far
    residual = x
    x = rmsnorm(x)
    q, k, v = qkv(x, weights)  # x through attn_wq, attn_wk and attn_wv (lesson 8.3)
    add_to_cache(keys, values, k, v)  # the cache keeps every position's k and v (lesson 8.6)
    attn = attention_weights(q, keys)  # how well q matches each key so far (lesson 8.4)
    x = attention_output(attn, values, residual, weights)  # the values blended (lesson 8.5)
    return read_out(x, weights)  # one logit per token, through lm_head (lesson 8.7)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    for name, mat in weights.items():
        print(f"{name}: {len(mat)} rows of {len(mat[0])}")
    n = chars.index('n')
    at2, at3 = gpt(n, 2, [], []), gpt(n, 3, [], [])  # the same letter at two positions
    print("'n' at position 2, first logits:", [round(logit.data, 4) for logit in at2[:4]])
    print("'n' at position 3, first logits:", [round(logit.data, 4) for logit in at3[:4]])
    print("the same logits?", all(a.data == b.data for a, b in zip(at2, at3)))
