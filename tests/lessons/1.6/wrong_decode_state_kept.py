"""Lesson 1.6, wrong: decode collects the letters in a list made outside it."""
# expect: fail | decode turns ids back into a name | when called again with the same ids
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = sorted(set(''.join(docs)))
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")


def encode(doc):
    """A name as the model reads it: BOS, the id of each of its characters, BOS."""
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    return tokens


letters = []


def decode(tokens):
    """The ids between the two BOS markers, read back as a name."""
    for token in tokens[1:-1]:
        letters.append(chars[token])
    return ''.join(letters)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    for doc in ["emma", docs[0]]:
        tokens = encode(doc)
        print(f"{doc!r} -> {tokens} -> {decode(tokens)!r}")
