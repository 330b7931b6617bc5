import random

# Finished for you, in the course's library (given/train4.py): code with lines you wrote that
# module 12 asks you for again: Value (module 7), characters() (lesson 1.4) and transformer(),
# train4's gpt() of lessons 8.1 to 9.4.
from given.train4 import Value, characters, transformer

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
head_dim = n_embd // n_head


def matrix(rows, cols, std=0.08):
    return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]


def make_weights():
    """Every matrix of the model, drawn in microgpt's order: wte, wpe and lm_head, then each
    layer's four attention matrices and its MLP's two."""
    weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
               'lm_head': matrix(vocab_size, n_embd)}
    # TODO (five lines): each layer's six matrices, drawn right after these three, one layer after
    #   another. First its four attention matrices, n_embd × n_embd each, in train3's order; then
    #   mlp_fc1, 4 * n_embd rows of n_embd numbers, and mlp_fc2, n_embd rows of 4 * n_embd. Each
    #   goes into weights under its layer's name: 'layer0.attn_wq', ..., 'layer0.mlp_fc2'.
    #   For now: no layer at all, so gpt() cannot run yet.
    return weights


weights = make_weights()
params = [p for mat in weights.values() for row in mat for p in row]
print(f"parameters: {len(params)}")


# --- the model: train4's gpt(), finished in the course's library, run on this file's weights ---
def gpt(token, pos, keys, values):
    return transformer(token, pos, keys, values, weights, n_layer, n_head)


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    for name, mat in weights.items():
        print(f"{name:16} {len(mat):3} rows × {len(mat[0]):3} = {len(mat) * len(mat[0]):5,}")
    print(f"{'together':16} {len(params):23,}")
    # How the count grows: the same function with other sizes (the draws themselves do not
    # matter here, only how many there are).
    for n_layer, n_embd in ((2, 16), (1, 32), (4, 64)):
        count = sum(len(row) for mat in make_weights().values() for row in mat)
        print(f"with n_layer = {n_layer} and n_embd = {n_embd}: {count:,} parameters")
