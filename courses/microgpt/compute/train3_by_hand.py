"""train3, by hand: the same model, draws and steps as train3.py, on plain floats with the
gradients worked out by hand, so 1,000 steps take seconds instead of an hour of Values.

Lessons of module 8 compute their trained figures with it (`from train3_by_hand import ...` in
their `compute` and `facts`); tests/test_module_8.py checks that its losses are train3.py's.
Switches take one piece out: wpe, the division by sqrt(n_embd), the rmsnorms, the residual;
look='self' lets a position see only itself, look='all' the whole name.
"""


_runs = {}


def train3_by_hand(*args, **kwargs):
    """The run for these settings, trained once per process: a lesson's Explore and its facts
    (which run in one process, one after the other) often need the same run. A copy each time, so
    a caller that changes what it got cannot change what the next one gets."""
    import copy
    key = repr((args, sorted(kwargs.items())))
    if key not in _runs:
        _runs[key] = _train3_by_hand(*args, **kwargs)
    return copy.deepcopy(_runs[key])


def _train3_by_hand(num_steps=1000, learning_rate=0.3, wpe=True, divide=True, norm=True,
                   residual=True, look='past'):
    import math as m
    import random as r
    r.seed(42)
    names = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    r.shuffle(names)
    letters = sorted(set(''.join(names)))
    end, d = len(letters), 16
    W = {name: [[r.gauss(0, 0.08) for _ in range(d)] for _ in range(rows)]
         for name, rows in (('wte', end + 1), ('wpe', 16), ('lm_head', end + 1), ('attn_wq', d),
                            ('attn_wk', d), ('attn_wv', d), ('attn_wo', d))}
    if not wpe:
        W['wpe'] = [[0.0] * d for _ in range(16)]
    G = {name: [[0.0] * d for _ in rows] for name, rows in W.items()}
    settings = {'divide': divide, 'norm': norm, 'residual': residual, 'look': look}

    def back(dy, w, grad, x):  # adds the outer product dy x into grad; returns w^T dy
        dx = [0.0] * len(x)
        for dyi, row, grow in zip(dy, w, grad):
            for j in range(len(x)):
                grow[j] += dyi * x[j]
                dx[j] += dyi * row[j]
        return dx

    def norm_back(x, s, dy):
        if not norm:
            return dy
        c = s ** 3 * sum(a * b for a, b in zip(dy, x)) / len(x)
        return [s * a - c * b for a, b in zip(dy, x)]

    losses = []
    for step in range(num_steps):
        tokens = [end] + [letters.index(ch) for ch in names[step % len(names)]] + [end]
        n = min(16, len(tokens) - 1)
        f = forward_by_hand(W, tokens[:n], **settings)
        loss = 0.0
        for pos, p in enumerate(f):
            if p['probs'][tokens[pos + 1]] == 0.0:  # where train3.py's log() would fail
                raise ValueError(f"math domain error at step {step + 1}", losses)
            loss -= m.log(p['probs'][tokens[pos + 1]]) / n
            p['dq'], p['dk'], p['dv'] = [0.0] * d, [0.0] * d, [0.0] * d
        losses.append(loss)
        for pos, p in enumerate(f):
            dl = [pr / n for pr in p['probs']]
            dl[tokens[pos + 1]] -= 1 / n
            p['dz'] = back(dl, W['lm_head'], G['lm_head'], p['z'])
            do = back(p['dz'], W['attn_wo'], G['attn_wo'], p['o'])
            da = [sum(a * b for a, b in zip(do, f[j]['v'])) for j in p['seen']]
            mean = sum(a * g for a, g in zip(p['att'], da))
            for a, g, j in zip(p['att'], da, p['seen']):
                ds = a * (g - mean) / p['scale']
                for i in range(d):
                    f[j]['dv'][i] += a * do[i]
                    p['dq'][i] += ds * f[j]['k'][i]
                    f[j]['dk'][i] += ds * p['q'][i]
        for pos, p in enumerate(f):
            dxn = [a + b + c for a, b, c in zip(back(p['dq'], W['attn_wq'], G['attn_wq'], p['xn']),
                                                back(p['dk'], W['attn_wk'], G['attn_wk'], p['xn']),
                                                back(p['dv'], W['attn_wv'], G['attn_wv'], p['xn']))]
            dx0 = norm_back(p['x0'], p['s1'], dxn)
            if residual:
                dx0 = [a + b for a, b in zip(dx0, p['dz'])]
            de = norm_back(p['e'], p['s0'], dx0)
            for i in range(d):
                G['wte'][tokens[pos]][i] += de[i]
                G['wpe'][pos][i] += de[i] if wpe else 0.0
        lr = learning_rate * (1 - step / num_steps)
        for name in W:
            for row, grow in zip(W[name], G[name]):
                for i in range(d):
                    row[i] -= lr * grow[i]
                    grow[i] = 0.0
    return losses, W


def forward_by_hand(W, tokens, divide=True, norm=True, residual=True, look='past'):
    """train3's gpt() at every position of tokens on plain floats: what each position computed."""
    import math as m
    n, d = len(tokens), len(W['wte'][0])

    def lin(x, w):
        return [sum(a * b for a, b in zip(row, x)) for row in w]

    def rms(x):
        s = (sum(v * v for v in x) / len(x) + 1e-5) ** -0.5 if norm else 1.0
        return [v * s for v in x], s

    f = []
    for pos, token in enumerate(tokens):
        e = [a + b for a, b in zip(W['wte'][token], W['wpe'][pos])]
        x0, s0 = rms(e)
        xn, s1 = rms(x0)
        f.append({'e': e, 's0': s0, 'x0': x0, 's1': s1, 'xn': xn, 'q': lin(xn, W['attn_wq']),
                  'k': lin(xn, W['attn_wk']), 'v': lin(xn, W['attn_wv']),
                  'seen': {'past': range(pos + 1), 'self': range(pos, pos + 1), 'all': range(n)}[look],
                  'scale': d ** 0.5 if divide else 1.0})
    for p in f:
        p['scores'] = [sum(a * b for a, b in zip(p['q'], f[j]['k'])) / p['scale'] for j in p['seen']]
        top = max(p['scores'])
        ex = [m.exp(s - top) for s in p['scores']]
        p['att'] = [x / sum(ex) for x in ex]
        p['o'] = [sum(a * f[j]['v'][i] for a, j in zip(p['att'], p['seen'])) for i in range(d)]
        y = lin(p['o'], W['attn_wo'])
        p['z'] = [a + b for a, b in zip(y, p['x0'])] if residual else y
        logits = lin(p['z'], W['lm_head'])
        top = max(logits)
        ex = [m.exp(v - top) for v in logits]
        p['probs'] = [x / sum(ex) for x in ex]
    return f
