"""train5.py's training and sampling, finished: Adam (module 10) and the names (module 11).

The starters of modules 10 and 11 import from here the lines of train5.py that a later lesson
still has you write: Adam's settings and its lines (lessons 10.1 to 10.6), the name each
training step reads (11.4), and the sampling of a name (11.1 to 11.3); and lines that module 12
asks for again: the step of the update (again in 12.1), the learning rate's decay (again in
12.2) and the draw of a token (again in 12.1). The model itself is train4.py's, and comes from
given.train4 (imported here too, so that a file needs one import line).

Nothing here runs or draws when imported: the random numbers are drawn when a file calls a
function, in the order it calls them.
"""
import random

from given.train4 import (  # noqa: F401  (handed on to the files that import them from here)
    Value,
    characters,
    make_weights,
    n_positions,
    softmax,
    transformer,
)

# --- Adam ---
learning_rate, beta1, beta2, eps = 0.01, 0.85, 0.99, 1e-8  # lesson 10.6


def zeros(count):
    """`count` running means, all 0.0 before the first step (lessons 10.2 and 10.3)."""
    return [0.0] * count


def decayed_lr(learning_rate, step, num_steps):
    """The learning rate of step `step`: learning_rate at step 0, shrinking in a straight line
    towards 0 at step num_steps (lessons 6.5 and 10.5)."""
    return learning_rate * (1 - step / num_steps)


def running_means(m, v, grad, beta1, beta2):
    """A parameter's m and v after one more gradient: m keeps beta1 of itself and takes the rest
    from grad, v the same with beta2 and grad squared (lessons 10.2 and 10.3)."""
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad ** 2
    return m, v


def bias_corrected(m, v, step, beta1, beta2):
    """m_hat and v_hat: m and v divided by the weight they have gathered after step + 1 steps
    (lesson 10.4)."""
    m_hat = m / (1 - beta1 ** (step + 1))
    v_hat = v / (1 - beta2 ** (step + 1))
    return m_hat, v_hat


def adam_update(p, lr, m_hat, v_hat, eps):
    """Moves p.data against m_hat: lr times m_hat over the root of v_hat, with eps added to the
    root (lessons 10.1 and 10.5)."""
    p.data -= lr * m_hat / (v_hat ** 0.5 + eps)


# --- training ---
def name_of_step(docs, step):
    """The name training step `step` reads: docs in order, from the first again once they run
    out (lesson 11.4)."""
    return docs[step % len(docs)]


# --- sampling: let the model invent names, one letter at a time ---
def at_temperature(logits, temperature):
    """The next token's probabilities: the softmax of the logits, each divided by the
    temperature first (lesson 11.2)."""
    return softmax([logit / temperature for logit in logits])


def draw(probs):
    """One token id, drawn at random from all of them, each as likely as its probability
    (lesson 11.3)."""
    vocab_size = len(probs)
    return random.choices(range(vocab_size), weights=[p.data for p in probs])[0]


def drawn(next_probs, token, BOS, block_size):
    """The tokens of a name after `token`, one at a time: each drawn from next_probs(token, pos),
    the probabilities of the token that follows `token` at position pos, until BOS is drawn
    (BOS itself is not given) or block_size positions have been used (lesson 11.3)."""
    for pos in range(block_size):
        probs = next_probs(token, pos)
        token = draw(probs)
        if token == BOS:
            break
        yield token


def sample_name(gpt, temperature, n_layer, block_size, chars):
    """One new name from gpt(), drawn a letter at a time at this temperature until BOS or
    block_size letters (lessons 11.1 to 11.3)."""
    BOS = len(chars)
    keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    token, name = BOS, []
    for pos in range(block_size):
        probs = at_temperature(gpt(token, pos, keys, values), temperature)
        token = draw(probs)
        if token == BOS:
            break
        name.append(chars[token])
    return ''.join(name)
