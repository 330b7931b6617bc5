# A learner's file for lesson 7.4: pow through math.pow, log's rate as x ** -1, relu's as a
# expect: pass
# conditional on the output, exp's rate read back from the new node.
import math


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
        return Value(self.data ** n, (self,), (n * math.pow(self.data, n - 1),))

    def log(self):
        return Value(math.log(self.data), (self,), (self.data ** -1,))

    def exp(self):
        out = Value(math.exp(self.data), (self,))
        out._local_grads = (out.data,)
        return out

    def relu(self):
        out = max(0, self.data)
        return Value(out, (self,), (1.0 if out > 0 else 0.0,))

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    a, b = Value(2.0), Value(-4.0)
    print("a * b    records", (a * b)._local_grads)
    print("a ** 3   records", (a ** 3)._local_grads)
    print("a.log()  records", a.log()._local_grads)
    print("a.exp()  records", a.exp()._local_grads)
    print("b.relu() records", b.relu()._local_grads)
