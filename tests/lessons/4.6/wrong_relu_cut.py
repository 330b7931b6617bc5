# A learner's file for lesson 4.6: relu's rate right, but its child a new Value made from self's number, not self
# expect: fail | relu passes on 1 above 0, and 0 at 0 and below | x is not in y's graph
# The table of local gradients, in the Value of module 3.
#
# add, mul and pow record their local rates already (lessons 4.4 and 4.5). Three operations are
# still missing a rate: log, exp and relu, the other three rows of the table microgpt needs. With
# them and your backward(), every gradient of the model follows.
import math


# Your Value of module 3, with its grad, the local rates of add, mul and pow, and your backward()
# of lesson 4.4, finished for you. Lessons 7.2 to 7.5 have you write some of its lines again, so
# they are not shown here.
from given import graphs


# --- the Value of module 3: a number that remembers how it was made ---
class Value(graphs.GradValue):  # a Value is a GradValue, with log, exp and relu of your own
    # TODO (three lines): in each return line below, replace () with the operation's local rate,
    #   one number in a tuple: how fast the output moves when self moves. log's and exp's are
    #   the slopes you measured in lesson 4.3; relu's is 1.0 where it lets self.data through,
    #   and 0.0 where it gives 0 instead.
    def log(self):
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return Value(max(0, self.data), (Value(self.data),), (float(self.data > 0),))


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
