"""Lesson 3.1, a correct variant: all of microgpt's __init__, with __slots__ and grad (module 7)."""
# expect: pass
class Value:
    __slots__ = ('data', 'grad', '_children', '_local_grads')

    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        self.grad = 0                     # d(loss)/d(this), filled in by backward()
        self._children = children         # the Values this one was computed from
        self._local_grads = local_grads   # d(this)/d(child) for each child, as plain numbers


if __name__ == "__main__":
    a, b = Value(2.0), Value(-3.0)
    e = Value(a.data * b.data, (a, b))
    print(e.data, [child.data for child in e._children])

