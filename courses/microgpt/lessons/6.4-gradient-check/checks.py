"""Checks for lesson 6.4: gradient_check compares nudging with backprop and reports the worst gap.

The gradients it is given are worked out here by a separate backward pass (on the learner's
weights), and some are spoiled on purpose, so the check must find exactly how far off they are.
The first check swaps name_loss for test losses whose slopes are known exactly: then every
difference gradient_check reports comes from the nudge itself, which tells how big the nudge is.
The last compares gradient_check with ours on new names (one read only up to n) and on gradients
spoiled in other places, twice each, the token list looked at after each call.
"""
import contextlib
import io
import math

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    fail,
    number,
    replacing,
    shown,
)

FIX_NUDGE = "The first line: `worst, nudge = 0.0, 1e-5`."
FIX_WORST = "In place of the print: `worst = max(worst, abs(slope - grads[name][-1][k]))`."


def _zero(code):
    for mat in code.grads.values():
        for row in mat:
            for k in range(len(row)):
                row[k] = 0.0


def _name(code):
    doc = next((d for d in code.docs[:300] if len(d) == 3), code.docs[0])
    return doc, [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]


def _loss(code, tokens, n):
    w = code.weights
    total = 0.0
    for pos in range(n):
        x = w['wte'][tokens[pos]]
        h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
        logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total -= math.log(exps[tokens[pos + 1]] / sum(exps))
    return total / n


def _fill_grads(code, tokens, n):
    """Backprop for the whole name, written again here, straight into the learner's grads."""
    _zero(code)
    w, g = code.weights, code.grads
    for pos in range(n):
        token, target = tokens[pos], tokens[pos + 1]
        x = w['wte'][token]
        h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
        logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        dl = [(e / sum(exps) - (i == target)) / n for i, e in enumerate(exps)]
        dh = [0.0] * len(h)
        for i, d in enumerate(dl):
            for j, hj in enumerate(h):
                g['mlp_fc2'][i][j] += d * hj
                dh[j] += d * w['mlp_fc2'][i][j]
        for j, d in enumerate(dh):
            if h[j] > 0:
                for k, xk in enumerate(x):
                    g['mlp_fc1'][j][k] += d * xk
                    g['wte'][token][k] += d * w['mlp_fc1'][j][k]


def _snapshot(code):
    return {name: [row[:] for row in mat] for name, mat in code.weights.items()}


def _run(code, tokens, n, what):
    """Call the learner's gradient_check; insist on a number and on untouched weights."""
    saved = _snapshot(code)
    call = "gradient_check(tokens, n)"
    with calling(f"{call} {what}"):
        worst = code.gradient_check(tokens, n)
    for name, mat in code.weights.items():
        for i, row in enumerate(mat):
            for k, value in enumerate(row):
                if value != saved[name][i][k]:
                    old = saved[name][i][k]
                    row[k] = old
                    fail(f"After `{call}`, weights[{name!r}][{i}][{k}] was {number(value)} "
                         f"instead of {number(old)}. A check must leave the model exactly as it "
                         "found it: put each weight back with `row[k] = old`.")
    if isinstance(worst, bool) or not isinstance(worst, (int, float)):
        fail(f"`{call}` {what} returned {shown(worst)}, but it must return `worst`, the largest "
             "difference it found, as the starter's last line does.")
    return call, worst


def _probe(code, power):
    """Run gradient_check on the loss sum(w ** power) over the weights it nudges, with exact grads."""
    nudged = [(name, k) for name in code.weights for k in range(5)]

    def test_loss(tokens, n):
        return sum(code.weights[name][-1][k] ** power for name, k in nudged)

    _zero(code)
    for name, k in nudged:  # every row gets the slopes, so only the nudge can make a difference
        for row in code.grads[name]:
            row[k] = power * code.weights[name][-1][k] ** (power - 1)
    with replacing(code, "name_loss", test_loss):
        what = (f"with name_loss swapped for a test loss whose slopes are known exactly "
                f"(the sum of each nudged weight to the power {power})")
        return _run(code, [], 1, what)


@check("the nudge is tiny")
def _(code):
    call, flat = _probe(code, 2)
    if flat > 1e-8:
        fail(f"`{call}`, on a test loss that is the sum of each nudged weight squared, reported "
             f"a difference of {number(flat)}. For a square, nudging each way measures the slope "
             "exactly, so all of that is rounding: the nudge is so tiny that loss_up and "
             "loss_down differ only in their last digits.", fix=FIX_NUDGE)
    call, worst = _probe(code, 3)
    if worst <= 1e-8:
        return
    fail(f"`{call}`, on a test loss that is the sum of each nudged weight cubed, reported a "
         f"difference of {number(worst)}, although the gradients it was given were exactly "
         "right. For a cube, nudging each way by h is off by exactly h², so that difference comes "
         f"from the nudge itself: yours is about {number(round(math.sqrt(worst), 6))}. The loss "
         "curves, and a big nudge measures the average slope over a wide stretch instead of the "
         "slope at the weight.", fix=FIX_NUDGE)


@check("a wrong gradient is caught")
def _(code):
    doc, tokens = _name(code)
    n = len(tokens) - 1
    last = list(code.weights)[-1]
    first = list(code.weights)[0]
    cases = [((last, 2), +0.5), ((first, 1), -0.25)]
    found = []
    for (name, k), error in cases:
        _fill_grads(code, tokens, n)
        code.grads[name][-1][k] += error
        what = (f"for {doc!r} (right gradients, except grads[{name!r}][-1][{k}] made "
                f"{number(abs(error))} too {'big' if error > 0 else 'small'})")
        call, worst = _run(code, tokens, n, what)
        found.append((what, worst))
    (what_a, a), (what_b, b) = found
    if close(a, 0.5, rel=1e-5) and close(b, 0.25, rel=1e-5):
        return
    if a == 0 and b == 0:
        fail(f"`gradient_check(tokens, n)` {what_a} returned 0: `worst` never changes. For each "
             "weight, the slope nudging measured must be compared with the gradient backprop "
             "stored for it, and `worst` must keep the largest difference.", fix=FIX_WORST)
    if a < 1e-6 and close(b, 0.25, rel=1e-5):
        fail(f"`gradient_check(tokens, n)` {what_a} returned {number(a)}, not 0.5. There, "
             "slope - grad is -0.5: negative, so without abs() it never beats the 0.0 that "
             "`worst` starts at. A gradient too big is as wrong as one too small: the distance "
             "counts, whichever side it is on.", fix=FIX_WORST)
    if a < 1e-6 and b < 1e-6:
        fail(f"`gradient_check(tokens, n)` {what_a} returned {number(a)}, not 0.5, and "
             f"{what_b} it returned {number(b)}, not 0.25: only the last weight's difference "
             "survives. Each difference replaces the one before instead of being compared with "
             "the largest so far.", fix=FIX_WORST)
    fail(f"`gradient_check(tokens, n)` {what_a} returned {number(a)}, but the worst difference "
         f"between nudging and backprop there is 0.5; and {what_b} it returned "
         f"{number(b)}, not 0.25. Each slope must be compared with the gradient of the same "
         "weight (row -1, number k), and the largest distance kept.", fix=FIX_WORST)


@check("right gradients pass")
def _(code):
    doc, tokens = _name(code)
    n = len(tokens) - 1
    _fill_grads(code, tokens, n)
    call, worst = _run(code, tokens, n, f"for {doc!r}, with the right gradients")
    if worst < 1e-6:
        return (f"On right gradients for {doc!r}, the largest difference was {worst:.1e}: "
                "backprop and nudging agree.")
    seen = (f"`{call}` for {doc!r}, with the right gradients, reported a difference of "
            f"{number(worst)}; a check that flags right gradients is no use.")
    _fill_grads(code, tokens, n)
    for mat in code.grads.values():  # every row but the one the slopes belong to
        for row in mat[:-1]:
            row[:] = [value + 1000.0 for value in row]
    _, marked = _run(code, tokens, n, f"for {doc!r}, with every row of grads but the last made "
                     "1000 bigger")
    if marked > 1:
        rows = ", ".join(f"row {len(mat) - 1} of {name}" for name, mat in code.weights.items())
        fail(f"{seen} With every row of grads but the last made 1000 bigger, it reported "
             f"{number(marked)}: it compares the slopes with gradients from other rows. The "
             f"weights it nudges are in the last row of each matrix ({rows}), and each slope "
             "must be compared with the gradient of that very weight.", fix=FIX_WORST)
    _, cubed = _probe(code, 3)
    if cubed > 1e-8:
        fail(f"{seen} On a test loss whose slopes are known exactly it is off too: the nudge "
             "itself is too big, so each slope is an average over a wide stretch.",
             fix=FIX_NUDGE)
    fail(f"{seen} The nudge passes the test loss, so the difference comes from what each slope "
         "is compared with: the gradient backprop stored for the same weight, row -1, "
         "number k.", fix=FIX_WORST)


@check("it agrees with a check done here")
def _(code):
    doc, tokens = _name(code)
    n = len(tokens) - 1
    _fill_grads(code, tokens, n)
    spoiled = [('wte', 3, 0.0021), ('mlp_fc1', 0, -0.0134), ('mlp_fc2', 4, 0.0007)]
    names = list(code.weights)
    for name, k, error in spoiled:
        if name in code.grads:
            code.grads[name][-1][k] += error
    want = 0.0
    for name in names:
        row = code.weights[name][-1]
        for k in range(5):
            old = row[k]
            row[k] = old + 1e-5
            up = _loss(code, tokens, n)
            row[k] = old - 1e-5
            down = _loss(code, tokens, n)
            row[k] = old
            want = max(want, abs((up - down) / 2e-5 - code.grads[name][-1][k]))
    call, worst = _run(code, tokens, n, f"for {doc!r}, with three gradients slightly wrong")
    if not close(worst, want, rel=1e-4, abs_tol=1e-9):
        fail(f"With three gradients of {doc!r} made slightly wrong (by 0.0021, -0.0134 and "
             f"0.0007), `{call}` reported {number(worst)}, but nudging each of the 15 weights "
             f"here and comparing finds a worst difference of {number(want)}.")
    return (f"With three gradients spoiled by a little, your check and the one done here both "
            f"find a worst difference of {worst:.6f}.")


# --- gradient_check on new names and gradients spoiled elsewhere ---------------------------

def _checks(rng):
    """(letters as fractions of the vocabulary, n, spoil): short names, one read only up to n,
    and one gradient spoiled by a known amount, or none."""
    # Each case runs gradient_check four times (twice each, yours and ours), 30 passes of the
    # name each: few cases and short names keep the whole Check within the browser's 10 s (a
    # name longer than block_size costs a second here, and only name_loss, given, reads n).
    for length, n, spoil, note in ((3, None, None, "right gradients"),
                                   (2, None, ('wte', 0, -0.2), ""),
                                   (5, 3, ('mlp_fc1', 4, 0.05), "n = 3, fewer positions than "
                                    "the name has")):
        fractions = [rng.random() for _ in range(length)]
        n = n or length + 1
        what = ("right gradients" if spoil is None else
                f"grads[{spoil[0]!r}][-1][{spoil[1]}] off by {number(spoil[2])}")
        yield Case(f"the tokens of a {length}-letter name, n = {n}, {what}",
                   lambda space, f=fractions, n=n, spoil=spoil: (
                       [space.BOS] + [int(x * (space.vocab_size - 1)) for x in f] + [space.BOS],
                       n, spoil), note)


def _spoiled(space, args):
    """Backprop for the name with the file's own position_loss, one gradient spoiled, then
    gradient_check(tokens, n) (its print kept out of the output)."""
    tokens, n, spoil = args
    for mat in space.grads.values():
        for row in mat:
            row[:] = [0.0] * len(row)
    for pos in range(n):
        space.position_loss(tokens[pos], tokens[pos + 1], n)
    if spoil is not None:
        name, k, by = spoil
        space.grads[name][-1][k] += by
    with contextlib.redirect_stdout(io.StringIO()):
        return space.gradient_check(tokens, n)


def _near(got, want):
    """Right gradients leave only rounding (about 1e-11), which differs with how it is written."""
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return f"it is {shown(got)}, not a number"
    if not close(got, want, rel=1e-4, abs_tol=1e-8):
        return f"it is {number(got)} but should be {number(want)}"
    return ""


agrees("gradient_check", _checks, call=_spoiled, compare=_near, share=("weights",),
       name="gradient_check on new names, twice each")
