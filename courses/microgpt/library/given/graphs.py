"""Module 3's Value, finished: the number that remembers how it was made, and its graph walks.

Lessons 3.1 to 3.5 and 4.4 to 4.6 teach these lines, and lessons 4.5 and 7.2 to 7.5 have you
write some of them again (the local grads of mul and pow, the line that keeps them, the sort,
the chain rule), so the starters of modules 3 and 4 import them from here instead of showing
them. Three stages: Node (lesson 3.1's __init__, with the mul and pow nodes), Value (every
operator, lesson 3.2) and GradValue (a grad and backward(), lessons 3.5 and 4.4). Every operation
makes its result with type(self): a starter's own `class Value(graphs.GradValue)` gets back
Values of its own class, with the methods it adds.
"""


class Node:
    """A number with the Values it was made from: lesson 3.1's __init__, and the mul and pow
    nodes with their local grads. Plain numbers are not wrapped here: lesson 3.2 does that."""

    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        self._children = children         # the Values this one was computed from
        self._local_grads = local_grads   # d(this)/d(child) for each child, as plain numbers

    def __mul__(self, other):
        return type(self)(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, n):
        return type(self)(self.data ** n, (self,), (n * self.data ** (n - 1),))


def visit(node, order, seen):
    """Lesson 3.4's visit: node and every Value below it into order, each once, after its
    children. seen holds the Values visited so far."""
    if node not in seen:
        seen.add(node)
        for child in node._children:
            visit(child, order, seen)
        order.append(node)


def topological_sort(root):
    """Every Value that root was made from, and root itself: each one once, after its children."""
    order = []
    visit(root, order, set())
    return order


class Value(Node):
    """Lessons 3.1 and 3.2's Value: every operator, built from the add, mul and pow nodes."""

    def __add__(self, other):
        other = other if isinstance(other, Node) else type(self)(other)
        return type(self)(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Node) else type(self)(other)
        return Node.__mul__(self, other)

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


class GradValue(Value):
    """The Value with a grad (lesson 3.5) and the backward() of lesson 4.4: the chain rule,
    walked from self down the sorted graph."""

    def __init__(self, data, children=(), local_grads=()):
        Value.__init__(self, data, children, local_grads)
        self.grad = 0                     # d(loss)/d(this), filled in by backward()

    def backward(self):
        """For every Value below self: how fast self moves when it moves (kept in grad)."""
        self.grad = 1
        for node in reversed(topological_sort(self)):
            for child, local_grad in zip(node._children, node._local_grads):
                child.grad += local_grad * node.grad
