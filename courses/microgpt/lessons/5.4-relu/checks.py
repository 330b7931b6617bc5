"""Checks for lesson 5.4: h is ReLU of linear(x, mlp_fc1), and the logits are linear(h, mlp_fc2).

Every expectation is worked out here with plain loops from the learner's own weights, and
compared with `close`, so `max(0, a)`, `a if a > 0 else 0.0` or a loop all pass. Wrong hidden
numbers are recognised by recomputing the classic mistakes: no ReLU, ReLU on x before linear,
min instead of max. The third check redoes the whole forward pass for every token; the last
compares mlp() with ours on weights of its own (other sizes, bigger numbers), twice each, the
weights looked at after each call.
"""
from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    differ,
    fail,
    number,
    plain,
    replacing,
    shown,
)

FIX_H = "The line: `h = [max(0.0, a) for a in linear(x, weights['mlp_fc1'])]`."
FIX_LOGITS = "The line: `return x, h, linear(h, weights['mlp_fc2'])`."


def _letter(code):
    """The checks' example letter: 'e', or, for a names file without it, one in the middle."""
    chars = list(code.chars)
    return 'e' if 'e' in chars else chars[len(chars) // 2]


def _dot(row, x):
    total = 0.0
    for j in range(min(len(row), len(x))):
        total += row[j] * x[j]
    return total


def _linear(x, w):
    return [_dot(row, x) for row in w]


def _relu(values):
    return [a if a > 0 else 0.0 for a in values]


def _same(got, want):
    return (isinstance(got, (list, tuple)) and len(got) == len(want)
            and all(isinstance(g, (int, float)) and not isinstance(g, bool)
                    and close(g, w, 1e-9, 1e-12) for g, w in zip(got, want)))


def _numbers(values):
    if not isinstance(values, (list, tuple)):
        return shown(values)
    inner = ", ".join(number(v) for v in values[:4])
    return f"[{inner}, ...]" if len(values) > 4 else f"[{inner}]"


def _run(code, token):
    call = f"mlp({token})"
    weights = code.weights
    before = {name: [list(row) for row in mat] for name, mat in weights.items()}
    with calling(call):
        out = code.mlp(token)
    for name, mat in weights.items():
        for i, (row, old) in enumerate(zip(mat, before[name])):
            if list(row) != old:
                k = next(k for k, (a, b) in enumerate(zip(row, old)) if a != b)
                changed = sum(1 for a, b in zip(row, old) if a != b)
                mat[i] = old  # put it back, so the other checks see the file's weights
                fail(f"`{call}` changed weights['{name}'][{i}] in place: {changed} of its "
                     f"numbers, the first at [{k}] from {number(old[k])} to {number(row[k])}. "
                     f"x is that very row, not a copy, so writing into x writes into the "
                     "model's weights, and every later call (and training) sees the damage. "
                     "mlp() only reads the weights: build new lists for what it computes.",
                     fix=FIX_H)
    if not isinstance(out, tuple) or len(out) != 3:
        fail(f"`{call}` returned {shown(out)}, but mlp() should return three things, in this "
             "order: x, h and the logits.")
    return out


@check("h is ReLU of linear(x, mlp_fc1)")
def _(code):
    weights = code.weights
    fc1 = weights['mlp_fc1']
    letter = _letter(code)
    token = code.chars.index(letter)
    x, h, _ = _run(code, token)
    x = list(weights['wte'][token])
    pre = _linear(x, fc1)
    want = _relu(pre)
    if _same(h, want):
        return
    negatives = sum(1 for a in pre if a < 0)
    seen = f"For `mlp({token})` (the letter {letter!r}), h starts {_numbers(h)}"
    if not isinstance(h, (list, tuple)):
        fail(f"{seen}, but h should be a list of {len(fc1)} numbers: linear(x, "
             "weights['mlp_fc1']) with every negative number made 0.0.")
    if len(h) != len(fc1):
        fail(f"{seen}: {len(h)} numbers, but h should have {len(fc1)}, one for each row of "
             f"weights['mlp_fc1'] ({len(fc1)} × {len(fc1[0])}). linear(x, weights['mlp_fc1']) "
             "makes them.")
    if all(a == 0 for a in h):
        fail(f"{seen}: every one of the {len(h)} numbers is 0, still the placeholder. h is "
             "what mlp_fc1 makes from x, each number passed through ReLU.")
    if _same(h, pre):
        fail(f"{seen}, with {negatives} negative numbers: linear's outputs, with no ReLU. "
             "Each one has to pass through ReLU, so that the negative ones become 0.0. Without "
             "it, mlp_fc1 and mlp_fc2 add up to one single matrix.", fix=FIX_H)
    if _same(h, _linear(_relu(x), fc1)):
        negative_h = sum(1 for a in h if a < 0)
        fail(f"{seen}: ReLU was applied to x before linear, so h still holds {negative_h} "
             "negative numbers, and the negative numbers of the embedding were thrown away. "
             "ReLU comes after linear, on each of the 64 numbers mlp_fc1 makes.", fix=FIX_H)
    if _same(h, [min(0.0, a) for a in pre]):
        fail(f"{seen}: every number is 0 or below: each is the smaller of 0 and a. ReLU keeps "
             "the positive numbers and makes the others 0: the larger of 0 and a.",
             fix="`max(0.0, a)`, not `min(0.0, a)`.")
    if _same(h, [abs(a) for a in pre]):
        fail(f"{seen}: the negative numbers were flipped to positive. ReLU does not flip them, "
             "it turns them into 0.", fix="`max(0.0, a)` for each a, not `abs(a)`.")
    fail(f"{seen}, but linear(x, weights['mlp_fc1']) passed through ReLU starts "
         f"{_numbers(want)}: each hidden number is ReLU of one output of linear.", fix=FIX_H)


@check("the logits are linear(h, mlp_fc2)")
def _(code):
    weights = code.weights
    fc2 = weights['mlp_fc2']
    letter = _letter(code)
    token = code.chars.index(letter)
    x, h, logits = _run(code, token)
    x = list(weights['wte'][token])
    h_right = _relu(_linear(x, weights['mlp_fc1']))
    want = _linear(h_right, fc2)
    if _same(logits, want):
        return
    seen = f"For `mlp({token})` (the letter {letter!r}), the logits start {_numbers(logits)}"
    if isinstance(logits, (list, tuple)) and len(logits) == len(fc2) and all(
            isinstance(v, (int, float)) and v == 0 for v in logits):
        fail(f"{seen}: all {len(logits)} are 0, still the placeholder. The logits are what "
             "mlp_fc2 makes from h, the third thing mlp() returns.", fix=FIX_LOGITS)
    if _same(logits, _linear(x, fc2)):
        fail(f"{seen}: they were made from x, not from h. A row of weights['mlp_fc2'] has "
             f"{len(fc2[0])} numbers and x only {len(x)}, so zip quietly stopped after "
             f"{len(x)} pairs and the hidden layer was skipped. The logits come from h.",
             fix=FIX_LOGITS)
    if isinstance(logits, (list, tuple)) and len(logits) != len(fc2):
        fail(f"{seen}: {len(logits)} numbers, but there must be {len(fc2)}, one score per "
             f"possible next token, one per row of weights['mlp_fc2'].", fix=FIX_LOGITS)
    fail(f"{seen}, but linear(h, weights['mlp_fc2']) starts {_numbers(want)}: the logits are "
         "made by mlp_fc2 from the hidden numbers h.", fix=FIX_LOGITS)


@check("the whole forward pass, by hand")
def _(code):
    weights = code.weights
    zeros = 0
    tokens = range(len(weights['wte']))
    for token in tokens:
        x, h, logits = _run(code, token)
        h_right = _relu(_linear(list(weights['wte'][token]), weights['mlp_fc1']))
        want_logits = _linear(h_right, weights['mlp_fc2'])
        for label, got, want in (("h", h, h_right), ("the logits", logits, want_logits)):
            if not _same(got, want):
                fail(f"For token {token}, `mlp({token})` gave {label} starting {_numbers(got)}, "
                     f"but the forward pass worked out with plain loops gives "
                     f"{_numbers(want)}: x = its row of wte, h = ReLU of linear(x, mlp_fc1), "
                     "logits = linear(h, mlp_fc2).")
        zeros += sum(1 for a in h_right if a == 0)
    width = len(weights['mlp_fc1'])
    return (f"All {len(tokens)} tokens match. ReLU sets {zeros / len(tokens):.1f} of the {width} "
            "hidden numbers to 0, on average, with the starting weights.")


# --- mlp() on weights of its own: other sizes and bigger numbers than the model has ---------

def _matrix(rng, rows, cols, scale):
    return [[round(rng.gauss(0, scale), 4) for _ in range(cols)] for _ in range(rows)]


def _models(rng):
    """A token and a model's weights: the real shapes with other numbers, then shapes and sizes
    of numbers the course's model never has (more tokens than the names give, other widths)."""
    for vocab, n_embd, hidden, scale, token, note in (
            (27, 16, 64, 0.08, 4, ""), (27, 16, 64, 0.08, 26, "the last row"),
            (40, 8, 100, 0.5, 35, "more tokens and hidden numbers than the course's model"),
            (5, 3, 12, 1.0, 2, "a smaller model"),
            (27, 16, 64, 30.0, 7, "weights in the tens, not around 0.08")):
        weights = {'wte': _matrix(rng, vocab, n_embd, scale),
                   'mlp_fc1': _matrix(rng, hidden, n_embd, scale),
                   'mlp_fc2': _matrix(rng, vocab, hidden, scale)}
        text = (f"token {token} and weights of new numbers: wte {vocab} × {n_embd}, "
                f"mlp_fc1 {hidden} × {n_embd}, mlp_fc2 {vocab} × {hidden}")
        yield Case(text, lambda space, token=token, weights=weights: (
            token, {name: [list(row) for row in mat] for name, mat in weights.items()}), note)


def _mlp_on(space, args):
    """mlp(token) with `weights` (and the sizes that go with it) in place of the file's own."""
    token, weights = args
    with replacing(space, "weights", weights), \
            replacing(space, "n_embd", len(weights['wte'][0])), \
            replacing(space, "vocab_size", len(weights['wte'])):
        return space.mlp(token)


def _three(got, want):
    """Where mlp's (x, h, logits) parts from ours, named by part."""
    if not isinstance(got, (list, tuple)) or len(got) != 3:
        return f"it returned {shown(plain(got))}, not the three things x, h and the logits"
    for label, mine, ours in zip(("x", "h", "the logits"), got, want):
        problem = differ(plain(mine), plain(ours))
        if problem:
            return f"{label}: {problem}"
    return ""


agrees("mlp", _models, call=_mlp_on, compare=_three, name="mlp on other weights, twice each")
