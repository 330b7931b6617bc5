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
# TODO: counts, a table of vocab_size rows of vocab_size numbers: in row a, column b, how often
#   token b comes right after token a in the names, each with a BOS at both ends, counted up
#   from 1 so that no pair is impossible.
print(f"parameters: {sum(len(row) for row in counts)}")

# each row becomes a probability distribution over the next token
# TODO: probs, shaped like counts: probs[a][b] is the chance that token b comes next after
#   token a, so that every row adds up to 1.

# --- the loss: how surprised the table is by each name, -log p averaged over its pairs ---
num_steps = 1000
for step in range(num_steps):
    doc = doc_at(docs, step)  # the names in order, from the first again after the last
    # TODO: loss, how surprised the table is by this name: the mean, over its pairs of tokens
    #   (never more than block_size of them), of each pair's surprise, kept one by one in the
    #   list losses. tokens and n: the name's tokens, and how many pairs are scored.
    print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")

# --- sampling: let the model invent names, one letter at a time ---
print("--- samples ---")
for sample in range(20):
    # TODO: name, the letters of a new name: each token drawn at random as the table says it
    #   follows the token before it, starting from BOS, until BOS comes up or block_size tokens
    #   are drawn.
    print(f"sample {sample + 1:2d}: {''.join(name)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    names = chars + ['BOS']  # a printable name for every token id
    for a in (BOS, chars.index('q') if 'q' in chars else 0):  # how names start, then after q
        top = sorted(range(vocab_size), key=lambda b: probs[a][b], reverse=True)[:4]
        print(f"after {names[a]}:", ", ".join(f"{names[b]} {probs[a][b]:.3f}" for b in top))
