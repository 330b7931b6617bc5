"""Lesson 1.4, wrong only beyond the bundled data: the alphabet typed in."""
# expect: fail | the characters of another names file | That is the same as for input.txt
import random

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = list('abcdefghijklmnopqrstuvwxyz')  # the names are lowercase letters


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print(f"chars holds {len(chars)} characters:", chars)
    for ch in "emma":
        print(repr(ch), "has id", chars.index(ch) if ch in chars else "(not in chars)")
