"""Lesson 1.3, wrong only beyond the bundled data: splitlines() keeps a blank line as an empty name."""
# expect: fail | another names file: a blank line, no last newline | The blank line became an empty name
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = open('input.txt', encoding='utf-8').read().splitlines()
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
