"""Lesson 3.4, a correct variant: no recursion, an explicit stack, and a visited set."""
# expect: pass
# --- autograd: a number that remembers how it was made ---
# Your Value of lessons 3.1 and 3.2, finished for you. Lessons 4.5, 7.2 and 7.4 have you write
# some of its lines again, so they are not shown here.
from given.graphs import Value


def topological_sort(root):
    order, seen = [], set()
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
        elif node not in seen:
            seen.add(node)
            stack.append((node, True))
            for child in reversed(node._children):
                stack.append((child, False))
    return order


if __name__ == "__main__":
    x = Value(3.0)
    print(len(topological_sort(x * x)))
