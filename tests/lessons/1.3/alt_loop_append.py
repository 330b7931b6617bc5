"""Lesson 1.3, a correct variant: a for loop that appends each stripped, non-empty line."""
# expect: pass
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = []
for line in open('input.txt', encoding='utf-8'):
    name = line.strip()
    if name:
        docs.append(name)
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
