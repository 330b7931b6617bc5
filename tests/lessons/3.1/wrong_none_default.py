"""Lesson 3.1, None as the default for children: a loop over a leaf's children would fail."""
# expect: fail | a new Value has no children | is None
class Value:
    def __init__(self, data, children=None, local_grads=None):
        self.data = data
        self._children = children
        self._local_grads = local_grads
