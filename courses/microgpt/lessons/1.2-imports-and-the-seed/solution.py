import math
import random

from given.train0 import shuffled_names  # finished for you: lesson 1.3 has you write its lines

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = shuffled_names()  # reads input.txt and shuffles the names: the program's first random draws
print(f"documents: {len(docs)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("the first five names after the shuffle:", docs[:5])
    print("the next random number:", random.random())
    print("math is there too: math.log(1) is", math.log(1))
    print("Press Run again and compare.")
