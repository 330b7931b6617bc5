"""Lesson 1.3, wrong: readlines() keeps the newline at the end of every name."""
# expect: fail | docs is a list of names | still around the name, and so does every other name
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = open('input.txt', encoding='utf-8').readlines()
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
