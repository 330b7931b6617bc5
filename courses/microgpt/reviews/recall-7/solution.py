"""Module 7 from memory: the Value class, microgpt's whole calculus in one class.

Fill in every method from memory, without opening the lessons' code. Check runs the checks of
lessons 7.2, 7.4 and 7.5 on it, the same checks with the same messages.
"""
import math


class Value:
    """A number that remembers how it was made: its data, its grad (d(loss)/d(this)), the
    Values it was computed from, and the local grad d(this)/d(child) of each of them."""
    __slots__ = ('data', 'grad', '_children', '_local_grads')

    def __init__(self, data, children=(), local_grads=()):
        """Keep the four things every Value holds, and let it hold nothing else."""
        self.data = data
        self.grad = 0
        self._children = children
        self._local_grads = local_grads

    def __add__(self, other):
        """self + other, where other may be a plain number."""
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        """self * other, where other may be a plain number."""
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, n):
        """self ** n, for a plain number n."""
        return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))

    def log(self):
        """The natural logarithm of self."""
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        """e to the power self."""
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        """self where it is positive, else 0."""
        return Value(max(0, self.data), (self,), (float(self.data > 0),))

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1

    def backward(self):
        """Fill in the grad of every Value this one was computed from: d(self)/d(that)."""
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


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    x = Value(3.0)
    y = x * x + x
    y.backward()
    print("y =", y.data, "  x.grad =", x.grad, "  (by hand: 2·3 + 1 = 7)")
