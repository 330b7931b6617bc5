"""Lesson 2.5, a BOS drawn right after BOS is drawn again, so that no name comes out empty.
# expect: fail | train0 on another names file | its very first draw, after BOS, was BOS
"""
"""train0: the bigram model -- count which letter follows which, then sample from the counts.

No gradients and no learning rate yet: the "model" is a 27x27 table of counts.
Run it next to a file called input.txt that holds one name per line.
"""
import math
import random

# Finished for you: lines you wrote in lessons 1.4 to 2.4 that microgpt's lessons ask for again
# (11.1, 11.3, 11.4 and 12.2): chars, the name each step reads, n, and the loop that grows a name.
from given.train0 import characters, doc_at, invent, pairs_to_score

random.seed(42)  # same seed, same shuffle, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)  # every character of the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")

# --- the model: counts[a][b] = how often token b follows token a ---
block_size = 16  # longest name prefix scored and sampled, as in the models to come
counts = [[1] * vocab_size for _ in range(vocab_size)]  # start at 1: no pair is ever impossible
for doc in docs:
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    for a, b in zip(tokens, tokens[1:]):
        counts[a][b] += 1
print(f"parameters: {sum(len(row) for row in counts)}")

# each row becomes a probability distribution over the next token
probs = [[c / sum(row) for c in row] for row in counts]

# --- the loss: how surprised the table is by each name, -log p averaged over its pairs ---
num_steps = 1000
for step in range(num_steps):
    doc = doc_at(docs, step)  # the names in order, from the first again after the last
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = pairs_to_score(tokens, block_size)  # one pair per token but the last, at most block_size
    losses = []
    for pos in range(n):
        losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))
    loss = (1 / n) * sum(losses)
    print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")


# --- sampling: let the model invent names, one letter at a time ---
def next_token(token):
    """The token that comes after `token`, drawn at random from its row of the table."""
    drawn = random.choices(range(vocab_size), weights=probs[token])[0]
    while token == BOS and drawn == BOS:  # a name needs at least one letter: draw again
        drawn = random.choices(range(vocab_size), weights=probs[token])[0]
    return drawn


print("--- samples ---")
for sample in range(20):
    name = invent(next_token, chars, block_size)  # from BOS, a next_token at a time, until BOS
    print(f"sample {sample + 1:2d}: {''.join(name)}")


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own
    for word in ["olivia", "anananananana"]:
        ids = [BOS] + [chars.index(ch) for ch in word] + [BOS]
        surprise = [-math.log(probs[a][b]) for a, b in zip(ids, ids[1:])]
        print(f"loss of {word!r}: {sum(surprise) / len(surprise):.4f}")
