"""Lesson 1.3, a correct variant: the whole file split into lines with splitlines(), blank ones left out."""
# expect: pass
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [name for name in open('input.txt', encoding='utf-8').read().splitlines() if name]
random.shuffle(docs)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
