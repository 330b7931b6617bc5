# --- autograd: a number that remembers how it was made ---
# Your Value of lessons 3.1 and 3.2, finished for you. Lessons 4.5, 7.2 and 7.4 have you write
# some of its lines again, so they are not shown here.
from given.graphs import Value


# --- the topological sort: every node after its children ---
def topological_sort(root):
    """Every Value that root was made from, and root itself: each one after its children."""
    order = []

    def visit(node):
        # TODO (two lines): go through the children of node, and visit each child. Here visit
        #   calls itself: that is how it reaches the children's children, and theirs.
        # TODO (one line): then node itself goes into order, after everything it was made from.
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
