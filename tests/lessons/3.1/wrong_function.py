"""Lesson 3.1, a function instead of a class: it returns a dict."""
# expect: fail | Value is a class | not a class
def Value(data, children=(), local_grads=()):
    return {"data": data, "children": children}
