# TODO: import math here too (the program needs it later for logarithms)
import random

# TODO: fix where Python's random numbers start: seed them with 42, so that every run draws the
#       same numbers (and shuffles the names the same way). One call on the random module.

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("the first five names after the shuffle:", docs[:5])
    print("the next random number:", random.random())
    print("math is there too: math.log(1) is", math.log(1))
    print("Press Run again and compare.")
