# --- autograd: a number that remembers how it was made ---
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        self._children = children         # the Values this one was computed from
        self._local_grads = local_grads   # d(this)/d(child) for each child, as plain numbers


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    if "Value" not in globals():
        print("There is no class Value yet: write the TODO lines above, then press Run again.")
    else:
        a, b, c = Value(2.0), Value(-3.0), Value(10.0)
        e = Value(a.data * b.data, (a, b))  # e = a * b, made by hand: its number and its children
        d = Value(e.data + c.data, (e, c))  # d = e + c
        print("d.data is", d.data)
        print("d was made from the numbers", [child.data for child in d._children])
        print("e was made from the numbers", [child.data for child in e._children])
        print("d's first child is e itself:", d._children[0] is e)
