"""Lesson 11.1, the caches made for microgpt's one layer, whatever n_layer is.
# expect: fail | with two layers, each layer has a cache of its own | with n_layer = 2 it needs 2 empty lists inside

Everything is microgpt.py's: the data, the tokenizer, autograd, the 4,192 parameters, gpt() and
Adam. train_step(step) is one training step; sample_name(temperature) invents one name.
Run it next to a file called input.txt that holds one name per line.
"""
import random

# Finished for you, in the course's library (given/train5.py): at_temperature (lesson 11.2 has
# you write its line), drawn, the loop that draws a name's letters (11.3), name_of_step (11.4),
# decayed_lr and adam_update (lines of 10.5 that module 12 asks you for again), and module 9's
# model with lines of earlier lessons that module 12 asks for again too (Value, characters,
# n_positions, make_weights, transformer, softmax).
from given.train5 import (Value, adam_update, at_temperature, characters, decayed_lr, drawn,
                          make_weights, n_positions, name_of_step, softmax, transformer)

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
m = [0.0] * len(params)  # running mean of each gradient
v = [0.0] * len(params)  # running mean of each squared gradient


def train_step(step):
    """One training step, on the name of step `step`: the loss, backward(), then Adam. Returns the
    loss (a Value)."""
    doc = name_of_step(docs, step)
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = n_positions(tokens, block_size)
    keys, values = [[]], [[]]  # one layer, as microgpt has
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    loss.backward()

    lr = decayed_lr(learning_rate, step, num_steps)
    for i, p in enumerate(params):
        m[i] = beta1 * m[i] + (1 - beta1) * p.grad
        v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2
        m_hat = m[i] / (1 - beta1 ** (step + 1))
        v_hat = v[i] / (1 - beta2 ** (step + 1))
        adam_update(p, lr, m_hat, v_hat, eps)
        p.grad = 0
    return loss


# --- sampling: let the model invent names, one letter at a time ---
temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names


def sample_name(temperature):
    """One new name, drawn a letter at a time from the model until BOS or block_size letters."""
    keys, values = [[]], [[]]  # one layer, as microgpt has
    token, name = BOS, []

    def next_probs(token, pos):  # the probabilities of the token after `token`, at position pos
        return at_temperature(gpt(token, pos, keys, values), temperature)

    for token in drawn(next_probs, token, BOS, block_size):  # the letters, drawn one at a time
        name.append(chars[token])
    return ''.join(name)


if __name__ == "__main__":  # Run samples five names and watches their caches; Check tries its own
    TRAIN_STEPS = 0  # 0 keeps the weights untrained; 100 trains for about 15 s first (1000: minutes)
    for step in range(TRAIN_STEPS):
        loss = train_step(step)
        print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}")
    model = gpt

    def gpt(token, pos, keys, values):  # the same gpt(), watched: what is in the cache?
        if pos == 0:
            print(f"  a name starts: {len(keys[0])} keys are already in the cache")
        return model(token, pos, keys, values)

    try:
        for sample in range(5):
            print(f"sample {sample + 1:2d}: {sample_name(temperature)}")
    except NameError as error:
        print(f"sample_name() is not finished ({error}): write the TODO lines, then Run again.")
