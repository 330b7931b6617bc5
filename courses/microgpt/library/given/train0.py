"""train0.py's parts, finished: the bigram model that modules 1 and 2 have you write.

Lessons 1.2 to 2.5 build train0.py a few lines at a time, and some of its lines come back later,
in microgpt (lessons 11.1, 11.3, 11.4 and 12.2). A starter that needs a part whose lines you
have not written yet, or will be asked for again, calls it from here instead of showing it.
Each function holds the very lines of train0.py, and says which lesson teaches them.

Nothing here runs when imported: every random draw happens when a starter calls a function,
in train0's order, so the documents, losses and names come out exactly as train0.py prints them.
"""
import math
import random


def shuffled_names(seed=None):
    """The names of input.txt, one per line, shuffled (lesson 1.3). With a seed, random is
    seeded with it first (lesson 1.2); without one, the shuffle draws from where random is."""
    if seed is not None:
        random.seed(seed)
    docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    random.shuffle(docs)
    return docs


def characters(docs):
    """Every character of the names, once each, sorted: its place is its id (lesson 1.4)."""
    chars = sorted(set(''.join(docs)))
    return chars


def tokenizer(docs):
    """chars, BOS and vocab_size: the ids of the characters, plus BOS (lessons 1.4 and 1.5)."""
    chars = characters(docs)
    BOS = len(chars)
    vocab_size = len(chars) + 1
    return chars, BOS, vocab_size


def encode(doc, chars):
    """A name as the model reads it: BOS, the id of each of its characters, BOS (lesson 1.6)."""
    BOS = len(chars)
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    return tokens


def count_pairs(docs, chars):
    """counts[a][b]: how often token b follows token a in the names, from 1 up (lesson 2.1)."""
    vocab_size = len(chars) + 1
    counts = [[1] * vocab_size for _ in range(vocab_size)]  # start at 1: no pair is ever impossible
    for doc in docs:
        tokens = encode(doc, chars)
        for a, b in zip(tokens, tokens[1:]):
            counts[a][b] += 1
    return counts


def probabilities(counts):
    """Each count divided by the total of its own row: every row adds up to 1 (lesson 2.2)."""
    probs = [[c / sum(row) for c in row] for row in counts]
    return probs


def doc_at(docs, step):
    """The name that training step `step` reads: the names in order, and from the first again
    after the last (lesson 11.4)."""
    doc = docs[step % len(docs)]
    return doc


def pairs_to_score(tokens, block_size):
    """n, how many pairs of a name are scored: one per token but the last, at most block_size
    (lesson 2.3)."""
    n = min(block_size, len(tokens) - 1)
    return n


def name_loss(doc, chars, probs, block_size):
    """The table's mean surprise at a name's pairs, -log p averaged over them (lesson 2.3)."""
    tokens = encode(doc, chars)
    n = pairs_to_score(tokens, block_size)
    losses = []
    for pos in range(n):
        losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))
    loss = (1 / n) * sum(losses)
    return loss


def invent(next_token, chars, block_size):
    """A new name's letters: from BOS, next_token(token) gives each token after the one before,
    until it gives BOS or block_size tokens are drawn (lessons 2.4, 11.1 and 11.3)."""
    BOS = len(chars)
    token, name = BOS, []
    for pos in range(block_size):
        token = next_token(token)
        if token == BOS:
            break
        name.append(chars[token])
    return name


def new_letters(chars, probs, block_size):
    """A new name's letters, one at a time, as they are drawn: each token at random from the row
    of the token before, weighted by it, from BOS until BOS comes up (lesson 2.4)."""
    BOS = len(chars)
    vocab_size = len(chars) + 1
    token = BOS
    for pos in range(block_size):
        token = random.choices(range(vocab_size), weights=probs[token])[0]
        if token == BOS:
            break
        yield chars[token]
