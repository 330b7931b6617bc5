"""Lesson 3.5, the visited set kept between calls of backward(): the first backward() of a graph
counts right, a second one finds every Value already seen, sorts nothing and counts nothing."""
# expect: fail | backward() on new graphs, twice each | Called a second time on the same input, it returned {'x3.grad': 0} where ours returns {'x3.grad': 2}: x3.grad is 0 but should be 2
# --- autograd: a number that remembers how it was made ---
seen = set()  # every Value any backward() has visited


class Value:
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
        return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


    def backward(self):
        """For every Value below self: how many paths lead from it up to self (kept in grad)."""
        order = []

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._children:
                    visit(child)
                order.append(node)

        visit(self)
        self.grad = 1  # self reaches itself by one path: staying where it is
        for node in reversed(order):
            for child in node._children:
                child.grad += node.grad  # each path from node up to self, one step longer


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    e = a * b
    d = e + c
    L = d * e
    L.backward()
    for name, node in [("L", L), ("d", d), ("e", e), ("c", c), ("a", a), ("b", b)]:
        print(f"paths from {name} up to L: {node.grad}")
