"""Module 12 from memory: microgpt as one experiment at any size, and its weights as shapes.

Write experiment(), shapes() and count() from memory, without opening the lessons' code. Check
runs the checks of lessons 12.2 and 12.3 on them, the same checks with the same messages.
Run it next to input.txt (the names).
"""
import random

# Finished for you, in the course's library (given/train5.py): module 9's model, as functions
# handed the weights and sizes they work on. make_weights(vocab_size, n_embd, block_size,
# n_layer) draws every matrix in microgpt's order; transformer(token, pos, keys, values,
# weights, n_layer, n_head) is gpt() on those weights; softmax is microgpt's.
from given.train5 import make_weights, softmax, transformer

learning_rate, beta1, beta2, eps = 0.01, 0.85, 0.99, 1e-8  # microgpt's Adam (module 10)


def experiment(docs, n_layer=1, n_embd=16, num_steps=20, block_size=16, n_head=4, seed=42):
    """Train a fresh microgpt of this size on docs for num_steps steps, one document a step, in
    order (from the first again once they run out), and return what happened: a dict of 'losses'
    and 'rates' (each step's loss, a plain number, and its learning rate), 'vocab_size' and
    'params' (how many numbers it learns).

    Its random numbers come from its own seed, so the same settings give the same numbers: the
    documents are shuffled (a copy: the caller's list keeps its order), then the weights drawn,
    as in microgpt.py. Its tokens are the characters of these documents, plus BOS, as microgpt.py
    makes them. Each step scores every position of its document that has a next token, up to
    block_size of them, and moves the weights with microgpt's Adam, the learning rate falling to
    0 over the run."""
    # TODO


def matrix(rows, cols, std=0.08):
    """A matrix as its shape, how many rows and columns it has, as a pair: at scale its numbers
    live in one tensor on a GPU, not in Values."""
    # TODO


def shapes(vocab_size, n_layer, n_embd, block_size):
    """microgpt's weights for a model of this size, under the names microgpt.py gives them, each
    as its shape, made by matrix()."""
    # TODO


def count(weights):
    """How many numbers a model with these shapes learns."""
    # TODO


# name: (vocab_size, n_layer, n_embd, block_size)
MODELS = {
    'microgpt': (27, 1, 16, 16),
    'GPT-2 small': (50257, 12, 768, 1024),  # Radford et al. 2019: the smallest of four
    'GPT-3': (50257, 96, 12288, 2048),      # Brown et al. 2020, Table 2.1: the largest
}

if __name__ == "__main__":  # Run counts three models and trains two small ones; Check tries its own
    for model, config in MODELS.items():
        print(f"{model:12s} {count(shapes(*config)):>16,} numbers in microgpt's shapes")
    names = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    for label, settings in [('microgpt', {}), ('2 layers', {'n_layer': 2})]:
        result = experiment(names, num_steps=5, **settings)
        mean = sum(result['losses']) / len(result['losses'])
        print(f"{label:10s} {result['params']:6,} params | mean loss of 5 steps {mean:.3f}")
