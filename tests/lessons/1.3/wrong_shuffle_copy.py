"""Lesson 1.3, wrong: a copy of docs is shuffled, and docs keeps the file's order."""
# expect: fail | docs is shuffled | still in the file's order
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(list(docs))


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
