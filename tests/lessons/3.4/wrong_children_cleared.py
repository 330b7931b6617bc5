"""Lesson 3.4, the sort throws each Value's children away once it is listed, to free memory:
the order is right, but the graph the caller gave is left without its arrows."""
# expect: fail | topological_sort on new graphs, twice each | (n1 was made from x1 and x3): after the call, n1 has no children any more
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
        if node not in seen:
            seen.add(node)
            for child in node._children:
                visit(child)
            order.append(node)
            node._children = ()  # the sort is done with them: free the memory

    visit(root)
    return order


if __name__ == "__main__":
    x = Value(3.0)
    print(len(topological_sort(x * x)))
