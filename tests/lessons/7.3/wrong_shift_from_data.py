# Lesson 7.3: each logit's number shifted and wrapped in a new Value before exp: the probabilities
# expect: fail | every probability leads back to its logit | logits[0]
# are right, but the new Values have no children, so no path leads back to the logits.
import math

# Finished for you, from the course's library: *, ** and exp on Values, each with its local
# grads (lesson 7.4 has you write them into the class yourself).
from given.train2 import exponential, multiply, power


# --- autograd: a number that remembers how it was made (the operations softmax uses) ---
class Value:
    __slots__ = ('data', 'grad', '_children', '_local_grads')

    def __init__(self, data, children=(), local_grads=()):
        self.data = data                  # the number itself
        self.grad = 0                     # d(loss)/d(this), filled in by backward()
        self._children = children         # the Values this one was computed from
        self._local_grads = local_grads   # d(this)/d(child) for each child, as plain numbers

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other): return multiply(self, other)
    def __pow__(self, n): return power(self, n)
    def exp(self): return exponential(self)
    def __neg__(self): return self * -1
    def __radd__(self, other): return self + other
    def __sub__(self, other): return self + (-other)
    def __rsub__(self, other): return other + (-self)
    def __rmul__(self, other): return self * other
    def __truediv__(self, other): return self * other ** -1
    def __rtruediv__(self, other): return other * self ** -1


# --- the model's building blocks ---
def softmax(logits):
    biggest = max(v.data for v in logits)  # subtracting the max keeps exp() from overflowing
    exps = [Value(v.data - biggest).exp() for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    logits = [Value(1.0), Value(2.0), Value(3.0)]
    probs = softmax(logits)
    if not probs:
        print("softmax returned no probabilities yet: write the two TODO lines.")
    else:
        print("probs:", [round(p.data, 4) for p in probs])
        print("From probs[0] down, first child after first child:")
        node = probs[0]
        while True:
            print(f"  data {node.data:.4f}  children {[round(c.data, 4) for c in node._children]}"
                  f"  local grads {[round(g, 4) for g in node._local_grads]}")
            if not node._children:
                break
            node = node._children[0]
        print("The last one is logits[0] itself:", node is logits[0])
