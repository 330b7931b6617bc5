"""Lesson 12.3, mlp_fc2's 64 hidden units written as a number (mlp_fc1 is right): right at
n_embd 16 only."""
# expect: fail | GPT-2's size, counted two ways | layer0.mlp_fc2 is 768 × 64
"""From microgpt to ChatGPT: microgpt's weights as shapes, for a model of any size.

At scale a matrix is no longer a list of Values: it is one block of numbers (a tensor) on a GPU.
Its shape is all it takes to count what a model learns, so here matrix() returns (rows, cols).
"""


def matrix(rows, cols, std=0.08):
    """A matrix as its shape: at scale its numbers live in one tensor on a GPU, not in Values."""
    return (rows, cols)


def shapes(vocab_size, n_layer, n_embd, block_size):
    """microgpt's weights by name, each as (rows, cols), for a model of the given size."""
    weights = {'wte': matrix(vocab_size, n_embd), 'wpe': matrix(block_size, n_embd),
               'lm_head': matrix(vocab_size, n_embd)}
    for layer in range(n_layer):
        for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
            weights[f'layer{layer}.{name}'] = matrix(n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 64)
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
