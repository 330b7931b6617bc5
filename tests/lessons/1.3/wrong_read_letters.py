"""Lesson 1.3, wrong: a loop over read() goes letter by letter."""
# expect: fail | docs is a list of names | each a single letter
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [ch for ch in open('input.txt', encoding='utf-8').read() if ch.strip()]
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
