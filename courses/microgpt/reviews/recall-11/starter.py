"""Module 11 from memory: sampling, the names microgpt invents, and the names it was trained on.

Write sample_name() and training_names() from memory, without opening the lessons' code. Check
runs the checks of lessons 11.1, 11.2, 11.3 and 11.4 on them, the same checks with the same
messages. Run it next to input.txt (the names).
"""
import random

# Finished for you, in the course's library (given/train5.py): module 9's model (Value,
# characters, make_weights, transformer, softmax).
from given.train5 import Value, characters, make_weights, softmax, transformer

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = characters(docs)
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")

# --- the parameters: small random numbers, drawn in a fixed order ---
n_layer = 1      # transformer blocks
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees
n_head = 4       # attention heads per block

weights = make_weights(vocab_size, n_embd, block_size, n_layer)
params = [p for mat in weights.values() for row in mat for p in row]
print(f"parameters: {len(params)}")


# --- the model: module 9's gpt(), finished in the course's library, on this file's weights ---
def gpt(token, pos, keys, values):
    return transformer(token, pos, keys, values, weights, n_layer, n_head)


num_steps = 1000  # training's length: one name per step (module 10's run)


def training_names():
    """The name each training step reads, in order: one per step, num_steps in all. The steps
    take docs as they stand, and start again from the first name once they run out."""
    # TODO


# --- sampling: let the model invent names, one letter at a time ---
temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names


def sample_name(temperature):
    """One new name from gpt(), a letter at a time, each drawn at random with the chance the
    model gives it at this temperature. A name owes nothing to the names drawn before it; it
    ends when the model draws BOS (which is no letter of it) or once it has block_size letters."""
    # TODO


if __name__ == "__main__":  # Run samples ten names (untrained weights); Check tries its own
    read = training_names()
    print(f"training reads {len(read)} names ({len(set(read))} different) of the {len(docs)} "
          "in input.txt")
    for sample in range(10):
        print(f"sample {sample + 1:2d}: {sample_name(temperature)}")
