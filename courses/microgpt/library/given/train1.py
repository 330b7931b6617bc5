"""Finished parts of train1.py, the float model of modules 4 to 6, for their starters.

The lines are train1.py's own, put into functions that take what they need as arguments.
Each function holds lines that a later lesson has you write (lessons 4.3, 5.3 to 5.5, 6.1,
10.5, 10.6, 11.1, 11.3, 11.4 and 12.2, most of them again after an earlier lesson taught them),
so a starter calls it instead of showing them. Nothing here reads a file or draws a random
number of its own: a starter keeps its seed, and the order of its draws, as train1.py has them.
"""
import math


# --- the tokenizer, and which positions and names are trained on (lessons 1.4, 2.3 and 6.5) ---
def vocabulary(docs):
    """chars: every character that appears in docs, once each, in sorted order."""
    chars = sorted(set(''.join(docs)))
    return chars


def positions(tokens, block_size):
    """n, how many positions of a name to score: one per next token, at most block_size."""
    n = min(block_size, len(tokens) - 1)
    return n


def step_name(docs, step):
    """The name training step `step` reads: the names in order, from the first again after
    the last."""
    doc = docs[step % len(docs)]
    return doc


# --- module 4's tiny model: a table of counts (lesson 4.2) ---
def counts_loss(counts, tokens, n):
    """The average surprise, -log p, of the table `counts` over the first n positions."""
    losses = [-math.log(counts[a][b] / sum(counts[a])) for a, b in zip(tokens, tokens[1:n + 1])]
    return (1 / n) * sum(losses)


# --- the model's building blocks (lessons 5.3 to 5.5) ---
def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    biggest = max(logits)  # subtracting the max keeps exp() from overflowing
    exps = [math.exp(v - biggest) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def hidden_and_logits(x, weights, linear=linear):
    """mlp() after the embedding row x: the hidden layer h (ReLU), and one logit per next
    letter, each made by `linear` (this module's, unless a starter passes its own)."""
    h = [max(0.0, a) for a in linear(x, weights['mlp_fc1'])]  # ReLU
    return h, linear(h, weights['mlp_fc2'])


# --- training and sampling (lessons 6.5 and 6.6) ---
def decayed(learning_rate, step, num_steps):
    """The learning rate of step `step`: learning_rate at step 0, falling in a straight line
    towards 0 at step num_steps."""
    lr = learning_rate * (1 - step / num_steps)
    return lr


def draw_name(next_token, chars, block_size):
    """A new name: from BOS, next_token(token) draws each token after the last, until BOS
    comes out or block_size letters are drawn."""
    BOS = len(chars)
    token, name = BOS, []
    for pos in range(block_size):  # stop at BOS, or at block_size letters
        token = next_token(token)
        if token == BOS:
            break
        name.append(chars[token])
    return ''.join(name)

