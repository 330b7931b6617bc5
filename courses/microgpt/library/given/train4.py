"""train4.py's model, finished: the GPT of module 9, for the lessons that must not show its lines.

The starters of modules 9 to 11 import from here the lines of train4.py that a later lesson
still has you write: the heads' scores and blends and attn_wo (lesson 9.2), the MLP block
(9.3), the layer loop (9.4), each layer's matrices (9.5), and lines of earlier modules that
module 12 asks for again: Value.backward's last line (7.5, again in 12.1), the vocabulary
(1.4, again in 12.2), how many positions a name scores (2.3, again in 12.2), and the loop over
the layers (9.4 and 9.5, again in 12.3). The code is train4.py's, cut into functions that are
handed the weights and sizes they use, so that a file's own names decide what they run on.

Nothing here runs when imported: the random numbers are drawn when a file calls matrix(),
layer_weights() or make_weights(), in the order it calls them.
"""
import random

# --- autograd: a number that remembers how it was made (modules 3 and 7) ---
from .train2 import Value  # train2's class, unchanged in every later script


# --- the data ---
def characters(docs):
    """The vocabulary: every character that appears in docs, once each, sorted (lesson 1.4)."""
    return sorted(set(''.join(docs)))


def n_positions(tokens, block_size):
    """How many positions a name's tokens are scored at: one per next token, never more than
    block_size (lesson 2.3)."""
    return min(block_size, len(tokens) - 1)


# --- the parameters: small random numbers, drawn in a fixed order ---
def matrix(rows, cols, std=0.08):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


def layer_weights(layer, n_embd):
    """The six matrices of block number `layer`, drawn in microgpt's order: attention's four,
    then the MLP's two (lesson 9.5)."""
    weights = {}
    for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
        weights[f'layer{layer}.{name}'] = matrix(n_embd, n_embd)
    weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd)
    weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 4 * n_embd)
    return weights


def make_weights(vocab_size, n_embd, block_size, n_layer):
    """Every matrix of the model, drawn in microgpt's order: wte, wpe and lm_head, then the
    blocks, one after another (lesson 9.5)."""
    weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
               'lm_head': matrix(vocab_size, n_embd)}
    for layer in range(n_layer):
        weights.update(layer_weights(layer, n_embd))
    return weights


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


def head_scores(q, past_keys, lo, hi, head_dim):
    """One head's scores: its slice of q against the same slice of every key so far, scaled by
    the square root of the slice's length (lesson 9.2)."""
    return [sum(qi * ki for qi, ki in zip(q[lo:hi], past_k[lo:hi])) / head_dim ** 0.5
            for past_k in past_keys]


def head_output(attn, past_values, lo, hi):
    """One head's output: numbers lo to hi of the values so far, weighted by attn and added
    up (lesson 9.2)."""
    return [sum(a * past_v[i] for a, past_v in zip(attn, past_values))
            for i in range(lo, hi)]


def mix_heads(heads, attn_wo):
    """The heads' outputs, side by side, through the output projection attn_wo (lesson 9.2)."""
    return linear(heads, attn_wo)


def mlp_block(x, mlp_fc1, mlp_fc2):
    """The MLP block: up to 4 * n_embd numbers, relu, back down, added onto x (lesson 9.3)."""
    residual = x
    x = rmsnorm(x)
    x = [h.relu() for h in linear(x, mlp_fc1)]
    x = linear(x, mlp_fc2)
    return [a + b for a, b in zip(x, residual)]


def transformer(token, pos, keys, values, weights, n_layer, n_head):
    """train4.py's gpt(token, pos, keys, values), on the weights and sizes it is handed: the
    logits of the token after `token` at position pos, the caches filled as it goes (modules 8
    and 9)."""
    head_dim = len(weights['wte'][token]) // n_head
    x = [t + p for t, p in zip(weights['wte'][token], weights['wpe'][pos])]
    x = rmsnorm(x)
    for layer in range(n_layer):
        w = lambda name: weights[f'layer{layer}.{name}']
        # attention: this position looks back at every position so far
        residual = x
        x = rmsnorm(x)
        q, k, v = linear(x, w('attn_wq')), linear(x, w('attn_wk')), linear(x, w('attn_wv'))
        keys[layer].append(k)
        values[layer].append(v)
        heads = []
        for h in range(n_head):
            lo, hi = h * head_dim, (h + 1) * head_dim
            attn = softmax(head_scores(q, keys[layer], lo, hi, head_dim))
            heads += head_output(attn, values[layer], lo, hi)
        x = mix_heads(heads, w('attn_wo'))
        x = [a + b for a, b in zip(x, residual)]
        # MLP: each position thinks on its own
        x = mlp_block(x, w('mlp_fc1'), w('mlp_fc2'))
    return linear(x, weights['lm_head'])
