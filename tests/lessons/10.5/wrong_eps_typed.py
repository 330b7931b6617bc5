"""Lesson 10.5: eps typed in as the number 1e-8, rather than read from eps.
# expect: fail | a gradient of 0 moves nothing, a tiny one a little | what eps = 1e-8 gives
"""
import random

# Finished for you, in the course's library (given/train5.py): Adam's settings (learning_rate,
# beta1, beta2, eps: lesson 10.6 has you write them), zeros, running_means and bias_corrected
# (your lines of 10.3 and 10.4, which 10.6 asks for again), decayed_lr (your lr, for Run to
# print), name_of_step (11.4), and module 9's model with lines of earlier lessons that module 12
# asks you for again (Value, characters, n_positions, make_weights, transformer, softmax).
from given.train5 import (Value, beta1, beta2, bias_corrected, characters, decayed_lr, eps,
                          learning_rate, make_weights, n_positions, name_of_step, running_means,
                          softmax, transformer, zeros)

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
m = zeros(len(params))  # running mean of each gradient
v = zeros(len(params))  # running mean of each squared gradient


def adam_step(step):
    """Adam: every parameter moves against its gradient, by a step of its own size."""
    lr = learning_rate * (1 - step / num_steps)
    for i, p in enumerate(params):
        m[i], v[i] = running_means(m[i], v[i], p.grad, beta1, beta2)
        m_hat, v_hat = bias_corrected(m[i], v[i], step, beta1, beta2)
        p.data -= lr * m_hat / (v_hat ** 0.5 + 1e-8)
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
    w = weights['wte'][BOS][0]  # a weight of BOS's embedding: every name starts with BOS
    for step in range(20):
        before = w.data
        loss = train_step(step)
        rate = decayed_lr(learning_rate, step, num_steps)  # what adam_step used as lr
        print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}   lr {rate:.6f}   "
              f"wte[BOS][0] moved {w.data - before:+.6f}")
