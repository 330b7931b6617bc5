"""Lesson 3.2, v - w as v plus a new Value made from w's number: right for v - 3, and the right
number for Value(5.0) - Value(2.0), but its graph does not reach w."""
# expect: fail | subtraction both ways | does not reach the Value 2
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
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + Value(-other.data) if isinstance(other, Value) else self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    v = Value(2.0)
    for text in ["v + 3", "v * 3", "-v", "3 + v", "v - 3", "3 - v", "3 * v", "v / 4", "3 / v"]:
        try:
            print(f"{text:6} gives {eval(text).data}")
        except Exception as error:  # a method not written yet: show what Python says
            print(f"{text:6} raises {type(error).__name__}: {error}")
