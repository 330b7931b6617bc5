# Lesson 7.1: math.log refuses a Value, so a learner takes the log of the probability's number
# expect: fail | the loss is a Value, equal to train1's | made from a plain number (a .data)
# and wraps it in a new Value: the loss is right, but it is a leaf, cut off from every weight.
"""train2: the same next-letter model as train1, but autograd computes the gradients.

Every number the model touches is a Value that remembers how it was made, so loss.backward()
replaces train1's hand-written chain rule. The losses match train1 step for step, only slower.
"""
import math
import random

# Finished for you, from the course's library; you write each of them later: Value (lessons
# 7.2 to 7.5), softmax (7.3), matrix, parameters and sgd_step (7.6), the MLP's layers (7.7), and
# characters, name_at, positions and decayed, one line each (modules 10 to 12).
from given.train2 import (Value, characters, decayed, matrix, mlp_layers, name_at, parameters,
                          positions, sgd_step, softmax)

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)  # every character of the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")

# --- the parameters: small random numbers, each a Value, drawn in a fixed order ---
n_embd = 16      # width of every vector
block_size = 16  # longest name prefix trained on

weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, n_embd),
           'mlp_fc2': matrix(vocab_size, 4 * n_embd)}
params = parameters(weights)  # every Value of every matrix, in one list


# --- the model: one letter in, one logit per next letter out ---
def mlp(token):
    x = weights['wte'][token]      # the letter's embedding row
    return mlp_layers(x, weights)  # a hidden layer of relus, then one logit per next letter


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
learning_rate = 1.0  # plain SGD; 0.1 barely moves the small initial weights in 1000 steps


def train_step(step):
    """One step on the step-th name: its loss, backward(), the update. Returns the loss (a
    Value)."""
    doc = name_at(docs, step)          # the names in order, round again after the last
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)  # one per next token, at most block_size
    losses = []
    for pos in range(n):
        probs = softmax(mlp(tokens[pos]))
        losses.append(Value(-math.log(probs[tokens[pos + 1]].data)))
    loss = (1 / n) * sum(losses)
    # one call fills in p.grad for every parameter: all of train1's hand-written calculus
    loss.backward()

    lr = decayed(learning_rate, step, num_steps)  # falls in a straight line to 0 at num_steps
    sgd_step(params, lr)  # each p moves by -lr * p.grad, then its grad goes back to 0
    print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}")
    return loss


if __name__ == "__main__":  # Run trains five steps (train2 is slow); Check tries steps of its own
    for step in range(5):
        train_step(step)
    print("Five steps of train2. Explore shows train1's losses for the same steps.")
