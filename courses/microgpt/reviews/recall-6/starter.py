"""Module 6 from memory: train1 trained with gradients worked out by hand.

Write every function below the model from memory, without opening the lessons' code: the loss
and its slopes measured by nudging, backprop through the layers, the gradient check, one SGD
step with its decaying learning rate, and sampling at a temperature. Check runs the checks of
lessons 6.1 and 6.3 to 6.6 on it, the same checks with the same messages.
"""
import math
import random

# Finished for you in the course library: the tokenizer's chars; positions(tokens, block_size),
# how many positions of a name to score; step_name(docs, step), the name a training step reads;
# and draw_name(next_token, chars, block_size), the sampling loop: from BOS it calls
# next_token(token) for each token after the last, until BOS comes out or block_size letters
# are drawn, and returns the name. Later lessons have you write their lines again.
from given.train1 import draw_name, positions, step_name, vocabulary

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

# --- the parameters: small random numbers, drawn in a fixed order, and a gradient for each ---
n_embd = 16      # width of every vector
block_size = 16  # longest name prefix trained on


def matrix(rows, cols, std=0.08):
    return [[random.gauss(0, std) for _ in range(cols)] for _ in range(rows)]


weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, n_embd),
           'mlp_fc2': matrix(vocab_size, 4 * n_embd)}
grads = {name: [[0.0] * len(row) for row in mat] for name, mat in weights.items()}
print(f"parameters: {sum(len(row) for mat in weights.values() for row in mat)}")


# --- the model of module 5 ---
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


# --- the loss, and its slopes measured by nudging ---
def name_loss(tokens, n):
    """The mean loss of the first n positions of a name, each scored on the token after it,
    forward only: what nudging measures. The tokens are only read."""
    # TODO


def nudge_slope(name, i, k, tokens, n, nudge=1e-5):
    """d(loss)/d(weights[name][i][k]) for one name, measured by nudging that one weight to each
    side. When it returns, every weight holds exactly what it held before."""
    # TODO


# --- backprop: the same gradients, worked out by the chain rule ---
def position_loss(token, target, n):
    """-log p(target) for one position of a name of n positions; adds this position's share of
    d(the name's loss)/d(weight) into grads, for every weight. The weights are only read."""
    # TODO


def gradient_check(tokens, n):
    """Nudges the first 5 weights of the last row of each matrix, one at a time, and compares
    each slope with its gradient in grads; prints and returns the largest difference. The
    weights end exactly as they were."""
    # TODO


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
learning_rate = 1.0  # plain SGD; 0.1 barely moves the small initial weights in 1000 steps


def train_step(step, num_steps, learning_rate):
    """One SGD step on the name step_name(docs, step), at most block_size positions of it, with
    a learning rate that starts at learning_rate and falls in a straight line towards 0 at step
    num_steps. At step 0 it runs gradient_check before any weight moves. It returns the name's
    loss before the step, and leaves every gradient at 0."""
    # TODO


# --- sampling: let the model invent names, one letter at a time ---
# TODO: `temperature`, the one train1 samples at, with a comment saying what it does to the
#       names.


def sample_name(temperature):
    """One new name, each letter drawn with random.choices from the model's probabilities at
    this temperature (1 leaves them as they are), until BOS or block_size letters."""
    # TODO


if __name__ == "__main__":  # Run trains (it takes a while), then samples; Check tests functions
    step_losses = []
    for step in range(num_steps):
        loss = train_step(step, num_steps, learning_rate)
        step_losses.append(loss)
        print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")
    last = step_losses[-100:]
    print(f"mean loss of the last {len(last)} steps: {sum(last) / len(last):.4f}")
    print("--- samples ---")
    for sample in range(20):
        print(f"sample {sample + 1:2d}: {sample_name(temperature)}")
