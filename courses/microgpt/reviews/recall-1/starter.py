"""Module 1 from memory: the data and the tokenizer, the lines every model of the course starts with.

Write them again without opening the lessons' code: the names of input.txt, shuffled the same
way on every run, their characters as ids, BOS, encode and decode. Check runs the checks of
lessons 1.2 to 1.6 on it, the same checks with the same messages.
"""
# TODO: the two modules of Python's own library that the program needs (random numbers, and
#   logarithms later on), and from here on random numbers that are the same on every run: the
#   sequence that starts at 42.

# --- the data: one document (a name) per line ---
# TODO: docs, a list of the names of input.txt, one per line: no newline at their ends, no
#   empty names, and in the random order that the sequence above gives them.
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
# TODO: chars, every character the names use, each once, in the same order on every run: a
#   character's position in chars is its id. BOS, the first id that no character has.
#   vocab_size, how many ids there are in all.
print(f"vocab size: {vocab_size}")


def encode(doc):
    """A name as the model reads it: BOS, the id of each of its characters, BOS."""
    # TODO


def decode(tokens):
    """The ids between the two BOS markers, read back as a name."""
    # TODO


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("the first names after the shuffle:", docs[:3], "  math is there too:", math.log(1))
    for doc in ["emma", docs[0]]:
        tokens = encode(doc)
        print(f"{doc!r} -> {tokens} -> {decode(tokens)!r}")
