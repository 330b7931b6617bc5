# A learner's file for lesson 4.4: the method deleted, so the finished one is inherited
# expect: fail | one step gets its local rate | Your Value has no backward() of its own
# The chain rule, in the Value of module 3.
#
# Each operation records, when it makes a node, its local rates: how fast the new node moves
# when each child moves (add: 1 and 1; mul: the other factor; pow: n * x ** (n - 1)). In 3.5,
# backward() walked the graph from self and handed each child a count of paths. Here each node
# hands its child a rate instead: how fast self moves when the child moves.


# Your Value of module 3, with its grad, finished for you: every operation already records its
# local rates. Lessons 4.5 and 7.2 to 7.5 have you write some of its lines again, so they are not
# shown here; graphs.topological_sort is your sort of lesson 3.4.
from given import graphs


# --- the Value of module 3: a number that remembers how it was made ---
class Value(graphs.GradValue):  # a Value is a GradValue, with a backward() of your own
    pass

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
