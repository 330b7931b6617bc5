# A learner's file for lesson 4.2: row[0] nudged instead of row[k]: right whenever k is 0, as in the first example
# expect: fail | the number is put back exactly | only row[k], with k = 1, may be nudged
import math

# Finished for you in the course library: the tokenizer's chars, and module 2's loss of a name.
# Lessons 4.3, 6.1 and 12.2 have you write lines of them, so they are not shown here.
from given.train1 import counts_loss, vocabulary

# --- the data and the tokenizer, as in module 1 ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
chars = vocabulary(docs)  # every character in the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1

# --- a tiny model to nudge: module 2's table of counts, as numbers we are allowed to change ---
counts = [[1.0] * vocab_size for _ in range(vocab_size)]  # every pair starts at 1: all equally likely


def name_loss(tokens, n):
    """The average surprise, -log p, over the first n positions of a name (module 2's loss)."""
    return counts_loss(counts, tokens, n)


def nudged_slope(name_loss, tokens, n, row, k, nudge):
    """How fast name_loss(tokens, n) moves when row[k] moves, measured by nudging row[k].

    row[k] is one number the loss depends on, held in a list (in train1.py, a weight in a row of
    a weight matrix). Nudge it up and measure, nudge it down and measure, then put it back.
    """
    old = row[k]
    row[0] = old + nudge
    loss_up = name_loss(tokens, n)
    row[0] = old - nudge
    loss_down = name_loss(tokens, n)
    row[0] = old
    slope = (loss_up - loss_down) / (2 * nudge)
    return slope


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    tokens = [BOS] + [chars.index(ch) for ch in "emma"] + [BOS]
    n = len(tokens) - 1
    row = counts[BOS]  # the counts of the letters that follow BOS: the first letter of a name
    print(f"loss of 'emma' with every count at 1: {name_loss(tokens, n):.4f}")
    for letter in "eam":
        slope = nudged_slope(name_loss, tokens, n, row, chars.index(letter), 1e-5)
        print(f"nudging the count of BOS -> {letter}: the loss moves at {slope:.6f}")
    print("every count of BOS back at exactly 1.0:", all(count == 1.0 for count in row))
