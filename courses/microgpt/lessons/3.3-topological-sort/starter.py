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


# --- the topological sort: every node after its children ---
def topological_sort(root):
    """Every Value that root was made from, and root itself: each one after its children."""
    order = []

    def visit(node):
        # TODO (two lines): go through the children of node, and visit each child. Here visit
        #   calls itself: that is how it reaches the children's children, and theirs.
        # TODO (one line): then add node at the end of order.
        pass

    visit(root)
    return order


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    a, b, c, f = Value(2.0), Value(-3.0), Value(10.0), Value(4.0)
    e = a * b
    d = e + c
    out = d * f
    names = {a: "a", b: "b", c: "c", f: "f", e: "e", d: "d", out: "out"}
    print("out = (a * b + c) * f")
    print("sorted:", [names.get(node, "?") for node in topological_sort(out)])
