"""Lesson 9.4, each block caches the plain numbers of k and v: the forward pass is the same, but no
gradient reaches attn_wk or attn_wv through the cache."""
# expect: fail | each block keeps its own keys and values | holds one entry per position, but of plain numbers
import random

# Finished for you, in the course's library (given/train4.py): make_weights and layer_weights,
# whose lines lesson 9.5 has you write, and code with lines you wrote that module 12 asks you
# for again: Value (module 7), characters() (lesson 1.4), n_positions (lesson 2.3) and
# head_scores (lesson 9.2).
from given.train4 import Value, characters, head_scores, layer_weights, make_weights, n_positions

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
    for layer in range(n_layer):
        w = lambda name: weights[f'layer{layer}.{name}']
        # attention: this position looks back at every position so far
        residual = x
        x = rmsnorm(x)
        q, k, v = linear(x, w('attn_wq')), linear(x, w('attn_wk')), linear(x, w('attn_wv'))
        keys[layer].append([ki.data for ki in k])
        values[layer].append([vi.data for vi in v])
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
        x = [h.relu() for h in linear(x, w('mlp_fc1'))]
        x = linear(x, w('mlp_fc2'))
        x = [a + b for a, b in zip(x, residual)]
    return linear(x, weights['lm_head'])


# --- one name's loss, as a training step works it out (forward only: no backward, no update) ---
def name_loss(doc):
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = n_positions(tokens, block_size)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    return loss


def graph_size(out):
    """How many Values the graph of `out` holds: what backward() would have to walk."""
    seen, stack = set(), [out]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(node._children)
    return len(seen)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    def measure(doc='emma'):
        loss = name_loss(doc)
        count = sum(len(row) for mat in weights.values() for row in mat)
        print(f"n_layer = {n_layer}: {count} parameters; the loss of {doc!r} is {loss.data:.4f}, "
              f"a graph of {graph_size(loss):,} Values for backward() to walk")

    measure()
    # A second block, drawn right after the first: the very numbers train4.py draws with n_layer = 2.
    weights.update(layer_weights(1, n_embd))
    n_layer = 2
    measure()
