"""Module 9 from memory: train4's model, the GPT of microgpt.py.

Write its heads' sizes, make_weights(), gpt() with its heads, its MLP and its loop over the
layers, and the loss of one name, from memory, without opening the lessons' code. Check runs
the checks of lessons 9.1 to 9.5 on it, the same checks with the same messages.
"""
import random

# Finished for you, from the course's library: Value (module 7), characters() (lesson 1.4) and
# n_positions (lesson 2.3), whose lines module 12 asks you for again.
from given.train4 import Value, characters, n_positions

random.seed(42)  # same seed, same shuffle, same weights

# --- the data and the tokenizer, as in every lesson ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
chars = characters(docs)
BOS = len(chars)
vocab_size = len(chars) + 1

# --- the sizes ---
n_layer = 1      # transformer blocks
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees
n_head = 4
head_dim = n_embd // n_head


# --- finished for you: the building blocks of modules 5, 7 and 8 ---
def matrix(rows, cols, std=0.08):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


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


# --- the parameters ---
def make_weights():
    """Every matrix of the model, by name, drawn in microgpt's order, for the sizes above."""
    weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
               'lm_head': matrix(vocab_size, n_embd)}
    for layer in range(n_layer):
        for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
            weights[f'layer{layer}.{name}'] = matrix(n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 4 * n_embd)
    return weights


weights = make_weights()
params = [p for mat in weights.values() for row in mat for p in row]


# --- the model ---
def gpt(token, pos, keys, values):
    """The logits of what comes after `token` at position pos: one score for every token of
    the vocabulary. keys and values hold one list per layer, the cache of the name so far; when
    gpt() returns, every layer's lists hold this position's key and value too."""
    x = [t + p for t, p in zip(weights['wte'][token], weights['wpe'][pos])]
    x = rmsnorm(x)
    for layer in range(n_layer):
        w = lambda name: weights[f'layer{layer}.{name}']
        residual = x
        x = rmsnorm(x)
        q, k, v = linear(x, w('attn_wq')), linear(x, w('attn_wk')), linear(x, w('attn_wv'))
        keys[layer].append(k)
        values[layer].append(v)
        heads = []
        for h in range(n_head):
            lo, hi = h * head_dim, (h + 1) * head_dim
            scores = [sum(qi * ki for qi, ki in zip(q[lo:hi], past_k[lo:hi])) / head_dim ** 0.5
                      for past_k in keys[layer]]
            attn = softmax(scores)
            heads += [sum(a * past_v[i] for a, past_v in zip(attn, values[layer]))
                      for i in range(lo, hi)]
        x = linear(heads, w('attn_wo'))
        x = [a + b for a, b in zip(x, residual)]
        residual = x
        x = rmsnorm(x)
        x = [h.relu() for h in linear(x, w('mlp_fc1'))]
        x = linear(x, w('mlp_fc2'))
        x = [a + b for a, b in zip(x, residual)]
    return linear(x, weights['lm_head'])


def name_loss(doc):
    """The mean loss of one name over its positions, BOS first: a Value, ready for backward()."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = n_positions(tokens, block_size)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    return (1 / n) * sum(losses)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"{len(params)} parameters in {len(weights)} matrices")
    for doc in ('emma', 'olivia', 'ava'):
        print(f"the loss of {doc!r} before any training: {name_loss(doc).data:.4f}")
