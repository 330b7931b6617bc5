# A learner's file for lesson 4.5: the paths counted one by one with range(n): right for every whole power of the lesson's examples, wrong for -1 and 0.5
# expect: fail | powers that count no paths, -1 and 0.5 | finds none here
# Many paths add up, in the Value of module 3.
#
# Your backward() of lesson 4.4 hands each child local_grad * node.grad, with +=: a Value used by
# several others collects one share per path. Here you write the local rate that pow records,
# and see that it, too, is many paths added up: x ** 3 is x * x * x, three paths from x.


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
        rate = sum(self.data ** (n - 1) for _ in range(n))  # one share per path
        return Value(self.data ** n, (self,), (rate,))

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
    x = Value(2.0)
    y = (x * 4) * (x + 5)  # x reaches y along two paths: through x * 4 and through x + 5
    y.backward()
    print(f"y = (x * 4) * (x + 5) at x = 2: x.grad = {x.grad}   (28 via x * 4, 8 via x + 5)")
    print(f"  nudging x itself: {slope_between(lambda v: (v * 4) * (v + 5), 2.0, 1e-6):.6f}")
    for n in (2, 3, -1, 0.5):
        a, b = Value(2.0), Value(2.0)
        power = a ** n
        power.backward()
        text = f"x ** {n}: x.grad = {a.grad:.6f}"
        if n in (2, 3):  # n whole: x ** n is x * x * ... * x, n paths from x
            product = b
            for _ in range(n - 1):
                product = product * b
            product.backward()
            text += f"   as {' * '.join(['x'] * n)}: x.grad = {b.grad:.6f}"
        nudged = slope_between(lambda v: v ** n, 2.0, 1e-6)
        print(f"{text}   nudging: {nudged:.6f}")
