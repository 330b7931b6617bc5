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


def position_loss(token, target, n):
    """-log p(target) for one position, and d(loss)/d(logits): the first step back."""
    x, h, logits = mlp(token)
    probs = softmax(logits)
    # forward pass done; now the chain rule, from the loss back to the weights.
    # TODO (one line): dlogits = a list with one number per logit i: how fast this position's
    #       share of the name's loss moves as logits[i] moves. As the Watch worked out: the
    #       probability, minus 1 for the target only, over n (the name's loss is the mean of
    #       its n positions).
    dlogits = [0.0] * len(probs)
    return -math.log(probs[target]), dlogits  # in 6.3 dlogits flows on, back through the layers


def name_loss(tokens, n):
    """The same mean loss, forward only: what the numerical gradient nudges."""
    losses = [-math.log(softmax(mlp(tokens[pos])[2])[tokens[pos + 1]]) for pos in range(n)]
    return (1 / n) * sum(losses)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    doc = docs[0]
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)  # one per next token, at most block_size
    loss, dlogits = position_loss(tokens[0], tokens[1], n)
    target = tokens[1]
    print(f"\nthe first position of {doc!r}: BOS -> {chars[target]!r}, one of {n} positions")
    print(f"loss {loss:.4f}; d(loss)/d(logit) for each next token:")
    for i, d in enumerate(dlogits):
        token = 'BOS' if i == BOS else chars[i]
        print(f"  {token:>3} {d:+.5f}" + ("   <- the target" if i == target else ""))
    print(f"they add up to {sum(dlogits):.6f}")
