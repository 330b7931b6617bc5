"""Lesson 8.5, a correct variant: each step under a name of its own."""
# expect: pass
import math
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = sorted(set(''.join(docs)))
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")


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
    blend = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(n_embd)]
    found = linear(blend, weights['attn_wo'])
    x = [f + r for f, r in zip(found, residual)]
    return linear(x, weights['lm_head'])


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    seen = {}  # linear() notes the x it is given, per matrix, so that the sizes can be printed
    plain_linear = linear

    def linear(x, w):
        seen[id(w)] = x
        return plain_linear(x, w)

    size = lambda vector: (sum(v.data ** 2 for v in vector) / len(vector)) ** 0.5
    tokens = [BOS] + [chars.index(ch) for ch in 'emma']
    keys, values = [], []
    for pos, token in enumerate(tokens):
        seen.clear()
        gpt(token, pos, keys, values)
        blend, out = seen.get(id(weights['attn_wo'])), seen[id(weights['lm_head'])]
        said = f"blend of values {size(blend):.3f}" if blend else "no blend yet"
        print(f"position {pos}: {said}, x read out by lm_head {size(out):.3f} (root mean squares)")
