"""Module 8 from memory: train3, a model that reads the whole name so far.

Write its weights, rmsnorm(), gpt(), the loss of one name and its learning rate from memory,
without opening the lessons' code. Check runs the checks of lessons 8.1 to 8.7 on it, the
same checks with the same messages.
"""
import random

# Finished for you, from the course's library: Value (module 7), characters and positions
# (lesson 12.2 has you write their lines again), decayed and name_at (lessons 10.5 and 11.4).
from given.train3 import Value, characters, decayed, name_at, positions

random.seed(42)  # same seed, same shuffle, same weights

# --- the data and the tokenizer, as in every lesson ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
chars = characters(docs)  # every character of the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1

n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees


# --- finished for you: the building blocks of modules 5 and 7 ---
def matrix(rows, cols, std=0.08):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    biggest = max(v.data for v in logits)  # subtracting the max keeps exp() from overflowing
    exps = [(v - biggest).exp() for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


# --- the parameters: every matrix train3 learns, by name ---
# TODO: weights, a dict of all of train3's matrices, each drawn with matrix() in the order
#   train3 draws them (the order decides which random numbers each one gets).
params = [p for mat in weights.values() for row in mat for p in row]


def rmsnorm(x):
    """A new list: x scaled so that its numbers have a root mean square of about 1."""
    # TODO


# TODO: gpt(), train3's model at one position. It is given a token, its position, and the
#   cache of the name so far (the keys, then the values), and returns the logits: one score
#   for every token of the vocabulary. When it returns, the cache holds this position's key
#   and value too.


def name_loss(doc):
    """The mean loss of one name over its positions, BOS first: a Value, ready for backward()."""
    # TODO


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
# TODO: learning_rate, the step size train3 trains with.


def train_step(step):  # finished for you: module 7's step, which train3 keeps as it is
    loss = name_loss(name_at(docs, step))
    loss.backward()
    lr = decayed(learning_rate, step, num_steps)
    for p in params:
        p.data -= lr * p.grad
        p.grad = 0
    return loss.data


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"{len(params)} parameters")
    for step in range(20):
        print(f"step {step + 1:2d} | loss {train_step(step):.4f}")
