import math
import random

# Finished for you: chars (lesson 1.4), the counts (2.1) and their probabilities (2.2), lines
# you wrote, and doc_at, the name each step reads, which lesson 11.4 has you write.
from given.train0 import characters, count_pairs, doc_at, probabilities

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
counts = count_pairs(docs, chars)  # every pair of neighbouring tokens, counted from 1 up
print(f"parameters: {sum(len(row) for row in counts)}")

# each row becomes a probability distribution over the next token
probs = probabilities(counts)  # each count divided by its row's total

# --- the loss: how surprised the table is by each name, -log p averaged over its pairs ---
num_steps = 1000
for step in range(num_steps):
    doc = doc_at(docs, step)  # the names in order, from the first again after the last
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    # TODO (one line): n = how many pairs of this name to score, but never more than block_size.
    losses = []
    # TODO (two lines): one surprise per pair scored, position by position, into `losses`:
    #   minus the natural log of the probability that probs gave the token that came next.
    # TODO (one line): replace the line below: loss = the mean surprise of this name.
    loss = 0.0
    print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")


if __name__ == "__main__":  # Run shows this demo; Check tries your loop on its own
    print(f"the last name was {doc!r}; its surprises, pair by pair:")
    print([round(x, 4) for x in losses], f"-> loss {loss:.4f}")
