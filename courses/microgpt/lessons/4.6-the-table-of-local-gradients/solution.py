# The table of local gradients, in the Value of module 3.
#
# add, mul and pow record their local rates already (lessons 4.4 and 4.5). Three operations are
# still missing a rate: log, exp and relu, the other three rows of the table microgpt needs. With
# them and your backward(), every gradient of the model follows.
import math


# --- the Value of module 3: a number that remembers how it was made ---
class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        self.grad = 0                     # d(loss)/d(this), filled in by backward()
        self._children = children         # the Values this one was computed from
        self._local_grads = local_grads   # d(this)/d(child) for each child, as plain numbers

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, n):
        return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))

    def log(self):
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return Value(max(0, self.data), (self,), (float(self.data > 0),))

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1

    def backward(self):
        """For every Value below self: how fast self moves when it moves (kept in grad)."""
        order, seen = [], set()

        def visit(node):
            if node not in seen:
                seen.add(node)
                for child in node._children:
                    visit(child)
                order.append(node)

        visit(self)
        self.grad = 1  # self moves exactly as fast as itself
        for node in reversed(order):
            for child, local_grad in zip(node._children, node._local_grads):
                child.grad += local_grad * node.grad


def slope_between(f, x, nudge):  # from lesson 4.1
    loss_down = f(x - nudge)
    loss_up = f(x + nudge)
    slope = (loss_up - loss_down) / (2 * nudge)
    return slope


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    rows = [("log", 2.0, math.log), ("exp", 1.0, math.exp), ("relu", 1.5, lambda v: max(0, v)),
            ("relu", -0.5, lambda v: max(0, v))]
    for name, at, plain in rows:
        x = Value(at)
        out = getattr(x, name)()
        out.backward()
        nudged = slope_between(plain, at, 1e-6)
        print(f"{name}({at}): local rate {x.grad:.6f}   nudging: {nudged:.6f}")
    # the surprise of a count, as in 4.2: L = -log(w / (w + 26)), w used twice
    w = Value(1.0)
    L = -(w / (w + 26)).log()
    L.backward()
    print(f"-log(w / (w + 26)) at w = 1: w.grad = {w.grad:.6f}   (paths -1 and +1/27)")
