import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
# TODO: replace [] with the names of input.txt, one per line, as a list: each name without the
#       newline that ends its line, and no empty names from blank lines. One line is enough.
docs = []
# TODO: put the names in a random order: docs itself must change, not a copy of it


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
