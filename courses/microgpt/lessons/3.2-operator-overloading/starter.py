# Finished for you in Node: your __init__ of lesson 3.1, and the mul and pow nodes with their
# local grads. Lessons 4.5, 7.2 and 7.4 have you write those lines, so they are not shown here.
from given.graphs import Node


# --- autograd: a number that remembers how it was made ---
class Value(Node):  # a Value is a Node: it has Node's __init__, * and **, and the methods below
    def __add__(self, other):
        # TODO (one line): other may be a plain number, as in Value(2.0) + 3. Unless it is
        #   already a Value, replace it by a new Value made from it.
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        # TODO (one line): the same line again, so that Value(2.0) * 3 works too.
        return Node.__mul__(self, other)  # Node's mul: the product, as a new node

    # TODO: seven one-line methods, `def <method>(self, ...): return ...`, each built only from
    #   +, * and ** on Values, so that every node of the graph is an add, a mul or a pow node.
    #   Write each one in place of the comment line that describes it.
    # __neg__(self): -v is v times -1
    # __radd__(self, other): 3 + v; Python calls v.__radd__(3), so other is the number 3
    # __sub__(self, other): v - w is v plus the negative of w
    # __rsub__(self, other): 3 - v; Python calls v.__rsub__(3)
    # __rmul__(self, other): 3 * v; Python calls v.__rmul__(3)
    # __truediv__(self, other): v / w is v times w to the power -1
    # __rtruediv__(self, other): 3 / v; Python calls v.__rtruediv__(3)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    v = Value(2.0)
    for text in ["v + 3", "v * 3", "-v", "3 + v", "v - 3", "3 - v", "3 * v", "v / 4", "3 / v"]:
        try:
            print(f"{text:6} gives {eval(text).data}")
        except Exception as error:  # a method not written yet: show what Python says
            print(f"{text:6} raises {type(error).__name__}: {error}")
