"""Checks for lesson 5.2: mlp(token) starts from x, the token's row of weights['wte'].

x is compared by value with the row, so a copy of the row (list(...), [:] or a comprehension
over the row) passes as well as the row itself. The third check works the rest of mlp() out by
hand from x, with plain loops, and compares every hidden number and logit; the last compares
mlp() with ours on weights of its own (other sizes, bigger numbers), twice each, the weights
looked at after each call.
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

FIX = "The line: `x = weights['wte'][token]`."


def _letter(code):
    """The checks' example letter: 'e', or, for a names file without it, one in the middle."""
    chars = list(code.chars)
    return 'e' if 'e' in chars else chars[len(chars) // 2]


def _name(code):
    """The checks' example name: 'emma', or four letters the names file does have."""
    chars = list(code.chars)
    return "emma" if all(ch in chars for ch in "emma") else "".join(chars[:4])


def _numbers(values):
    return "[" + ", ".join(number(v) for v in values[:4]) + (", ...]" if len(values) > 4 else "]")


def _x_of(code, token, label):
    """x as mlp(token) returns it, or fail saying what went wrong."""
    call = f"mlp({token})"
    try:
        with calling(call):
            out = code.mlp(token)
    except TypeError as error:
        if "indices must be integers" in str(error):
            fail(f"`{call}` (the token {label}) raised TypeError: {error}. A list is indexed by a "
                 "position number, and weights['wte'] has its rows in token-id order: the row of "
                 "a token is found by its id, the number mlp() is given, not by its letter.",
                 fix=FIX)
        raise
    except IndexError:
        if token >= code.n_embd:
            fail(f"`{call}` (the token {label}) raised IndexError: list index out of range. "
                 f"A row of weights['wte'] has only {code.n_embd} numbers, so `row[{token}]` does "
                 "not exist: your line reads a column. The token's embedding is its row.",
                 fix=FIX)
        raise
    if not isinstance(out, tuple) or len(out) != 3:
        fail(f"`{call}` returned {shown(out)}, but mlp() should return three things: x, h and "
             "the logits. Its last line was given: was it changed?")
    return out[0]


@check("x is the token's row of wte")
def _(code):
    wte = code.weights['wte']
    fc1 = code.weights['mlp_fc1']
    letter = _letter(code)
    token = code.chars.index(letter)
    x = _x_of(code, token, repr(letter))
    row = wte[token]
    shown_x = _numbers(x) if isinstance(x, list) else shown(x)
    seen = f"`mlp({token})` (the token {letter!r}) gave x = {shown_x}"
    if not isinstance(x, (list, tuple)):
        fail(f"{seen}, but x should be a list of numbers: row {token} of weights['wte'].")
    if list(x) == list(row):
        return
    if len(x) == len(wte) and list(x) == [r[token] for r in wte]:
        fail(f"{seen}: {len(x)} numbers, one from every row. That is column {token} of "
             f"weights['wte'], a mix of every token's numbers. The embedding of a token is its "
             f"row, {len(row)} numbers.", fix=FIX)
    if all(v == 0 for v in x):
        fail(f"{seen}: still the placeholder of zeros, the same for every letter. Replace it "
             "with the token's row of weights['wte'].")
    if list(x) == list(fc1[token]):
        fail(f"{seen}: that is row {token} of weights['mlp_fc1'], which also has {len(x)} "
             "numbers. The embeddings are in weights['wte'], one row per token.", fix=FIX)
    for shift in (-1, 1):
        if 0 <= token + shift < len(wte) and list(x) == list(wte[token + shift]):
            fail(f"{seen}: that is row {token + shift}, the row of the "
                 f"{'token before' if shift < 0 else 'token after'} {letter!r}. Ids count from 0 and "
                 f"row {token} belongs to id {token}: the id itself is the row's index.", fix=FIX)
    for other, other_row in enumerate(wte):
        if list(x) == list(other_row):
            fail(f"{seen}: that is row {other} of weights['wte'], but {letter!r} has the id {token}. "
                 "The row to take is the one of the token mlp() was given.", fix=FIX)
    fail(f"{seen}, but row {token} of weights['wte'] is {_numbers(row)}. x is that row.",
         fix=FIX)


@check("every token gets its own row")
def _(code):
    wte = code.weights['wte']
    labels = list(code.chars) + ['BOS']
    wrong = []
    for token in range(len(wte)):
        x = _x_of(code, token, repr(labels[token]) if token < len(code.chars) else "BOS")
        if not isinstance(x, (list, tuple)) or list(x) != list(wte[token]):
            wrong.append(token)
    if wrong:
        first = wrong[0]
        fail(f"x is not the token's row of weights['wte'] for {len(wrong)} of the "
             f"{len(wte)} tokens, starting with id {first} ({labels[first]}). Every token, "
             f"BOS (id {code.BOS}) included, looks up its own row, the row its id names.",
             fix=FIX)
    return f"All {len(wte)} tokens, BOS included, look up their own row of {len(wte[0])} numbers."


def _by_hand(x, w):
    out = []
    for row in w:
        total = 0.0
        for j in range(len(x)):
            total += row[j] * x[j]
        out.append(total)
    return out


@check("the hidden numbers and logits follow from x")
def _(code):
    weights = code.weights
    name = _name(code)
    tokens = [code.BOS] + [code.chars.index(ch) for ch in name]
    for token in tokens:
        with calling(f"mlp({token})"):
            x, h, logits = code.mlp(token)
        want_h = [max(0.0, a) for a in _by_hand(list(weights['wte'][token]), weights['mlp_fc1'])]
        want_logits = _by_hand(want_h, weights['mlp_fc2'])
        if len(h) != len(want_h) or not all(close(a, b, 1e-9, 1e-12) for a, b in zip(h, want_h)):
            fail(f"`mlp({token})` gave hidden numbers h that do not follow from the token's row "
                 "of weights['wte']. The lines after x were given: were they changed?")
        if len(logits) != len(want_logits) or not all(
                close(a, b, 1e-9, 1e-12) for a, b in zip(logits, want_logits)):
            fail(f"`mlp({token})` gave logits that do not follow from the token's row of "
                 "weights['wte']. The lines after x were given: were they changed?")
    return (f"For BOS and every letter of {name!r}, the {len(want_h)} hidden numbers and "
            f"{len(want_logits)} logits match a by-hand calculation from x.")


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
