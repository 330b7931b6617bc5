# Finished for you: your Value of lessons 3.1 and 3.2, and your visit of lesson 3.4. Lessons 4.5
# and 7.2 to 7.5 have you write some of their lines again, so they are not shown here. GradValue
# is that Value with a grad: its __init__ also sets grad to 0, the number backward() adds into.
from given import graphs


# --- autograd: a number that remembers how it was made ---
class Value(graphs.GradValue):  # a Value is a GradValue, with a backward() of your own
    def backward(self):
        """For every Value below self: how many paths lead from it up to self (kept in grad)."""
        order, seen = [], set()

        def visit(node):  # your visit of lesson 3.4: node and all below it into order, each once
            graphs.visit(node, order, seen)

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
