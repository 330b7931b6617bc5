"""Lesson 2.4, every name started from token 0 (the row of 'a') instead of BOS.
# expect: fail | the same 20 names as train0 | starts from the token 0
"""
import random

# Finished for you, from lines you wrote (later lessons ask for them again): chars (lesson 1.4),
# the table of counts (2.1) and its probabilities (2.2).
from given.train0 import characters, count_pairs, probabilities

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

# --- sampling: let the model invent names, one letter at a time ---
print("--- samples ---")
for sample in range(20):
    token, name = 0, []
    for pos in range(block_size):
        token = random.choices(range(vocab_size), weights=probs[token])[0]
        if token == BOS:
            break
        name.append(chars[token])
    print(f"sample {sample + 1:2d}: {''.join(name)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own
    names = chars + ['BOS']  # a printable name for every token id
    top = sorted(range(vocab_size), key=lambda b: probs[BOS][b], reverse=True)[:5]
    print("the first letters row BOS likes best:", ", ".join(f"{names[b]} {probs[BOS][b]:.3f}" for b in top))
