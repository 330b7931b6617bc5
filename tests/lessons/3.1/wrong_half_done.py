"""Lesson 3.1, half done: the number is kept, the children are not yet."""
# expect: fail | a new Value has no children | without `._children`
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        # TODO 4
