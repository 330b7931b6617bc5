# TODO: import math here too (the program needs it later for logarithms)
import random

from given.train0 import shuffled_names  # finished for you: lesson 1.3 has you write its lines

# TODO: fix where Python's random numbers start: seed them with 42, so that every run draws the
#       same numbers (and shuffles the names the same way). One call on the random module.

# --- the data: one document (a name) per line ---
docs = shuffled_names()  # reads input.txt and shuffles the names: the program's first random draws
print(f"documents: {len(docs)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("the first five names after the shuffle:", docs[:5])
    print("the next random number:", random.random())
    print("math is there too: math.log(1) is", math.log(1))
    print("Press Run again and compare.")
