"""Lesson 12.2, n capped at block_size - 1 instead of block_size: a name that reaches block_size
loses its last position. The vocabulary line is right and must not be blamed."""
# expect: fail | every position is scored, at most block_size | it scored another number of positions
"""Experiments with microgpt: one function trains a fresh model on any data, at any size, for any
number of steps, and returns what happened. Change one setting at a time and compare.
Run it next to input.txt (the names).
"""
import math
import random
import time

# Finished for you: the weights of every layer, lines you wrote that lesson 12.3 asks for again.
from given.microgpt import make_weights


# --- autograd: a number that remembers how it was made ---
class Value:
    __slots__ = ('data', 'grad', '_children', '_local_grads')

    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        self.grad = 0                     # d(loss)/d(this), filled in by backward()
        self._children = children         # the Values this one was computed from
        self._local_grads = local_grads   # d(this)/d(child) for each child, as plain numbers

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, n):
        return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))

    def log(self):
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return Value(max(0, self.data), (self,), (float(self.data > 0),))

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1

    def backward(self):
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._children:
                    visit(child)
                order.append(node)

        visit(self)
        self.grad = 1
        for node in reversed(order):
            for child, local_grad in zip(node._children, node._local_grads):
                child.grad += local_grad * node.grad



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



def experiment(docs, n_layer=1, n_embd=16, num_steps=20, block_size=16, n_head=4, seed=42):
    """Train a fresh microgpt on docs, shuffled as microgpt.py shuffles them, from its own seed
    (microgpt's 42 unless told); return its losses, learning rates, vocab_size and size."""
    random.seed(seed)  # this run's own draws: same seed, same shuffle, same weights
    docs = list(docs)  # a copy to shuffle: the caller's list keeps its order
    random.shuffle(docs)
    chars = sorted(set(''.join(docs)))
    BOS = len(chars)
    vocab_size = len(chars) + 1
    head_dim = n_embd // n_head
    weights = make_weights(matrix, vocab_size, block_size, n_embd, n_layer)  # microgpt's order
    params = [p for mat in weights.values() for row in mat for p in row]

    def gpt(token, pos, keys, values):  # microgpt's gpt(), reading this experiment's sizes
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
                scores = [sum(qi * ki for qi, ki in zip(q[lo:hi], past_k[lo:hi])) / head_dim ** 0.5
                          for past_k in keys[layer]]
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

    learning_rate, beta1, beta2, eps = 0.01, 0.85, 0.99, 1e-8
    m = [0.0] * len(params)  # running mean of each gradient
    v = [0.0] * len(params)  # running mean of each squared gradient
    losses, rates = [], []
    for step in range(num_steps):
        doc = docs[step % len(docs)]
        tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
        n = min(block_size - 1, len(tokens) - 1)
        keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
        step_losses = []
        for pos in range(n):
            probs = softmax(gpt(tokens[pos], pos, keys, values))
            step_losses.append(-probs[tokens[pos + 1]].log())
        loss = (1 / n) * sum(step_losses)
        loss.backward()
        lr = learning_rate * (1 - step / num_steps)
        for i, p in enumerate(params):
            m[i] = beta1 * m[i] + (1 - beta1) * p.grad
            v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2
            m_hat = m[i] / (1 - beta1 ** (step + 1))
            v_hat = v[i] / (1 - beta2 ** (step + 1))
            p.data -= lr * m_hat / (v_hat ** 0.5 + eps)
            p.grad = 0
        losses.append(loss.data)
        rates.append(lr)
    return {'losses': losses, 'rates': rates, 'vocab_size': vocab_size, 'params': len(params)}


def timed(docs, **settings):
    """An experiment, and how many seconds each of its steps took."""
    start = time.perf_counter()
    result = experiment(docs, **settings)
    return result, (time.perf_counter() - start) / len(result['losses'])


if __name__ == "__main__":  # Run: three short experiments on the names, each timed
    names = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    for label, settings in [('microgpt', {}), ('2 layers', {'n_layer': 2}),
                            ('n_embd 32', {'n_embd': 32})]:
        result, seconds = timed(names, num_steps=5, **settings)
        mean = sum(result["losses"]) / 5
        print(f"{label:10s} {result['params']:6,} params | mean loss {mean:.3f} | "
              f"{seconds:.2f} s per step")
