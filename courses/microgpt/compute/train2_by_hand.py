"""train2, by hand: train1's model (one letter in, an MLP, 27 logits out) on plain floats, with
the gradients worked out by hand: the losses train2.py prints, in a second instead of minutes.

Lesson 8.7 compares train3 with it; tests/test_module_8.py checks its losses are train2.py's.
"""


_runs = {}


def train2_by_hand(*args, **kwargs):
    """The run for these settings, trained once per process: a lesson's Explore and its facts
    (which run in one process, one after the other) often need the same run. A copy each time, so
    a caller that changes what it got cannot change what the next one gets."""
    import copy
    key = repr((args, sorted(kwargs.items())))
    if key not in _runs:
        _runs[key] = _train2_by_hand(*args, **kwargs)
    return copy.deepcopy(_runs[key])


def _train2_by_hand(num_steps=1000, learning_rate=1.0):
    """train2 (train1's model: one letter in, an MLP, 27 logits out) on plain floats, with the
    gradients by hand: the losses train2.py prints, in a second."""
    import math as m
    import random as r
    r.seed(42)
    names = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    r.shuffle(names)
    letters = sorted(set(''.join(names)))
    end, d = len(letters), 16
    W = {name: [[r.gauss(0, 0.08) for _ in range(cols)] for _ in range(rows)]
         for name, rows, cols in (('wte', end + 1, d), ('mlp_fc1', 4 * d, d), ('mlp_fc2', end + 1, 4 * d))}
    losses = []
    for step in range(num_steps):
        tokens = [end] + [letters.index(ch) for ch in names[step % len(names)]] + [end]
        n = min(16, len(tokens) - 1)
        G = {name: [[0.0] * len(row) for row in rows] for name, rows in W.items()}
        loss = 0.0
        for pos in range(n):
            x = W['wte'][tokens[pos]]
            h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in W['mlp_fc1']]
            logits = [sum(a * b for a, b in zip(row, h)) for row in W['mlp_fc2']]
            top = max(logits)
            ex = [m.exp(v - top) for v in logits]
            probs = [e / sum(ex) for e in ex]
            loss -= m.log(probs[tokens[pos + 1]]) / n
            dl = [(p - (i == tokens[pos + 1])) / n for i, p in enumerate(probs)]
            dh = [0.0] * len(h)
            for i, g in enumerate(dl):
                for j, hj in enumerate(h):
                    G['mlp_fc2'][i][j] += g * hj
                    dh[j] += g * W['mlp_fc2'][i][j]
            for j, g in enumerate(dh):
                if h[j] > 0:
                    for k, xk in enumerate(x):
                        G['mlp_fc1'][j][k] += g * xk
                        G['wte'][tokens[pos]][k] += g * W['mlp_fc1'][j][k]
        losses.append(loss)
        lr = learning_rate * (1 - step / num_steps)
        for name in W:
            for row, grow in zip(W[name], G[name]):
                for k in range(len(row)):
                    row[k] -= lr * grow[k]
    return losses
