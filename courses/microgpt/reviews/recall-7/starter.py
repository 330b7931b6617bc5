"""Module 7 from memory: the Value class, microgpt's whole calculus in one class.

Fill in every method from memory, without opening the lessons' code. Check runs the checks of
lessons 7.2, 7.4 and 7.5 on it, the same checks with the same messages.
"""
import math


class Value:
    """A number that remembers how it was made: its data, its grad (d(loss)/d(this)), the
    Values it was computed from, and the local grad d(this)/d(child) of each of them."""

    def __init__(self, data, children=(), local_grads=()):
        """Keep the four things every Value holds, and let it hold nothing else."""
        # TODO

    def __add__(self, other):
        """self + other, where other may be a plain number."""
        # TODO

    def __mul__(self, other):
        """self * other, where other may be a plain number."""
        # TODO

    def __pow__(self, n):
        """self ** n, for a plain number n."""
        # TODO

    def log(self):
        """The natural logarithm of self."""
        # TODO

    def exp(self):
        """e to the power self."""
        # TODO

    def relu(self):
        """self where it is positive, else 0."""
        # TODO

    # TODO: negation, subtraction and division (both ways round), and a plain number on the
    # left of + and *, each built from the operations above.

    def backward(self):
        """Fill in the grad of every Value this one was computed from: d(self)/d(that)."""
        # TODO


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    x = Value(3.0)
    y = x * x + x
    y.backward()
    print("y =", y.data, "  x.grad =", x.grad, "  (by hand: 2·3 + 1 = 7)")
