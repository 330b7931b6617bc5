"""Lesson 3.2, a correct variant: the reflected methods wrap the left-hand number themselves."""
# expect: pass
# Finished for you in Node: your __init__ of lesson 3.1, and the mul and pow nodes with their
# local grads. Lessons 4.5, 7.2 and 7.4 have you write those lines, so they are not shown here.
from given.graphs import Node


# --- autograd: a number that remembers how it was made ---
class Value(Node):  # a Value is a Node: it has Node's __init__, * and **, and the methods below
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Node.__mul__(self, other)  # Node's mul: the product, as a new node

    def __neg__(self): return self * -1
    def __radd__(self, other): return Value(other) + self
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return Value(other) - self
    def __rmul__(self, other): return Value(other) * self
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return Value(other) / self

