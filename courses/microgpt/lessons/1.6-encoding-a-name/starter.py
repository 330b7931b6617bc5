import random

from given.train0 import characters  # lesson 1.4's line, finished for you (lesson 12.2 asks for it again)

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)  # every character of the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")


def encode(doc):
    """A name as the model reads it: BOS, the id of each of its characters, BOS."""
    # TODO: replace [] with doc as the model reads it: one flat list of ids, with a BOS at
    #       each end and the id of every character between them
    tokens = []
    return tokens


def decode(tokens):
    """The ids between the two BOS markers, read back as a name."""
    name = []
    for token in tokens[1:-1]:
        # TODO: name collects the character that token stands for
        pass
    return ''.join(name)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    for doc in ["emma", docs[0]]:
        tokens = encode(doc)
        print(f"{doc!r} -> {tokens} -> {decode(tokens)!r}")
