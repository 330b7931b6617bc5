"""Lesson 3.1, the children are thrown away: every Value gets ()."""
# expect: fail | e = Value(-6.0, (a, b)) remembers a and b | should keep its two children
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self._children = ()
        self._local_grads = local_grads
