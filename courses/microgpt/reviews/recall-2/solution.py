"""Module 2 from memory: train0.py, the bigram model, which counts instead of learning.

Below the data and the tokenizer, write the table of counts, its probabilities, each name's
loss and the sampling of 20 new names, without opening the lessons' code. Check runs the checks
of lessons 2.1 to 2.5 on it, the same checks with the same messages.
"""
import math
import random

# Finished for you: chars (lesson 1.4) and doc_at, the name each step reads (lesson 11.4):
# later lessons ask for their lines again.
from given.train0 import characters, doc_at

random.seed(42)  # same seed, same shuffle, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)  # every character of the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")

# --- the model: counts[a][b] = how often token b follows token a ---
block_size = 16  # longest name prefix scored and sampled, as in the models to come
counts = [[1] * vocab_size for _ in range(vocab_size)]  # start at 1: no pair is ever impossible
for doc in docs:
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    for a, b in zip(tokens, tokens[1:]):
        counts[a][b] += 1
print(f"parameters: {sum(len(row) for row in counts)}")

# each row becomes a probability distribution over the next token
probs = [[c / sum(row) for c in row] for row in counts]

# --- the loss: how surprised the table is by each name, -log p averaged over its pairs ---
num_steps = 1000
for step in range(num_steps):
    doc = doc_at(docs, step)  # the names in order, from the first again after the last
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = min(block_size, len(tokens) - 1)
    losses = []
    for pos in range(n):
        losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))
    loss = (1 / n) * sum(losses)
    print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")

# --- sampling: let the model invent names, one letter at a time ---
print("--- samples ---")
for sample in range(20):
    token, name = BOS, []
    for pos in range(block_size):
        token = random.choices(range(vocab_size), weights=probs[token])[0]
        if token == BOS:
            break
        name.append(chars[token])
    print(f"sample {sample + 1:2d}: {''.join(name)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    names = chars + ['BOS']  # a printable name for every token id
    for a in (BOS, chars.index('q') if 'q' in chars else 0):  # how names start, then after q
        top = sorted(range(vocab_size), key=lambda b: probs[a][b], reverse=True)[:4]
        print(f"after {names[a]}:", ", ".join(f"{names[b]} {probs[a][b]:.3f}" for b in top))
