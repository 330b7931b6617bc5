"""microgpt: a whole GPT -- data, tokenizer, autograd, attention, Adam, sampling -- in plain Python.

The linebyline course rebuilds this file one lesson at a time. It follows the algorithm of
Andrej Karpathy's microgpt (https://karpathy.github.io/2026/02/12/microgpt/) closely enough to
reproduce its published numbers, but every line here is our own.
Run it next to a file called input.txt that holds one name per line.
"""
# What follows is train0.py, the first and simplest version of that program: the bigram
# model. It counts which letter follows which, then samples new names from the counts.
# No gradients and no learning rate yet: the "model" is a 27x27 table of counts.
# Its parts come finished from the course's given/train0.py: modules 1 and 2 have you write
# each of them, line by line. Here you write the very last line.
from given.train0 import count_pairs, doc_at, name_loss, new_letters, probabilities, shuffled_names, tokenizer

# --- the data: one document (a name) per line, shuffled the same way on every run ---
docs = shuffled_names(seed=42)  # same seed, same shuffle, same names
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars, BOS, vocab_size = tokenizer(docs)
print(f"vocab size: {vocab_size}")

# --- the model: counts[a][b] = how often token b follows token a ---
block_size = 16  # longest name prefix scored and sampled, as in the models to come
counts = count_pairs(docs, chars)
print(f"parameters: {sum(len(row) for row in counts)}")

# each row becomes a probability distribution over the next token
probs = probabilities(counts)

# --- the loss: how surprised the table is by each name, -log p averaged over its pairs ---
num_steps = 1000
for step in range(num_steps):
    loss = name_loss(doc_at(docs, step), chars, probs, block_size)
    print(f"step {step + 1:4d} / {num_steps} | loss {loss:.4f}")

# --- sampling: let the model invent names, one letter at a time ---
print("--- samples ---")
for sample in range(20):
    name = []
    for letter in new_letters(chars, probs, block_size):  # drawn one by one until BOS
        name.append(letter)
    print(f"sample {sample + 1:2d}: {''.join(name)}")
