"""Lesson 3.2, half done: wrapping, negation and __radd__ written, subtraction not yet."""
# expect: fail | subtraction both ways | looks for a method __sub__ in the class
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self._children = children
        self._local_grads = local_grads

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, n):
        return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
