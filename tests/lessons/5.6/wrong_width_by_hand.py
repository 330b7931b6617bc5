"""Lesson 5.6, wrong: the count worked out from the shapes with n_embd written as 16 by hand.
# expect: fail | the count follows n_embd | but your file printed "parameters:
Right for train1's model, wrong for a model of any other width."""
import math
import random

# Finished for you in the course library: the tokenizer's chars. Lesson 12.2 has you write its
# line again, so it is not shown here.
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
    return [[random.gauss(0, std) for _ in range(cols)] for _ in range(rows)]


weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, n_embd),
           'mlp_fc2': matrix(vocab_size, 4 * n_embd)}
print(f"parameters: {vocab_size * 16 + 64 * 16 + vocab_size * 64}")


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


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    names = chars + ['BOS']
    tokens = [BOS] + [chars.index(ch) for ch in "emma"] + [BOS]
    losses = []
    for a, b in zip(tokens, tokens[1:]):
        p = softmax(mlp(a)[2])[b]
        losses.append(-math.log(p))
        print(f"after {names[a]:>3}, p({names[b]}) = {p:.4f}")
    print(f"average loss {sum(losses) / len(losses):.4f}: about -log(1/{vocab_size}), before any training")
