# A learner's file for lesson 4.5: the rate right, but the new Value made from self's number alone, without self as its child
# expect: fail | x ** 2 adds up two paths, like x * x | x is not in y's graph
# Many paths add up, in the Value of module 3.
#
# Your backward() of lesson 4.4 hands each child local_grad * node.grad, with +=: a Value used by
# several others collects one share per path. Here you write the local rate that pow records,
# and see that it, too, is many paths added up: x ** 3 is x * x * x, three paths from x.


# Your Value of module 3, with its grad and your backward() of lesson 4.4, finished for you.
# Lessons 7.2 to 7.5 have you write some of its lines again, so they are not shown here.
from given import graphs


# --- the Value of module 3: a number that remembers how it was made ---
class Value(graphs.GradValue):  # a Value is a GradValue, with a __pow__ of your own
    def __pow__(self, n):
        # TODO (change the last part of the next line): replace () with pow's local rate, one
        #   number in a tuple: how fast self ** n moves when self moves. x ** n is n copies of x
        #   multiplied together, so n paths lead from x to it; along each, the other n - 1
        #   copies are the rate. Add the paths up, and write the sum with n and self.data.
        return Value(self.data ** n, local_grads=(n * self.data ** (n - 1),))


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
