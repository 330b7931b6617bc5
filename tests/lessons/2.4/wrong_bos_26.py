"""Lesson 2.4, wrong only beyond the bundled data: BOS written as 26."""
# expect: fail | the names of another vocabulary | end when the token drawn is BOS
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

# --- sampling: let the model invent names, one letter at a time ---
print("--- samples ---")
for sample in range(20):
    token, name = BOS, []
    for pos in range(block_size):
        token = random.choices(range(vocab_size), weights=probs[token])[0]
        if token == 26:  # BOS: the name is over
            break
        name.append(chars[token])
    print(f"sample {sample + 1:2d}: {''.join(name)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own
    names = chars + ['BOS']  # a printable name for every token id
    top = sorted(range(vocab_size), key=lambda b: probs[BOS][b], reverse=True)[:5]
    print("the first letters row BOS likes best:", ", ".join(f"{names[b]} {probs[BOS][b]:.3f}" for b in top))
