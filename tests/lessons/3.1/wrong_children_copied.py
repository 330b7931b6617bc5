"""Lesson 3.1, the children kept as new Values made from their numbers: e holds 2 and -3, but not a
and b themselves, so the graph no longer links e to the Values it was made from."""
# expect: fail | e = Value(-6.0, (a, b)) remembers a and b | the link from e to a and b is lost
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self._children = tuple(Value(child.data) for child in children)
        self._local_grads = local_grads
