# --- autograd: a number that remembers how it was made ---
# Your Value of lessons 3.1 and 3.2, finished for you. Lessons 4.5, 7.2 and 7.4 have you write
# some of its lines again, so they are not shown here.
from given.graphs import Value


# --- the topological sort: every node after its children, each node once ---
def topological_sort(root):
    """Every Value that root was made from, and root itself: each one once, after its children."""
    # TODO (change the next line): next to order, visit() needs seen: the set of the Values it has
    #   visited so far, shared by all its calls and empty at the start.
    order = []

    def visit(node):
        # TODO (two lines): a node already in seen is skipped entirely, and a new one goes into
        #   seen before anything else.
            # TODO (three lines): then, for a new node only (one level deeper, under the if),
            #   visit's work of lesson 3.3: each child is visited, and node joins order after them.
        pass

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
