"""train3's parts, finished: attention's pieces of gpt(), its matrices, and sampling.

You write every line of this module yourself, in its lesson: rmsnorm (8.2), the attention
matrices and q, k, v (8.3), the scaled scores and their softmax (8.4), the blend of the values,
the output projection and the residual (8.5), the cache (8.6), the read-out through lm_head
(8.7); the sampling loop in module 11. Each piece is a function named for what it does, so
that a starter's gpt() can show its whole shape and call the pieces a later lesson has you
write. train2's parts that train3 keeps (Value, matrix, softmax, ...) come from given.train2.

Importing this module does nothing: it defines functions. The random numbers they draw come
from the `random` module the starter seeded, in the order it calls them.
"""
import random

from given.train2 import (
    Value,
    characters,
    decayed,
    linear,
    matrix,
    name_at,
    parameters,
    positions,
    softmax,
)

__all__ = ["Value", "add_to_cache", "attention_matrices", "attention_output",
           "attention_weights", "characters", "decayed", "invent_name", "linear", "matrix",
           "name_at", "parameters", "positions", "qkv", "read_out", "rmsnorm", "softmax"]

ATTENTION = ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo')


def attention_matrices(n_embd):
    """attn_wq, attn_wk, attn_wv and attn_wo, n_embd x n_embd each, drawn in that order."""
    return {name: matrix(n_embd, n_embd) for name in ATTENTION}


def rmsnorm(x):
    mean_square = sum(xi * xi for xi in x) / len(x)
    scale = (mean_square + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def qkv(x, weights):
    """q, k and v: x through attn_wq (what this position is looking for), attn_wk (what it
    offers to later ones) and attn_wv (what it hands over when it is picked)."""
    q = linear(x, weights['attn_wq'])
    k = linear(x, weights['attn_wk'])
    v = linear(x, weights['attn_wv'])
    return q, k, v


def add_to_cache(keys, values, k, v):
    """The cache: this position's key and value join the earlier positions' ones."""
    keys.append(k)
    values.append(v)


def attention_weights(q, keys):
    """How well q matches each key so far, divided by the root of the width, through softmax:
    one weight per position, adding up to 1."""
    width = len(q)  # n_embd: q has one number per row of attn_wq
    scores = [sum(qi * ki for qi, ki in zip(q, past_k)) / width ** 0.5 for past_k in keys]
    return softmax(scores)


def attention_output(attn, values, residual, weights):
    """The blend of the values, weighted by attn, through attn_wo, plus the residual."""
    width = len(values[0])  # n_embd, the size of every value
    x = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(width)]
    x = linear(x, weights['attn_wo'])
    return [a + b for a, b in zip(x, residual)]


def read_out(x, weights):
    """The logits: x read out through lm_head, one per token."""
    return linear(x, weights['lm_head'])


def invent_name(gpt, chars, block_size, temperature):
    """One new name from the model gpt, drawn letter by letter until BOS comes out (or
    block_size letters), each letter with its probability at this temperature."""
    BOS, vocab_size = len(chars), len(chars) + 1
    keys, values = [], []
    token, name = BOS, []
    for pos in range(block_size):
        probs = softmax([logit / temperature for logit in gpt(token, pos, keys, values)])
        token = random.choices(range(vocab_size), weights=[p.data for p in probs])[0]
        if token == BOS:
            break
        name.append(chars[token])
    return ''.join(name)
