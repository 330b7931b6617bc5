# Lesson 7.2, half done: __slots__ is written, grad and the local grads are still TODO.
# expect: fail | a new Value: grad 0, no children, no local grads | has no grad

# Finished for you, from the course's library: * and ** on Values, each with its local grads
# (lesson 7.4 has you write them into the class yourself).
from given.train2 import multiply, power


# --- autograd: a number that remembers how it was made ---
class Value:
    __slots__ = ('data', 'grad', '_children', '_local_grads')

    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        # TODO (one line): self.grad, the number backward() will add this Value's gradient into.
        #       Nothing has been added yet when a Value is made.
        self._children = children         # the Values this one was computed from
        # TODO (one line): the local grads, kept on the new Value as the line above keeps its
        #       children.

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other): return multiply(self, other)
    def __pow__(self, n): return power(self, n)
    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    a, b = Value(2.0), Value(-4.0)
    ab = a * b
    c = ab + 1
    for name, node in [("a", a), ("b", b), ("ab", ab), ("c", c)]:
        print(f"{name:2}: data {node.data}, grad {getattr(node, 'grad', '(not kept yet)')}, "
              f"children {[child.data for child in node._children]}, "
              f"local grads {getattr(node, '_local_grads', '(not kept yet)')}")
    try:
        c.grda = 5.0  # a typo for grad
        print("c.grda = 5.0 was accepted: c now carries a stray attribute, and c.grad is",
              getattr(c, 'grad', '(not kept yet)'))
    except AttributeError as error:
        print("c.grda = 5.0 is refused:", error)
