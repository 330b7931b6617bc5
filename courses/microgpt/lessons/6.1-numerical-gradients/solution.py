"""train1: a neural next-letter model, trained with gradients worked out by hand.

The model sees only the current letter: embedding row -> hidden layer (ReLU) -> one score per
next letter. Gradients are checked against nudging, then plain SGD learns the weights.
"""
import math
import random

# Finished for you in the course library: the tokenizer's chars, and n, how many positions of
# a name to score. Lesson 12.2 has you write their lines again, so they are not shown here.
from given.train1 import positions, vocabulary

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = vocabulary(docs)  # every character in the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")

# --- the parameters: small random numbers, drawn in a fixed order ---
n_embd = 16      # width of every vector
block_size = 16  # longest name prefix trained on


def matrix(rows, cols, std=0.08):
    return [[random.gauss(0, std) for _ in range(cols)] for _ in range(rows)]


weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, n_embd),
           'mlp_fc2': matrix(vocab_size, 4 * n_embd)}
print(f"parameters: {sum(len(row) for mat in weights.values() for row in mat)}")


# --- the model's building blocks ---
def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    biggest = max(logits)  # subtracting the max keeps exp() from overflowing
    exps = [math.exp(v - biggest) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def mlp(token):
    x = weights['wte'][token]                                 # the letter's embedding row
    h = [max(0.0, a) for a in linear(x, weights['mlp_fc1'])]  # ReLU
    return x, h, linear(h, weights['mlp_fc2'])                # one logit per next letter


def name_loss(tokens, n):
    """The mean loss of one name, forward only: what the numerical gradient nudges."""
    losses = [-math.log(softmax(mlp(tokens[pos])[2])[tokens[pos + 1]]) for pos in range(n)]
    return (1 / n) * sum(losses)


def nudge_slope(name, i, k, tokens, n, nudge=1e-5):
    """d(loss)/d(weights[name][i][k]) for one name, measured by nudging that one weight."""
    # Given: your nudging of lesson 4.2, with one weight of the model as the number nudged.
    row = weights[name][i]
    old = row[k]
    row[k] = old + nudge
    loss_up = name_loss(tokens, n)
    row[k] = old - nudge
    loss_down = name_loss(tokens, n)
    row[k] = old  # put the weight back exactly
    slope = (loss_up - loss_down) / (2 * nudge)
    return slope


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    doc = docs[0]
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)  # one per next token, at most block_size
    print(f"\nthe name {doc!r}: {n} positions, loss {name_loss(tokens, n):.4f}")
    for k in range(3):
        print(f"slope for weights['wte'][BOS][{k}]: {nudge_slope('wte', BOS, k, tokens, n):.6f}")
    unused = next(ch for ch in chars if ch not in doc)
    slope = nudge_slope('wte', chars.index(unused), 0, tokens, n)
    print(f"slope for a weight in the row of {unused!r}, a letter the name never uses: {slope}")
    total = sum(len(row) for mat in weights.values() for row in mat)
    print(f"measuring all {total} slopes this way takes {2 * total} forward passes of the name")
