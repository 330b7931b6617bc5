"""Lesson 1.3, half done: docs is read, the shuffle is still a TODO."""
# expect: fail | docs is shuffled | still in the file's order
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
# TODO: shuffle docs: the list itself, so that docs changes


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
