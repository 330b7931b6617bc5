import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
# TODO: replace [] with the names of input.txt, one per line, as a list: each name without the
#       newline that ends its line, and no empty names from blank lines. One line is enough.
docs = []
# TODO: shuffle docs: the list itself, so that docs changes


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"documents: {len(docs)}")
    print("the first five:", docs[:5])
