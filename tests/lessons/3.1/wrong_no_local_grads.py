"""Lesson 3.1, the third line left out: local_grads is not kept."""
# expect: fail | d = a * b + c, made by hand and walked from d | without `._local_grads`
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self._children = children
