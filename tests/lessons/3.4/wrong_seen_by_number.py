"""Lesson 3.4, seen holds the Values' numbers rather than the Values: right as long as no two
Values hold the same number, but two different Values that hold the same number count as one,
and the second is left out."""
# expect: fail | a messy graph, each Value once | seen remembers numbers, not Values
# --- autograd: a number that remembers how it was made ---
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
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

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


def topological_sort(root):
    order, seen = [], set()

    def visit(node):
        if node.data not in seen:
            seen.add(node.data)
            for child in node._children:
                visit(child)
            order.append(node)

    visit(root)
    return order


if __name__ == "__main__":
    x = Value(3.0)
    print(len(topological_sort(x * x)))
