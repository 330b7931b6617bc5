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


# --- the topological sort: every node after its children, each node once ---
def topological_sort(root):
    """Every Value that root was made from, and root itself: each one once, after its children."""
    order, seen = [], set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            for child in node._children:
                visit(child)
            order.append(node)

    visit(root)
    return order


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    x = Value(3.0)
    y = x * x  # x is used twice
    print("y = x * x: 2 Values, sorted into", len(topological_sort(y)), "entries")
    step = Value(1.0)
    for _ in range(16):  # a ladder: each new Value uses the one before it twice
        step = step + step
    print("a ladder of 17 Values, sorted into", len(topological_sort(step)), "entries")
