"""Lesson 3.1, a correct variant: the same lines without comments, compact."""
# expect: pass
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self._children = children
        self._local_grads = local_grads


if __name__ == "__main__":
    a, b = Value(2.0), Value(-3.0)
    e = Value(a.data * b.data, (a, b))
    print(e.data, [child.data for child in e._children])

