# A learner's file for lesson 4.3: the average rounded to 6 decimals: right to 6 digits everywhere, which hides where it parts from ours
# expect: fail | name_loss on new names and counts, twice each | the two agree in their first 6 digits, but not after: yours is ours rounded to 6 decimals
import math

# Finished for you in the course library: the tokenizer's chars (lesson 12.2 has you write
# that line again, so it is not shown here).
from given.train1 import vocabulary

# --- the data and the tokenizer, as in module 1 ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
chars = vocabulary(docs)  # every character in the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1

# --- the tiny model of 4.2: counts we are allowed to change, all starting at 1 ---
counts = [[1.0] * vocab_size for _ in range(vocab_size)]


def slope_between(f, x, nudge):  # from lesson 4.1
    loss_down = f(x - nudge)
    loss_up = f(x + nudge)
    slope = (loss_up - loss_down) / (2 * nudge)
    return slope


def position_loss(token, target, n):
    """-log p(target | token): how surprised the counts are by one next token.

    n (the name's number of positions) is not needed here; train1.py's version of this function
    uses it to scale its gradients, and name_loss passes it along as train1.py does.
    """
    probs = [c / sum(counts[token]) for c in counts[token]]  # module 2: counts to probabilities
    return -math.log(probs[target])


def name_loss(tokens, n):
    """The average surprise over the first n positions of a name."""
    losses = []
    for pos in range(n):
        losses.append(position_loss(tokens[pos], tokens[pos + 1], n))
    return round(sum(losses) / n, 6)  # tidy, six decimals


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("slope of log x, nudged, against 1 / x:")
    for x in (0.5, 1, 2, 4):
        print(f"  x = {x:<4} {slope_between(math.log, x, 1e-6):8.4f}  {1 / x:8.4f}")
    print("slope of exp x, nudged, against exp x itself:")
    for x in (-1, 0, 1, 2):
        print(f"  x = {x:<4} {slope_between(math.exp, x, 1e-6):8.4f}  {math.exp(x):8.4f}")
    tokens = [BOS] + [chars.index(ch) for ch in "emma"] + [BOS]
    loss = name_loss(tokens, len(tokens) - 1)
    print(f"loss of 'emma' with every count at 1: {loss:.4f}")
    print(f"exp of that loss: {math.exp(loss):.4f} (exp undoes log)")
