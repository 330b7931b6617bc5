"""Lesson 6.3, wrong: the gate lets h[j] = 0 through (`>=`), so units that are off still pass
gradients back."""
# expect: fail | the ReLU gate blocks units that are off | your gate lets h[j] = 0 through
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
grads = {name: [[0.0] * len(row) for row in mat] for name, mat in weights.items()}
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
    """-log p(target) for one position; adds its share of every gradient into grads."""
    x, h, logits = mlp(token)
    probs = softmax(logits)
    # forward pass done; now the chain rule, from the loss back to the weights.
    # d(loss)/d(logits) = probs - one_hot(target), times 1/n because the loss is a mean
    dlogits = [(p - (i == target)) / n for i, p in enumerate(probs)]
    dh = [0.0] * len(h)
    for i, d in enumerate(dlogits):  # logits[i] = sum_j fc2[i][j] * h[j]
        for j, hj in enumerate(h):
            grads['mlp_fc2'][i][j] += d * hj
            dh[j] += d * weights['mlp_fc2'][i][j]
    for j, d in enumerate(dh):  # h[j] = relu(sum_k fc1[j][k] * x[k])
        if h[j] >= 0:
            for k, xk in enumerate(x):
                grads['mlp_fc1'][j][k] += d * xk
                grads['wte'][token][k] += d * weights['mlp_fc1'][j][k]
    return -math.log(probs[target])


def name_loss(tokens, n):
    """The same mean loss, forward only: what the numerical gradient nudges."""
    losses = [-math.log(softmax(mlp(tokens[pos])[2])[tokens[pos + 1]]) for pos in range(n)]
    return (1 / n) * sum(losses)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    doc = docs[0]
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)  # one per next token, at most block_size
    position_loss(tokens[0], tokens[1], n)  # the first position alone: BOS -> first letter
    quiet = sum(1 for row in grads['mlp_fc1'] if not any(row))
    print(f"\nafter the first position of {doc!r}, {quiet} of the 64 rows of grads['mlp_fc1'] are "
          "all 0: the ReLU switched those units off for BOS")
    for pos in range(1, n):
        position_loss(tokens[pos], tokens[pos + 1], n)
    print(f"after all {n} positions, backprop and nudging give:")
    for name, i, k in [('mlp_fc2', BOS, 0), ('mlp_fc1', 0, 0), ('wte', BOS, 0)]:
        row = weights[name][i]
        old = row[k]
        row[k] = old + 1e-5
        loss_up = name_loss(tokens, n)
        row[k] = old - 1e-5
        loss_down = name_loss(tokens, n)
        row[k] = old
        print(f"  grads[{name!r}][{i}][{k}] = {grads[name][i][k]:+.8f}   "
              f"nudging says {(loss_up - loss_down) / 2e-5:+.8f}")
