"""Module 3 from memory: Value, a number that remembers what it was made from, and its graph.

Write the class, its operators, the topological sort and a backward() that counts paths, without
opening the lessons' code. Check runs the checks of lessons 3.1 to 3.5 on it, the same checks
with the same messages.
"""
# Finished for you in Node: the mul and pow nodes with their local grads. Lessons 4.5, 7.2 and
# 7.4 have you write those lines, so they are not shown here; Value borrows them below.
from given.graphs import Node


# --- autograd: a number that remembers how it was made ---
class Value:
    """A number with the Values it was made from (its children), the local grad of each child
    (kept, for lesson 4.4), and grad: 0 until backward() adds into it. Value(2.0) is made from
    nothing."""

    # TODO: what Python runs each time a Value is made, as Value(data) or, by the operations
    #   below, as Value(data, children, local_grads): the new Value keeps all three (children
    #   and local grads under the names the rest of microgpt reads), and its grad.

    def __add__(self, other):
        """self + other, where other may be a plain number."""
        # TODO (before the line below)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        """self * other, where other may be a plain number."""
        # TODO (before the line below)
        return Node.__mul__(self, other)  # Node's mul: the product, as a new node

    __pow__ = Node.__pow__  # Node's pow: self ** n for a plain number n, as a new node

    # TODO: -v, v - w and v / w, and a plain number on either side of +, -, * and /, each built
    #   only from +, * and ** on Values, so that every node of the graph is an add, a mul or a
    #   pow node.

    def backward(self):
        """For every Value below self: how many paths lead from it up to self (kept in grad)."""
        # TODO


# --- the topological sort: every node after its children, each node once ---
def topological_sort(root):
    """Every Value that root was made from, and root itself: each one once, after its children."""
    # TODO


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    a, b, c = Value(2.0), Value(-3.0), Value(10.0)
    e = a * b
    d = e + c
    L = d * e
    names = {a: "a", b: "b", c: "c", e: "e", d: "d", L: "L"}
    print("L = (a * b + c) * (a * b), sorted:", [names[node] for node in topological_sort(L)])
    L.backward()
    for name, node in [("L", L), ("d", d), ("e", e), ("c", c), ("a", a), ("b", b)]:
        print(f"paths from {name} up to L: {node.grad}")
