"""Module 1 from memory: the data and the tokenizer, the lines every model of the course starts with.

Write them again without opening the lessons' code: the names of input.txt, shuffled the same
way on every run, their characters as ids, BOS, encode and decode. Check runs the checks of
lessons 1.2 to 1.6 on it, the same checks with the same messages.
"""
import math
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


def decode(tokens):
    """The ids between the two BOS markers, read back as a name."""
    name = []
    for token in tokens[1:-1]:
        name.append(chars[token])
    return ''.join(name)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("the first names after the shuffle:", docs[:3], "  math is there too:", math.log(1))
    for doc in ["emma", docs[0]]:
        tokens = encode(doc)
        print(f"{doc!r} -> {tokens} -> {decode(tokens)!r}")
