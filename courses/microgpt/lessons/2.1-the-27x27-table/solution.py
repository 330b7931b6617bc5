import random

from given.train0 import characters  # lesson 1.4's line, finished for you (lesson 12.2 asks for it again)

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
counts = [[1] * vocab_size for _ in range(vocab_size)]  # start at 1: no pair is ever impossible
for doc in docs:
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    for a, b in zip(tokens, tokens[1:]):
        counts[a][b] += 1
print(f"parameters: {sum(len(row) for row in counts)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your table on its own
    names = chars + ['BOS']  # a printable name for every token id
    for a in (BOS, chars.index('e')):  # how names start, then what follows 'e'
        if a < len(counts) and len(counts[a]) == vocab_size:
            top = sorted(range(vocab_size), key=lambda b: counts[a][b], reverse=True)[:6]
            print(f"after {names[a]}:", ", ".join(f"{names[b]} {counts[a][b]}" for b in top))
        else:
            print(f"after {names[a]}: no row of {vocab_size} numbers yet")
