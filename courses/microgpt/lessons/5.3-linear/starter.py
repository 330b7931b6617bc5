import random

# Finished for you in the course library: the tokenizer's chars, the ReLU layer and the logits of
# mlp, and softmax. Lessons 5.4, 5.5 and 12.2 have you write them, so they are not shown here.
from given.train1 import hidden_and_logits, softmax, vocabulary

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
    # TODO (one line): return a list with one number for each row of w. A row's number is
    #       the row times x, pair by pair (row[0] * x[0], row[1] * x[1], ...), added up.
    return [0.0] * len(w)


def mlp(token):
    x = weights['wte'][token]                                 # the letter's embedding row
    h, logits = hidden_and_logits(x, weights, linear)  # the ReLU layer and the logits, by your linear
    return x, h, logits


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    print("linear([1, 2], [[3, 4], [5, 6], [-1, 1]]) =", linear([1, 2], [[3, 4], [5, 6], [-1, 1]]))
    x, h, logits = mlp(chars.index('e'))
    print(f"e: x has {len(x)} numbers; mlp_fc1 makes {len(linear(x, weights['mlp_fc1']))} of them, "
          f"mlp_fc2 makes {len(logits)} logits")
    print(f"   the logits run from {min(logits):.4f} to {max(logits):.4f}")
