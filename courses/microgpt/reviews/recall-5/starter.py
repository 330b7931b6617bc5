"""Module 5 from memory: train1's neural next-letter model, from random weights to probabilities.

Write the weights and every function of the model from memory, without opening the lessons'
code: the matrices and how many numbers they hold, the embedding lookup, linear, ReLU and
softmax. Check runs the checks of lessons 5.1 to 5.6 on it, the same checks with the same
messages.
"""
import math
import random

# Finished for you in the course library: the tokenizer's chars (lesson 12.2 has you write its
# line again, so it is not shown here).
from given.train1 import vocabulary

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
block_size = 16  # longest context the model sees


def matrix(rows, cols, std=0.08):
    """A new matrix of `rows` rows of `cols` numbers each, every number a fresh draw from the
    bell curve centred on 0 with spread std, row 0 filled first."""
    # TODO


# TODO: `weights`, the model's three matrices by name (the embedding table first, then the two
#       layers of the MLP), drawn right here; then print how many numbers they hold in all, as
#       "parameters: N".


# --- the model's building blocks ---
def linear(x, w):
    """The matrix w applied to the vector x: a new list, one number for each row of w."""
    # TODO


def softmax(logits):
    """The logits as a new list of probabilities that add up to 1, a bigger logit getting a
    bigger share, with no exp() overflowing however large the logits are."""
    # TODO


def mlp(token):
    """x, h and the logits for one token: its embedding, the hidden layer after ReLU, and one
    score per possible next token. The weights are only read."""
    # TODO


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    names = chars + ['BOS']
    tokens = [BOS] + [chars.index(ch) for ch in "emma"] + [BOS]
    losses = []
    for a, b in zip(tokens, tokens[1:]):
        p = softmax(mlp(a)[2])[b]
        losses.append(-math.log(p))
        print(f"after {names[a]:>3}, p({names[b]}) = {p:.4f}")
    print(f"average loss {sum(losses) / len(losses):.4f}: about -log(1/{vocab_size}), before any training")
