"""Lesson 12.1, a draw that leaves BOS out, so that no name comes out empty: every name then runs
to block_size letters."""
# expect: fail | sampling draws each token with its probability | with the probability the model gives it
"""microgpt: the whole file, read top to bottom. Every line here is one you wrote in an earlier
lesson; four of them are left for you to write again from memory.
Run it next to input.txt (the names).
"""
import math
import random

# Finished for you, lines you wrote that lessons 12.2 and 12.3 ask for again: the vocabulary,
# the pairs to score, the decaying learning rate (12.2) and the weights of every layer (12.3).
from given.microgpt import characters, decayed, make_weights, pairs_to_score

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
n_layer = 1      # transformer blocks
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees
n_head = 4       # attention heads per block
head_dim = n_embd // n_head


def matrix(rows, cols, std=0.08):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


# wte, wpe and lm_head, then each layer's attention (attn_wq, _wk, _wv, _wo) and MLP (mlp_fc1, _fc2)
weights = make_weights(matrix, vocab_size, block_size, n_embd, n_layer)
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



# --- training: one name per step, Adam with a learning rate that decays to zero ---
num_steps = 1000
learning_rate, beta1, beta2, eps = 0.01, 0.85, 0.99, 1e-8
m = [0.0] * len(params)  # running mean of each gradient
v = [0.0] * len(params)  # running mean of each squared gradient


def name_loss(doc):
    """The mean loss of one name, position by position: the forward half of a training step."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = pairs_to_score(tokens, block_size)  # one per token but the last, at most block_size
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    return (1 / n) * sum(losses)


def train_step(step):
    """One step of microgpt on the name docs[step % len(docs)]; returns its loss."""
    loss = name_loss(docs[step % len(docs)])
    loss.backward()
    lr = decayed(learning_rate, step, num_steps)  # falls in a straight line to 0 at num_steps
    for i, p in enumerate(params):
        m[i] = beta1 * m[i] + (1 - beta1) * p.grad
        v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2
        m_hat = m[i] / (1 - beta1 ** (step + 1))
        v_hat = v[i] / (1 - beta2 ** (step + 1))
        p.data -= lr * m_hat / (v_hat ** 0.5 + eps)
        p.grad = 0
    return loss.data


# --- sampling: let the model invent names, one letter at a time ---
temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names


def sample_name():
    """One new name, drawn letter by letter until BOS comes out (or block_size letters)."""
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    token, name = BOS, []
    for pos in range(block_size):
        probs = softmax([logit / temperature for logit in gpt(token, pos, keys, values)])
        token = random.choices(range(BOS), weights=[p.data for p in probs][:BOS])[0]
        if token == BOS:
            break
        name.append(chars[token])
    return ''.join(name)


if __name__ == "__main__":  # Run trains the first 20 steps (Explore trains all 1,000)
    for step in range(20):
        print(f"step {step + 1:4d} / {num_steps} | loss {train_step(step):.4f}")
    print("--- samples, after 20 steps ---")
    for sample in range(5):
        print(f"sample {sample + 1:2d}: {sample_name()}")
