import random

# Finished for you in the course library: the tokenizer's chars, linear, the ReLU layer and the
# logits of mlp, and softmax. Lessons 5.3 to 5.5 and 12.2 have you write them, so they are not
# shown here.
from given.train1 import hidden_and_logits, linear, softmax, vocabulary

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
def mlp(token):
    # TODO (one line): x is the embedding of `token`: the n_embd numbers that wte holds for
    #       this token. Replace the placeholder below.
    x = [0.0] * n_embd
    h, logits = hidden_and_logits(x, weights)  # the ReLU layer, then one logit per next letter
    return x, h, logits


if __name__ == "__main__":  # Run shows this demo; Check tries your code on its own examples
    for letter in "emma":
        token = chars.index(letter)
        x, h, logits = mlp(token)
        probs = softmax(logits)
        print(f"{letter} (id {token}): x = {[round(v, 3) for v in x[:4]]} ... ({len(x)} numbers)")
        print(f"    next-letter probabilities from {min(probs):.4f} to {max(probs):.4f}")
