"""Lesson 9.3, the ReLU made from plain numbers: Value(max(0, h.data)) has the right numbers, but
no gradient goes back through it to mlp_fc1."""
# expect: fail | ReLU between mlp_fc1 and mlp_fc2 | Your ReLU makes new Values from plain numbers
import random

# Finished for you, in the course's library (given/train4.py): make_weights, whose lines lesson
# 9.5 has you write, and code with lines you wrote that module 12 asks you for again: Value
# (module 7), characters() (lesson 1.4) and head_scores (lesson 9.2).
from given.train4 import Value, characters, head_scores, make_weights

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")


# --- the parameters: small random numbers, drawn in a fixed order ---
n_layer = 1      # transformer blocks
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees
n_head = 4       # attention heads per block
head_dim = n_embd // n_head

weights = make_weights(vocab_size, n_embd, block_size, n_layer)
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
    for layer in range(1):  # block 0 only, for now: lesson 9.4 loops over all n_layer blocks
        w = lambda name: weights['layer0.' + name]
        # attention: this position looks back at every position so far
        residual = x
        x = rmsnorm(x)
        q, k, v = linear(x, w('attn_wq')), linear(x, w('attn_wk')), linear(x, w('attn_wv'))
        keys[0].append(k)
        values[0].append(v)
        heads = []
        for h in range(n_head):
            lo, hi = h * head_dim, (h + 1) * head_dim
            scores = head_scores(q, keys[layer], lo, hi, head_dim)
            attn = softmax(scores)
            heads += [sum(a * past_v[i] for a, past_v in zip(attn, values[layer]))
                      for i in range(lo, hi)]
        x = linear(heads, w('attn_wo'))
        x = [a + b for a, b in zip(x, residual)]
        # MLP: each position thinks on its own
        residual = x
        x = rmsnorm(x)
        x = [Value(max(0, h.data)) for h in linear(x, w('mlp_fc1'))]
        x = linear(x, w('mlp_fc2'))
        x = [a + b for a, b in zip(x, residual)]
    return linear(x, weights['lm_head'])


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    plain_linear = linear
    seen = {}

    def linear(x, w):  # only while the demo runs: note what the MLP's two matrices see
        out = plain_linear(x, w)
        if w is weights['layer0.mlp_fc1']:
            seen['fc1 out'] = [v.data for v in out]
        if w is weights['layer0.mlp_fc2']:
            seen['fc2 in'] = [v.data for v in x]
        return out

    tokens = [BOS] + [chars.index(ch) for ch in 'emma']
    keys, values = [[]], [[]]  # one layer: its list of keys and its list of values
    for pos, token in enumerate(tokens):
        seen.clear()
        logits = gpt(token, pos, keys, values)
    print("at the last position of 'emma':")
    if 'fc1 out' in seen:
        below = sum(h <= 0 for h in seen['fc1 out'])
        print(f"  mlp_fc1 made {len(seen['fc1 out'])} numbers, {below} of them 0 or below")
    if 'fc2 in' in seen:
        zeros = sum(h == 0 for h in seen['fc2 in'])
        print(f"  mlp_fc2 read {len(seen['fc2 in'])} numbers, {zeros} of them exactly 0")
    if not seen:
        print("  the MLP did not run: gpt() never used mlp_fc1 or mlp_fc2")
