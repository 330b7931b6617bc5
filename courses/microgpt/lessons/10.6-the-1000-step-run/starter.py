"""train5: Adam -- the last step of the progression, and the finished program, microgpt.py.

Each parameter now gets its own step size from running averages of its gradient (m) and squared
gradient (v), with bias correction for the first steps and a learning rate that decays to zero.
Everything else is train4. The output is identical to microgpt.py's, byte for byte.
Run it next to a file called input.txt that holds one name per line.
"""
import random

# Finished for you, in the course's library (given/train5.py): name_of_step (lesson 11.4 has you
# write it), sample_name (11.1 to 11.3), and module 9's model with lines of earlier lessons that
# module 12 asks you for again (Value, characters, n_positions, make_weights, transformer,
# softmax).
from given.train5 import (Value, characters, make_weights, n_positions, name_of_step, sample_name,
                          softmax, transformer)

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

weights = make_weights(vocab_size, n_embd, block_size, n_layer)
params = [p for mat in weights.values() for row in mat for p in row]
print(f"parameters: {len(params)}")


# --- the model: train4's gpt(), finished in the course's library, run on this file's weights ---
def gpt(token, pos, keys, values):
    return transformer(token, pos, keys, values, weights, n_layer, n_head)


# --- training: one name per step, Adam with a learning rate that decays to zero ---
num_steps = 1000
# TODO (three lines): Adam's settings, all on one line: learning_rate 0.01, beta1 0.85,
#       beta2 0.99 and eps 1e-8; then m and v, the running means, one of each per
#       parameter, all starting at 0.0.


def adam_step(step):
    """Adam: every parameter moves against its gradient, by a step of its own size."""
    # TODO (one line): lr for this step, shrinking in a straight line from learning_rate.
    lr = 0.0
    for i, p in enumerate(params):
        # TODO (five lines): Adam for params[i]: fold p.grad into m[i] and its square into
        #       v[i]; correct both for their start at 0 into m_hat and v_hat; then move
        #       p.data against m_hat, as in lesson 10.5.
        p.grad = 0


def train_step(step):
    """One training step, on the name of step `step`: the loss, backward(), then Adam. Returns the
    loss (a Value)."""
    doc = name_of_step(docs, step)
    tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
    n = n_positions(tokens, block_size)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    losses = []
    for pos in range(n):
        probs = softmax(gpt(tokens[pos], pos, keys, values))
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    loss.backward()
    adam_step(step)
    return loss

if __name__ == "__main__":  # Run trains all num_steps steps, then samples; Check tries its own
    missing = [name for name in ("learning_rate", "beta1", "beta2", "eps", "m", "v")
               if name not in globals()]
    if missing:
        print(f"Not made yet: {', '.join(missing)}. Fill in the TODOs, then Run again.")
    else:
        for step in range(num_steps):
            loss = train_step(step)
            print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}")

        # --- sampling: let the model invent names, one letter at a time ---
        temperature = 0.5  # below 1 sharpens the distribution: safer, less wild names
        print("--- samples ---")
        for sample in range(20):
            name = sample_name(gpt, temperature, n_layer, block_size, chars)
            print(f"sample {sample + 1:2d}: {name}")
