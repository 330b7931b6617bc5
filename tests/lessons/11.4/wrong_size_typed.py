"""Lesson 11.4, the number of names typed in: the remainder by 32,000, the size of the bundled file.
# expect: fail | with more steps than names, the steps start again from the first | whatever the number of names

Everything is microgpt.py's: the data, the tokenizer, autograd, the 4,192 parameters, gpt() and
Adam. train_step(step) is one training step; sample_name(temperature) invents one name.
Run it next to a file called input.txt that holds one name per line.
"""
import random

# Finished for you, in the course's library (given/train5.py): lines of earlier lessons that
# module 12 asks you for again. decayed_lr and adam_update are lesson 10.5's, draw lesson 11.3's
# draw of a token, and the rest is module 9's model (Value, characters, n_positions,
# make_weights, transformer, softmax).
from given.train5 import (Value, adam_update, characters, decayed_lr, draw, make_weights,
                          n_positions, softmax, transformer)

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


def training_names():
    """The name each training step reads, in order: one per step, num_steps in all."""
    names = []
    for step in range(num_steps):
        doc = docs[step % 32000]  # the number of names in input.txt
        names.append(doc)
    return names


def train_step(step, doc):
    """One step on the name doc: the loss, backward(), then Adam. Returns the loss (a Value)."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = n_positions(tokens, block_size)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
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
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    token, name = BOS, []
    for pos in range(block_size):
        probs = softmax([logit / temperature for logit in gpt(token, pos, keys, values)])
        token = draw(probs)
        if token == BOS:
            break
        name.append(chars[token])
    return ''.join(name)



def where_from(name, read, data):
    """Where a sampled name comes from: read in training, elsewhere in the data, or nowhere."""
    if name in read:
        return "read in training"
    if name in data:
        return "in the data, never read in training"
    return "new: in no list the model was given"


if __name__ == "__main__":  # Run samples 20 names and looks each one up; Check tries its own
    TRAIN_STEPS = 0  # 0 keeps the weights untrained; 100 trains for about 15 s first (1000: minutes)
    try:
        read = training_names()
    except NameError as error:
        print(f"training_names() is not finished ({error}): write the TODO line, then Run again.")
    else:
        for step, doc in enumerate(read[:TRAIN_STEPS]):
            loss = train_step(step, doc)
            print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}")
        print(f"training reads {len(read)} names ({len(set(read))} different) of the "
              f"{len(docs)} in input.txt")
        for sample in range(20):
            name = sample_name(temperature)
            print(f"sample {sample + 1:2d}: {name:<16} {where_from(name, set(read), set(docs))}")
