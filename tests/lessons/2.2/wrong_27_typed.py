"""Lesson 2.2, wrong only beyond the bundled data: the 27 rows and columns typed in."""
# expect: fail | the probabilities of another names file | your file stopped on line
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
counts = [[1] * vocab_size for _ in range(vocab_size)]  # start at 1: no pair is ever impossible
for doc in docs:
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    for a, b in zip(tokens, tokens[1:]):
        counts[a][b] += 1
print(f"parameters: {sum(len(row) for row in counts)}")


# each row becomes a probability distribution over the next token
probs = []
for a in range(27):  # 26 letters and BOS
    total = sum(counts[a])
    probs.append([counts[a][b] / total for b in range(27)])


if __name__ == "__main__":  # Run shows this demo; Check tries your table on its own
    names = chars + ['BOS']  # a printable name for every token id
    q = chars.index('q')
    if len(probs) == vocab_size and len(probs[q]) == vocab_size:
        top = sorted(range(vocab_size), key=lambda b: probs[q][b], reverse=True)[:4]
        print("after q:", ", ".join(f"{names[b]} {probs[q][b]:.4f}" for b in top))
        print(f"row q adds up to {sum(probs[q]):.6f}")
    else:
        print(f"probs is not a table of {vocab_size} rows of {vocab_size} numbers yet")
