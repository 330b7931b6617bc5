"""Lesson 1.5, a correct variant: BOS and vocab_size counted with a loop."""
# expect: pass
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = sorted(set(''.join(docs)))
BOS = 0
for ch in chars:
    BOS += 1
vocab_size = len(chars + ['BOS'])
print(f"vocab size: {vocab_size}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"the characters {chars[0]!r} to {chars[-1]!r} have the ids 0 to {len(chars) - 1}")
    print(f"BOS is {BOS}")
