"""Lesson 2.3, wrong only beyond the bundled data: the surprises of all pairs, then cut at block_size."""
# expect: fail | a name longer than block_size scores block_size pairs | the mean surprise of its first 16 pairs
import math
import random

random.seed(42)  # same seed, same shuffle, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = sorted(set(''.join(docs)))
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
    doc = docs[step % len(docs)]
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = len(tokens) - 1
    losses = []
    for pos in range(n):
        losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))
    losses = losses[-block_size:]  # the model sees at most block_size of them
    n = len(losses)
    loss = (1 / n) * sum(losses)
    print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")


if __name__ == "__main__":  # Run shows this demo; Check tries your loop on its own
    print(f"the last name was {doc!r}; its surprises, pair by pair:")
    print([round(x, 4) for x in losses], f"-> loss {loss:.4f}")
