# --- autograd: a number that remembers how it was made ---
# TODO 1 (one line): start a class named Value. The lines indented under it belong to it.
    # TODO 2 (one line, indented 4 spaces): start the method __init__, which Python runs each
    #   time a Value is made. Its parameters, in this order: self (the new Value), data (its
    #   number), children and local_grads. Give the last two the default () (an empty tuple),
    #   so that Value(2.0) works with just a number.
        # TODO 3 (one line, indented 8 spaces): keep the number on the new Value, as self.data.
        # TODO 4 (two lines, indented 8 spaces): keep children on it as self._children, and
        #   local_grads as self._local_grads (lesson 4.4 uses that one; for now it is only kept).


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
