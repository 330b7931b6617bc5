"""Lesson 3.1, a correct variant: other parameter names, and the children kept as a tuple copy."""
# expect: pass
class Value:

    def __init__(self, number, kids=(), rates=()):
        self.data = number
        self._children = tuple(kids)
        self._local_grads = tuple(rates)


if __name__ == "__main__":
    a, b = Value(2.0), Value(-3.0)
    e = Value(a.data * b.data, (a, b))
    print(e.data, [child.data for child in e._children])

