"""Lesson 10.6: the settings written on their line, then typed in again as numbers in the update.
# expect: fail | Adam follows its settings when they change | did not follow learning_rate when it changed
"""
import random

# Finished for you, in the course's library (given/train5.py): name_of_step (lesson 11.4 has you
# write it), sample_name (11.1 to 11.3), and module 9's model with lines of earlier lessons that
# module 12 asks you for again (Value, characters, n_positions, make_weights, transformer,
# softmax).
from given.train5 import (Value, characters, make_weights, n_positions, name_of_step, sample_name,
                          softmax, transformer)

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
learning_rate, beta1, beta2, eps = 0.01, 0.85, 0.99, 1e-8
m = [0.0] * len(params)
v = [0.0] * len(params)


def adam_step(step):
    """Adam: every parameter moves against its gradient, by a step of its own size."""
    lr = 0.01 * (1 - step / num_steps)
    for i, p in enumerate(params):
        m[i] = 0.85 * m[i] + 0.15 * p.grad
        v[i] = 0.99 * v[i] + 0.01 * p.grad ** 2
        m_hat = m[i] / (1 - 0.85 ** (step + 1))
        v_hat = v[i] / (1 - 0.99 ** (step + 1))
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

if __name__ == "__main__":  # Run trains all num_steps steps, then samples; Check tries its own
    missing = [name for name in ("learning_rate", "beta1", "beta2", "eps", "m", "v")
               if name not in globals()]
    if missing:
        print(f"Not made yet: {', '.join(missing)}. Fill in the TODOs, then Run again.")
    else:
        for step in range(num_steps):
            loss = train_step(step)
            print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}")

        # --- sampling: let the model invent names, one letter at a time ---
        temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names
        print("--- samples ---")
        for sample in range(20):
            name = sample_name(gpt, temperature, n_layer, block_size, chars)
            print(f"sample {sample + 1:2d}: {name}")
