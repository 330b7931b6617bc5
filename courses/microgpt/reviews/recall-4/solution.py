"""Module 4 from memory: calculus by nudging, and the chain rule that finds every slope at once.

Write every function and method from memory, without opening the lessons' code: slopes measured
by nudging, the surprise of a name, and a Value that works out every slope by the chain rule.
Check runs the checks of lessons 4.1 to 4.6 on it, the same checks with the same messages.
"""
import math

# Finished for you in the course library: the tokenizer's chars, and module 3's Value with a
# grad, graphs.GradValue (every operator: +, *, -, / and the rest), with graphs.topological_sort,
# your sort of lesson 3.4: every Value below a root, each after its children, the root last.
from given import graphs
from given.train1 import vocabulary

# --- the data and the tokenizer, as in module 1 ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
chars = vocabulary(docs)  # every character in the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1

# --- the tiny model of 4.2: module 2's table of counts, all starting at 1, ours to change ---
counts = [[1.0] * vocab_size for _ in range(vocab_size)]


def slope_between(f, x, nudge):
    """Rise over run of the curve f between the points x - nudge and x + nudge."""
    loss_down = f(x - nudge)
    loss_up = f(x + nudge)
    slope = (loss_up - loss_down) / (2 * nudge)
    return slope


def nudged_slope(name_loss, tokens, n, row, k, nudge):
    """How fast name_loss(tokens, n) moves when row[k] moves, measured by moving row[k] a nudge
    to each side. When it returns, row[k] holds exactly the number it held before."""
    old = row[k]
    row[k] = old + nudge
    loss_up = name_loss(tokens, n)
    row[k] = old - nudge
    loss_down = name_loss(tokens, n)
    row[k] = old  # put the weight back exactly
    slope = (loss_up - loss_down) / (2 * nudge)
    return slope


def position_loss(token, target, n):
    """How surprised the counts are to see target come right after token, in the natural log.
    n is not needed here: name_loss passes it along, as train1.py does."""
    probs = [c / sum(counts[token]) for c in counts[token]]
    return -math.log(probs[target])


def name_loss(tokens, n):
    """The average surprise over the first n positions of a name, each position scored on the
    token that comes after it."""
    losses = []
    for pos in range(n):
        losses.append(position_loss(tokens[pos], tokens[pos + 1], n))
    return (1 / n) * sum(losses)


class Value(graphs.GradValue):
    """Module 3's Value with its grad, every operator given; the local rates of pow, log, exp
    and relu, and the walk that turns local rates into grads, are yours."""

    def __pow__(self, n):
        """self ** n for a plain number n (whole, negative or fractional), with its local rate."""
        return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))

    def log(self):
        """The natural logarithm of self, with its local rate."""
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        """e to the power self, with its local rate."""
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        """self where it is above 0, else 0, with its local rate (at exactly 0, the flat side's)."""
        return Value(max(0, self.data), (self,), (float(self.data > 0),))

    def backward(self):
        """For every Value below self: how fast self moves when it moves, kept in its grad."""
        order = graphs.topological_sort(self)
        self.grad = 1
        for node in reversed(order):
            for child, local_grad in zip(node._children, node._local_grads):
                child.grad += local_grad * node.grad


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"slope of log at 2, nudged: {slope_between(math.log, 2.0, 1e-6):.6f}  (1 / x: 0.5)")
    tokens = [BOS] + [chars.index(ch) for ch in "emma"] + [BOS]
    n = len(tokens) - 1
    print(f"loss of 'emma' with every count at 1: {name_loss(tokens, n):.4f}")
    e = chars.index('e')
    slope = nudged_slope(name_loss, tokens, n, counts[BOS], e, 1e-5)
    print(f"nudging the count of BOS -> 'e': the loss moves at {slope:.6f}")
    w = Value(1.0)  # that count again, as a Value: the surprise of 'e' after BOS alone
    L = -(w / (w + 26)).log()
    L.backward()
    print(f"-log(w / (w + 26)) at w = 1: w.grad = {w.grad:.6f}  (5 times the slope above: "
          "the name's loss averages its 5 positions)")
