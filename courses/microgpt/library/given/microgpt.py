"""microgpt.py's parts, finished: lines that lesson 12.1 reads and lessons 12.2 and 12.3 ask you
to write again (the vocabulary, the pairs to score, the decaying learning rate, the weights of
each layer).

Nothing here runs when imported. make_weights() draws with the starter's own matrix(), in
microgpt.py's order, so the weights, losses and names come out exactly as microgpt.py prints them.
"""


def characters(docs):
    """Every character of the names, once each, sorted: its place is its id (lessons 1.4, 12.2)."""
    chars = sorted(set(''.join(docs)))
    return chars


def pairs_to_score(tokens, block_size):
    """n, how many pairs of a name are scored: one per token but the last, at most block_size
    (lessons 2.3, 12.2)."""
    n = min(block_size, len(tokens) - 1)
    return n


def decayed(learning_rate, step, num_steps):
    """The learning rate of step `step`: it falls in a straight line to zero at num_steps
    (lessons 6.5, 12.2)."""
    lr = learning_rate * (1 - step / num_steps)
    return lr


def make_weights(matrix, vocab_size, block_size, n_embd, n_layer):
    """microgpt's weights by name, drawn by matrix(rows, cols) in microgpt.py's order: the
    embeddings and the output head, then each layer's attention and MLP (lessons 9.4, 12.3)."""
    weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
               'lm_head': matrix(vocab_size, n_embd)}
    for layer in range(n_layer):
        for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
            weights[f'layer{layer}.{name}'] = matrix(n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 4 * n_embd)
    return weights
