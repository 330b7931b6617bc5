"""Lesson 1.5, a mistake that fits only the bundled names: the numbers written out (26 and 27)."""
# expect: fail | another names file, other numbers | so BOS should be 9 and vocab_size 10
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = sorted(set(''.join(docs)))
BOS = 26
vocab_size = 27
print(f"vocab size: {vocab_size}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"the characters {chars[0]!r} to {chars[-1]!r} have the ids 0 to {len(chars) - 1}")
    print(f"BOS is {BOS}")
