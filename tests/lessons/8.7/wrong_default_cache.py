"""Lesson 8.7, state kept across calls: the stand-in's default lists were kept, so every call
# expect: fail | gpt() takes its cache from the caller | the first call's key was still in the cache
that leaves them out shares one cache."""
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


def gpt(token, pos, keys=[], values=[]):
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
    x = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(n_embd)]
    x = linear(x, weights['attn_wo'])
    x = [a + b for a, b in zip(x, residual)]
    return linear(x, weights['lm_head'])


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
learning_rate = 0.3  # below train1's: rmsnorm makes vectors size ~1, so gradients are bigger


def name_loss(doc):
    """The mean loss of one name, position by position: the forward half of a training step."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = min(block_size, len(tokens) - 1)
    keys, values = [], []
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    return (1 / n) * sum(losses)


def train_step(step):
    """One step of train3 on the name docs[step % len(docs)]; returns its loss."""
    loss = name_loss(docs[step % len(docs)])
    loss.backward()
    lr = learning_rate * (1 - step / num_steps)
    for p in params:  # step downhill, then zero the grad: backward() adds into it
        p.data -= lr * p.grad
        p.grad = 0
    return loss.data


# --- sampling: let the model invent names, one letter at a time ---
temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names


def sample_name():
    """One new name, drawn letter by letter until BOS comes out (or block_size letters)."""
    keys, values = [], []
    token, name = BOS, []
    for pos in range(block_size):
        probs = softmax([logit / temperature for logit in gpt(token, pos, keys, values)])
        token = random.choices(range(vocab_size), weights=[p.data for p in probs])[0]
        if token == BOS:
            break
        name.append(chars[token])
    return ''.join(name)


if __name__ == "__main__":  # Run trains the first 100 steps (Explore trains all 1,000)
    for step in range(100):
        print(f"step {step + 1:4d} / {num_steps} | loss {train_step(step):.4f}")
    print("--- samples, after 100 steps ---")
    for sample in range(10):
        print(f"sample {sample + 1:2d}: {sample_name()}")
