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
weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
           'lm_head': matrix(vocab_size, n_embd)}
for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
    weights[name] = matrix(n_embd, n_embd)
params = [p for mat in weights.values() for row in mat for p in row]


def rmsnorm(x):
    """A new list: x scaled so that its numbers have a root mean square of about 1."""
    mean_square = sum(xi * xi for xi in x) / len(x)
    scale = (mean_square + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def gpt(token, pos, keys, values):
    x = [t + p for t, p in zip(weights['wte'][token], weights['wpe'][pos])]
    x = rmsnorm(x)
    residual = x
    x = rmsnorm(x)
    q = linear(x, weights['attn_wq'])
    k = linear(x, weights['attn_wk'])
    v = linear(x, weights['attn_wv'])
    keys.append(k)
    values.append(v)
    scores = [sum(qi * ki for qi, ki in zip(q, past_k)) / n_embd ** 0.5 for past_k in keys]
    attn = softmax(scores)
    x = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(n_embd)]
    x = linear(x, weights['attn_wo'])
    x = [a + b for a, b in zip(x, residual)]
    return linear(x, weights['lm_head'])


def name_loss(doc):
    """The mean loss of one name over its positions, BOS first: a Value, ready for backward()."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = positions(tokens, block_size)
    keys, values = [], []
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    return (1 / n) * sum(losses)


# --- training: one name per step, SGD with a learning rate that decays to zero ---
num_steps = 1000
learning_rate = 0.3


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
