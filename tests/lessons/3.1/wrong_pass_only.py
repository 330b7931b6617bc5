"""Lesson 3.1, just begun: the class line is there, __init__ is not yet."""
# expect: fail | Value(2.0) keeps its number | finds no method called __init__
class Value:
    pass
