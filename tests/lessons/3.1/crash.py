"""Lesson 3.1, a typo: dta for data raises NameError whenever a Value is made."""
# expect: fail | Value(2.0) keeps its number | NameError
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = dta
        self._children = children
        self._local_grads = local_grads
