"""Lesson 6.5, wrong: the decay written for train1's 1000 steps, not the num_steps train_step is
given: right in train1's run, wrong in any run of another length."""
# expect: fail | the learning rate decays to 0 | the rate a run of 1000 steps has at step 1
import math
import random

# Finished for you in the course library: the tokenizer's chars, and which name a training
# step reads and how many of its positions it scores. Lessons 11.4 and 12.2 have you write
# their lines again, so they are not shown here.
from given.train1 import positions, step_name, vocabulary

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
        if h[j] > 0:            # ReLU lets the gradient through only where it let the signal through
            for k, xk in enumerate(x):
                grads['mlp_fc1'][j][k] += d * xk
                grads['wte'][token][k] += d * weights['mlp_fc1'][j][k]
    return -math.log(probs[target])


def name_loss(tokens, n):
    """The same mean loss, forward only: what the numerical gradient nudges."""
    losses = [-math.log(softmax(mlp(tokens[pos])[2])[tokens[pos + 1]]) for pos in range(n)]
    return (1 / n) * sum(losses)


def gradient_check(tokens, n):
    """Nudge a weight each way, the slope should match grads; returns the largest difference."""
    worst, nudge = 0.0, 1e-5
    for name, mat in weights.items():
        row = mat[-1]  # last row: for wte and mlp_fc2 that is BOS, which every name uses
        for k in range(5):
            old = row[k]
            row[k] = old + nudge
            loss_up = name_loss(tokens, n)
            row[k] = old - nudge
            loss_down = name_loss(tokens, n)
            row[k] = old  # put the weight back exactly
            slope = (loss_up - loss_down) / (2 * nudge)
            worst = max(worst, abs(slope - grads[name][-1][k]))
    print(f"gradient check: max difference {worst:.2e}")
    return worst


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
learning_rate = 1.0  # plain SGD; 0.1 barely moves the small initial weights in 1000 steps


def train_step(step, num_steps, learning_rate):
    """One step on the name step_name(docs, step); returns its loss before the step."""
    doc = step_name(docs, step)  # the names in order, from the first again after the last
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)  # one per next token, at most block_size
    losses = []
    for pos in range(n):
        losses.append(position_loss(tokens[pos], tokens[pos + 1], n))
    loss = (1 / n) * sum(losses)

    if step == 0:  # gradient check: nudge a weight each way, the slope should match grads
        gradient_check(tokens, n)

    lr = learning_rate * (1 - step / 1000)
    for name, mat in weights.items():
        for row, grad_row in zip(mat, grads[name]):
            for k in range(len(row)):
                row[k] -= lr * grad_row[k]
                grad_row[k] = 0.0
    return loss


if __name__ == "__main__":  # Run trains for num_steps; Check tries a few steps of its own
    step_losses = []
    for step in range(num_steps):
        loss = train_step(step, num_steps, learning_rate)
        step_losses.append(loss)
        print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")
    first, last = step_losses[:100], step_losses[-100:]
    print(f"mean loss of the first {len(first)} steps: {sum(first) / len(first):.4f}")
    print(f"mean loss of the last {len(last)} steps: {sum(last) / len(last):.4f}")
