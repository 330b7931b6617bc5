"""Lesson 1.2, half done: math is imported, the seed is still missing."""
# expect: fail | random is seeded with 42 before the shuffle | Is there a seed before the shuffle?
import math
import random


# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("the first five names after the shuffle:", docs[:5])
    print("the next random number:", random.random())
    print("math is there too: math.log(1) is", math.log(1))
    print("Press Run again and compare.")
