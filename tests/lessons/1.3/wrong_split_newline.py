"""Lesson 1.3, wrong: split('\n') leaves an empty name after the file's last newline."""
# expect: fail | docs is a list of names | empty name
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = open('input.txt', encoding='utf-8').read().split('\n')
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
