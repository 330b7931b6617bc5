"""Lesson 1.3, wrong only beyond the bundled data: the newline cut off as the last character."""
# expect: fail | another names file: a blank line, no last newline | with its last letter cut off
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = []
for line in open('input.txt', encoding='utf-8'):
    name = line[:-1]  # drop the newline at the end
    if name:
        docs.append(name)
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
