# A learner's file for lesson 4.4: the visited set kept between calls of backward()
# expect: fail | backward() on new graphs, twice each | Called a second time on the same input, it returned {'x3.grad': 0} where ours returns {'x3.grad': 496.178}: x3.grad is 0 but should be 496.178
# The chain rule, in the Value of module 3.
#
# Each operation records, when it makes a node, its local rates: how fast the new node moves
# when each child moves (add: 1 and 1; mul: the other factor; pow: n * x ** (n - 1)). In 3.5,
# backward() walked the graph from self and handed each child a count of paths. Here each node
# hands its child a rate instead: how fast self moves when the child moves.


seen = set()  # every Value any backward() has visited


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

    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1

    def backward(self):
        """For every Value below self: how fast self moves when it moves (kept in grad)."""
        order = []

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
    x = Value(1.0)
    u = x * 3          # local rate of u in x: 3
    v = u + 1          # local rate of v in u: 1
    y = v ** 2         # local rate of y in v: 2v = 8
    y.backward()
    for name, node in [("y", y), ("v", v), ("u", u), ("x", x)]:
        print(f"{name} = {node.data:5}   {name}.grad = {node.grad}   (y's rate in {name})")
    nudged = slope_between(lambda v: (3 * v + 1) ** 2, 1.0, 1e-6)
    print(f"nudging x itself: y moves {nudged:.6f} times as fast as x")
