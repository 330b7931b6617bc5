"""Lesson 3.1, the children stored the other way round: b first, then a."""
# expect: fail | e = Value(-6.0, (a, b)) remembers a and b | they were swapped
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self._children = tuple(reversed(children))
        self._local_grads = local_grads
