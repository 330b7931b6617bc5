"""Lesson 5.1, wrong: the hidden width written as 64 by hand. Right for train1's model
# expect: fail | the shapes follow n_embd | 64 rows of 8
(4 * n_embd = 64), wrong for a model of any other width."""
import random

# Finished for you in the course library: the tokenizer's chars. Lesson 12.2 has you write its
# line again, so it is not shown here.
from given.train1 import vocabulary

random.seed(42)  # same seed, same shuffle, same weights, same names

# --- the data: one document (a name) per line ---
docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
random.shuffle(docs)
print(f"documents: {len(docs)}")

# --- the tokenizer: one id per character, plus BOS that marks both ends of a name ---
chars = vocabulary(docs)  # every character in the names, once each, sorted
BOS = len(chars)
vocab_size = len(chars) + 1
print(f"vocab size: {vocab_size}")

# --- the parameters: small random numbers, drawn in a fixed order ---
n_embd = 16      # width of every vector
block_size = 16  # longest context the model sees


def matrix(rows, cols, std=0.08):
    return [[random.gauss(0, std) for _ in range(cols)] for _ in range(rows)]


weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(64, n_embd),
           'mlp_fc2': matrix(vocab_size, 64)}


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("matrix(2, 3) =", matrix(2, 3))
    print(f"weights holds {len(weights)} matrices")
    for name, mat in weights.items():
        width = len(mat[0]) if mat else 0
        start = [round(v, 4) for v in mat[0][:4]] if mat else []
        print(f"  {name}: {len(mat)} rows of {width} numbers, row 0 starts {start}")
