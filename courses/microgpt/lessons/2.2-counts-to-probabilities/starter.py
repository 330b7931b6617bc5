import random

# Finished for you, from lines you wrote (later lessons ask for them again): chars, lesson 1.4's
# line, and the table of counts, lesson 2.1's.
from given.train0 import characters, count_pairs

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
counts = count_pairs(docs, chars)  # every pair of neighbouring tokens, counted from 1 up
print(f"parameters: {sum(len(row) for row in counts)}")


# each row becomes a probability distribution over the next token
# TODO (one line): make `probs`, a table shaped like counts in which each count is divided by
#   the total of its own row, so that every row adds up to 1: probs[a][b] is the chance that
#   token b comes next when the current token is a.
probs = []


if __name__ == "__main__":  # Run shows this demo; Check tries your table on its own
    names = chars + ['BOS']  # a printable name for every token id
    q = chars.index('q')
    if len(probs) == vocab_size and len(probs[q]) == vocab_size:
        top = sorted(range(vocab_size), key=lambda b: probs[q][b], reverse=True)[:4]
        print("after q:", ", ".join(f"{names[b]} {probs[q][b]:.4f}" for b in top))
        print(f"row q adds up to {sum(probs[q]):.6f}")
    else:
        print(f"probs is not a table of {vocab_size} rows of {vocab_size} numbers yet")
