import random

from given.train0 import characters  # lesson 1.4's line, finished for you (lesson 12.2 asks for it again)

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)  # every character of the names, once each, sorted
# TODO: replace None with BOS's id: the first whole number that no character uses as its id
BOS = None
# TODO: replace None with how many ids there are in all, counting BOS
vocab_size = None
print(f"vocab size: {vocab_size}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"the characters {chars[0]!r} to {chars[-1]!r} have the ids 0 to {len(chars) - 1}")
    print(f"BOS is {BOS}")
