"""Lesson 10.3, state kept in the wrong place: m and v made afresh inside adam_step, so
no mean carries over from one step to the next (and the file's own m and v never change).
# expect: fail | a step folds the gradient into m and its square into v | neither m nor v changed
"""
import random

# Finished for you, in the course's library (given/train5.py): Adam's settings (learning_rate,
# beta1, beta2, eps: lesson 10.6 has you write them), decayed_lr and adam_update (10.5),
# name_of_step (11.4), and module 9's model with lines of earlier lessons that module 12 asks
# you for again (Value, characters, n_positions, make_weights, transformer, softmax).
from given.train5 import (Value, adam_update, beta1, beta2, characters, decayed_lr, eps,
                          learning_rate, make_weights, n_positions, name_of_step, softmax,
                          transformer)

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")


# --- the parameters: small random numbers, drawn in a fixed order ---
n_layer = 1      # transformer blocks
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees
n_head = 4       # attention heads per block
head_dim = n_embd // n_head

weights = make_weights(vocab_size, n_embd, block_size, n_layer)
params = [p for mat in weights.values() for row in mat for p in row]
print(f"parameters: {len(params)}")


# --- the model: train4's gpt(), finished in the course's library, run on this file's weights ---
def gpt(token, pos, keys, values):
    return transformer(token, pos, keys, values, weights, n_layer, n_head)


# --- training: one name per step, Adam with a learning rate that decays to zero ---
num_steps = 1000
m = [0.0] * len(params)  # running mean of each gradient
v = [0.0] * len(params)  # running mean of each squared gradient


def adam_step(step):
    """Adam: every parameter moves against its gradient, by a step of its own size."""
    m = [0.0] * len(params)
    v = [0.0] * len(params)
    lr = decayed_lr(learning_rate, step, num_steps)
    for i, p in enumerate(params):
        m[i] = beta1 * m[i] + (1 - beta1) * p.grad
        v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2
        m_hat = m[i]  # for now: lesson 10.4 corrects m for its start at 0
        v_hat = v[i]  # for now: the same for v
        adam_update(p, lr, m_hat, v_hat, eps)
        p.grad = 0


def train_step(step):
    """One training step, on the name of step `step`: the loss, backward(), then Adam. Returns the
    loss (a Value)."""
    doc = name_of_step(docs, step)
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = n_positions(tokens, block_size)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    loss.backward()
    adam_step(step)
    return loss

if __name__ == "__main__":  # Run trains the first 20 steps; Check tries its own examples
    i = params.index(weights['wte'][BOS][0])  # BOS's embedding: every name starts with BOS
    for step in range(20):
        loss = train_step(step)
        print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}   "
              f"wte[BOS][0]: m {m[i]:+.6f}   v {v[i]:.8f}")
