"""Lesson 1.3, wrong: random.sample mixes the names, but not in the order shuffle gives."""
# expect: fail | docs is in the order random.seed(42) gives | not in the order one shuffle of docs gives
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
docs = random.sample(docs, k=len(docs))


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
