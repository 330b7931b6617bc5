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
        # TODO: replace () with one plain number per child, in the children's order (self, other):
        #       how fast out moves as that child moves (lesson 4.6's table: the other factor)
        return Value(self.data * other.data, (self, other), ())

    def __pow__(self, n):
        # TODO: replace () with a one-element tuple: pow's rate (lesson 4.6), as a plain number
        return Value(self.data ** n, (self,), ())

    def log(self):
        # TODO: replace () with a one-element tuple: log's rate (lesson 4.6), as a plain number
        return Value(math.log(self.data), (self,), ())

    def exp(self):
        # TODO: replace () with a one-element tuple: exp's rate (lesson 4.6), as a plain number
        return Value(math.exp(self.data), (self,), ())

    def relu(self):
        # TODO: replace () with a one-element tuple: relu's slope at self's number, 1.0 or 0.0
        return Value(max(0, self.data), (self,), ())

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
