"""Lesson 1.3, a correct variant: readlines(), each line stripped."""
# expect: pass
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt').readlines() if line.strip()]
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
