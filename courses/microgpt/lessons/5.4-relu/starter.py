import random

# Finished for you in the course library: the tokenizer's chars and softmax. Lessons 5.5 and 12.2
# have you write them, so they are not shown here.
from given.train1 import softmax, vocabulary

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


weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, n_embd),
           'mlp_fc2': matrix(vocab_size, 4 * n_embd)}


# --- the model's building blocks ---
def linear(x, w):
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def mlp(token):
    x = weights['wte'][token]                                 # the letter's embedding row
    # TODO (one line): h, the hidden layer: what mlp_fc1 makes from x, each number passed
    #       through ReLU. Replace the placeholder.
    h = [0.0] * (4 * n_embd)
    # TODO (one line): return x, h and the logits, one score per next letter, which mlp_fc2
    #       makes from h. Replace the placeholder list.
    return x, h, [0.0] * vocab_size


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    for letter in "ae":
        x, h, logits = mlp(chars.index(letter))
        zeros = sum(1 for a in h if a == 0)
        print(f"{letter}: {zeros} of the {len(h)} hidden numbers are 0 after ReLU")
        print(f"   {len(logits)} logits, from {min(logits):.4f} to {max(logits):.4f}")
