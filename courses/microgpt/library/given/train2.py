"""train2's parts, finished: the Value class, the one-letter model and its training step.

You write every line of this module yourself, in its lesson: what a Value holds (7.2), softmax
on Values (7.3), the local grads of * and ** and log, exp, relu (7.4), backward() (7.5),
matrix(), the list of parameters and the SGD update (7.6), the MLP's hidden layer and logits
(7.7). Four small helpers hold lines of train2 that later lessons ask for: the learning rate's
decay (10.5), the name each step reads (11.4), the vocabulary and the positions scored (12.2);
and lesson 12.1 has you write backward()'s chain rule again. A starter from before those lessons
imports them from here, so that it runs without showing them.

Importing this module does nothing: it defines functions and a class. The random numbers
matrix() draws come from the `random` module the starter seeded, in the order it calls them.
"""
import math
import random


# --- autograd: a number that remembers how it was made (lessons 7.2 to 7.5) ---
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


# --- operations for a Value class of the starter's own (lessons 7.2 and 7.3) ---
# Before lesson 7.4, a starter's class hands * and ** (and exp) to these. Each makes its result
# with the class of the Value it is given, so the result is a Value of that same class.

def multiply(a, b):
    """a * b: children (a, b), local grads (b's number, a's number)."""
    make = type(a)
    b = b if isinstance(b, make) else make(b)
    return make(a.data * b.data, (a, b), (b.data, a.data))


def power(a, n):
    """a ** n, for a plain number n: local grad n * x ** (n - 1)."""
    return type(a)(a.data ** n, (a,), (n * a.data ** (n - 1),))


def exponential(a):
    """e ** a: its local grad is e ** x again."""
    return type(a)(math.exp(a.data), (a,), (math.exp(a.data),))


# --- the data and the steps (lessons 10.5, 11.4 and 12.2 have you write these lines) ---

def characters(docs):
    """The vocabulary: every character that appears in the names, once each, sorted."""
    return sorted(set(''.join(docs)))


def name_at(docs, step):
    """The name training step `step` reads: the names in order, round again after the last."""
    return docs[step % len(docs)]


def positions(tokens, block_size):
    """How many positions of a name are scored: one per next token, at most block_size."""
    return min(block_size, len(tokens) - 1)


def decayed(learning_rate, step, num_steps):
    """The learning rate at this step: it falls in a straight line, to 0 at num_steps."""
    return learning_rate * (1 - step / num_steps)


# --- the parameters and the update (lesson 7.6) ---

def matrix(rows, cols, std=0.08):
    """rows lists of cols parameters, each a Value of its own, drawn row after row."""
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


def parameters(weights):
    """Every parameter in one flat list: each matrix in order, each row, each Value itself."""
    return [p for mat in weights.values() for row in mat for p in row]


def sgd_step(params, lr):
    """Move every parameter against its grad, by lr times it, then set the grad back to 0."""
    for p in params:
        p.data -= lr * p.grad
        p.grad = 0


# --- the model (softmax: lesson 7.3; the MLP's layers: lesson 7.7) ---

def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    biggest = max(v.data for v in logits)  # subtracting the max keeps exp() from overflowing
    exps = [(v - biggest).exp() for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def mlp_layers(x, weights):
    """The MLP after the embedding row x: a hidden layer of relus, then one logit per letter."""
    x = [h.relu() for h in linear(x, weights['mlp_fc1'])]
    return linear(x, weights['mlp_fc2'])
