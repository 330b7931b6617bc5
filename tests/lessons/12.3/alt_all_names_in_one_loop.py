"""Lesson 12.3, the six names of a layer in one loop, each with its shape."""
# expect: pass


def matrix(rows, cols, std=0.08):
    """A matrix as its shape: at scale its numbers live in one tensor on a GPU, not in Values."""
    return (rows, cols)


def shapes(vocab_size, n_layer, n_embd, block_size):
    """microgpt's weights by name, each as (rows, cols), for a model of the given size."""
    weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
               'lm_head': matrix(vocab_size, n_embd)}
    for layer in range(n_layer):
        hidden = 4 * n_embd
        for name, shape in [('attn_wq', (n_embd, n_embd)), ('attn_wk', (n_embd, n_embd)),
                            ('attn_wv', (n_embd, n_embd)), ('attn_wo', (n_embd, n_embd)),
                            ('mlp_fc1', (hidden, n_embd)), ('mlp_fc2', (n_embd, hidden))]:
            weights['layer' + str(layer) + '.' + name] = matrix(*shape)
    return weights


def count(weights):
    """How many numbers the model learns: rows × cols, summed over its matrices."""
    return sum(rows * cols for rows, cols in weights.values())


# name: (vocab_size, n_layer, n_embd, block_size)
MODELS = {
    'microgpt': (27, 1, 16, 16),
    'GPT-2 small': (50257, 12, 768, 1024),  # Radford et al. 2019: the smallest of four
    'GPT-3': (50257, 96, 12288, 2048),      # Brown et al. 2020, Table 2.1: the largest
}

if __name__ == "__main__":
    for model, config in MODELS.items():
        print(f"{model:12s} {count(shapes(*config)):>16,} numbers in microgpt's shapes")
