"""Checks for lesson 6.1: name_loss, and one weight's slope measured by nudging it.

The expectations are worked out here, independently: the model's forward pass is written again
below (it reads the learner's weights), and the names come from the learner's own data, so any
names file works. Every check puts the weights back exactly as it found them. The last two
compare name_loss and nudge_slope with ours on new token lists (names longer than block_size
among them, read only up to n), each called twice, the token list looked at after each call.
"""
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, shown

FIX_LOSSES = ("The lines: `losses = [-math.log(softmax(mlp(tokens[pos])[2])[tokens[pos + 1]]) "
              "for pos in range(n)]` and `return (1 / n) * sum(losses)`.")
FIX_NUDGE = ("The lines: `row[k] = old + nudge`, `loss_up = name_loss(tokens, n)`, "
             "`row[k] = old - nudge`, `loss_down = name_loss(tokens, n)`, `row[k] = old`, "
             "`slope = (loss_up - loss_down) / (2 * nudge)`.")
FIX_BACK = "After measuring both losses: `row[k] = old`."
FIX_SLOPE = "`slope = (loss_up - loss_down) / (2 * nudge)`."

# --- the model's forward pass, written again, on the learner's weights ----------------------

def _logits(code, token):
    weights = code.weights
    x = weights['wte'][token]
    h = [max(0.0, sum(w * v for w, v in zip(row, x))) for row in weights['mlp_fc1']]
    return [sum(w * v for w, v in zip(row, h)) for row in weights['mlp_fc2']]


def _probs(logits):
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    return [e / sum(exps) for e in exps]


def _losses(code, tokens, n, shift=1):
    """-log p(tokens[pos + shift]) for each of the first n positions."""
    return [-math.log(_probs(_logits(code, tokens[pos]))[tokens[pos + shift]]) for pos in range(n)]


def _mean_loss(code, tokens, n):
    return sum(_losses(code, tokens, n)) / n


def _tokens(code, doc):
    return [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]


def _short_names(code, count):
    """A few short names from the learner's own data: quick to run, and any names file works."""
    names = [doc for doc in code.docs[:300] if 3 <= len(doc) <= 6][:count]
    return names if len(names) == count else code.docs[:count]


def _snapshot(code):
    return {name: [row[:] for row in mat] for name, mat in code.weights.items()}


def _restore(code, saved):
    for name, mat in code.weights.items():
        for row, old in zip(mat, saved[name]):
            row[:] = old


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _decimal(x):
    """0.00001 rather than 1e-05: how a nudge is written in the lesson."""
    return format(x, "f").rstrip("0").rstrip(".")


def _weight(name, i, k):
    return f"weights[{name!r}][{i}][{k}]"


# --- the checks ------------------------------------------------------------------------------

@check("name_loss is the mean of -log p")
def _(code):
    first, second = _short_names(code, 2)
    cases = [(first, None), (second, None), (second, 2)]  # the last one stops after 2 positions
    for doc, n in cases:
        tokens = _tokens(code, doc)
        full = len(tokens) - 1
        n = n or full
        call = f"name_loss(tokens, {n})"
        where = (f"for the name {doc!r} (tokens {shown(tokens)})"
                 + (f", asking for its first {n} positions only" if n < full else ""))
        losses = _losses(code, tokens, n)
        want = sum(losses) / n
        given = list(tokens)
        with calling(call):
            got = code.name_loss(tokens, n)
        if tokens != given:
            fail(f"`{call}` {where} changed the list of tokens it was given: afterwards it was "
                 f"{shown(tokens)}. name_loss only reads the tokens: the caller needs them as "
                 "they were (nudge_slope measures the same name again and again, and training "
                 "goes on with it).", fix=FIX_LOSSES)
        if _is_number(got) and close(got, want):
            with calling(f"{call}, a second time"):
                again = code.name_loss(list(given), n)
            if _is_number(again) and close(again, want):
                continue
            fail(f"Called once, `{call}` {where} returned the right loss, {number(got)}. Called a "
                 f"second time on the same tokens, it returned {shown(again)}. Something of your "
                 "name_loss lives on from one call to the next, so every later loss (and every "
                 "slope measured with it) is wrong. The losses of one call must be collected "
                 "afresh inside name_loss, on every call.", fix=FIX_LOSSES)
        seen = f"`{call}` {where} returned {shown(got)}, but the mean of -log p over "
        seen += f"{'those' if n < full else 'its'} {n} positions is {number(want)}."
        if not _is_number(got):
            fail(f"{seen} name_loss must return one number: the mean loss.")
        if got == 0:
            fail(f"{seen} It still returns 0.0, the starter's placeholder: `losses` holds one "
                 "-log p per position, and the loss of the name is their mean.", fix=FIX_LOSSES)
        if close(got, sum(losses)):
            fail(f"{seen} It returned the sum of the {n} losses, not their mean. The loss of a "
                 "name is the average surprise per letter, so a long name does not count more "
                 "than a short one.", fix="`return (1 / n) * sum(losses)`.")
        if close(got, -want):
            fail(f"{seen} It has the wrong sign: a probability is below 1, so log p is negative "
                 "and the loss, -log p, is positive.", fix="A minus in front: `-math.log(...)`.")
        if close(got, sum(_losses(code, tokens, n, shift=0)) / n):
            fail(f"{seen} It scores each position on the token it reads, tokens[pos], instead of "
                 "the next one. The target of position pos is the token after it.",
                 fix="Pick the probability of `tokens[pos + 1]`.")
        if n < full and close(got, _mean_loss(code, tokens, full)):
            fail(f"{seen} It averaged all {full} positions of the name, but n asks for the "
                 "first n only: a name longer than block_size is trained on its first "
                 "block_size positions.", fix="Loop over `range(n)`, not over the whole name.")
        fail(f"{seen} For each of the first n positions: the logits the model makes for the "
             "token read, turned into probabilities by softmax; -log of the probability of the "
             "next token; then the mean of the n numbers.", fix=FIX_LOSSES)


@check("nudge_slope puts the weight back")
def _(code):
    doc = _short_names(code, 1)[0]
    tokens = _tokens(code, doc)
    n = len(tokens) - 1
    for name, i, k in (('wte', code.BOS, 0), ('mlp_fc2', code.BOS, 3)):
        saved = _snapshot(code)
        call = f"nudge_slope({name!r}, {i}, {k}, tokens, {n})"
        try:
            with calling(f"{call} for the name {doc!r}"):
                code.nudge_slope(name, i, k, tokens, n)
            moved = [(m, r, c) for m, mat in code.weights.items()
                     for r, row in enumerate(mat) for c, value in enumerate(row)
                     if value != saved[m][r][c]]
            if not moved:
                continue
            m, r, c = moved[0]
            old, now = saved[m][r][c], code.weights[m][r][c]
        finally:
            _restore(code, saved)
        seen = (f"After `{call}`, {_weight(m, r, c)} was {number(now)} instead of "
                f"{number(old)}:")
        if (m, r, c) == (name, i, k) and close(now - old, -1e-5, rel=1e-3, abs_tol=1e-12):
            fail(f"{seen} it was left nudged down. Once both losses are measured, the weight "
                 "must go back to its old value; otherwise every later slope is measured at a "
                 "model that was quietly changed.", fix=FIX_BACK)
        if (m, r, c) == (name, i, k):
            fail(f"{seen} the weight was not put back: after measuring, the model must be exactly "
                 "as it was.", fix=FIX_BACK)
        fail(f"{seen} a weight other than the one nudged changed. nudge_slope must move only "
             f"{_weight(name, i, k)}, and put it back.")


@check("nudge_slope measures the central slope")
def _(code):
    doc = _short_names(code, 1)[0]
    tokens = _tokens(code, doc)
    n = len(tokens) - 1
    cases = [('wte', code.BOS, 1, 1e-5), ('mlp_fc2', tokens[1], 2, 1e-5), ('wte', code.BOS, 1, 0.5)]
    for name, i, k, nudge in cases:
        row = code.weights[name][i]
        old = row[k]
        saved = _snapshot(code)
        call = f"nudge_slope({name!r}, {i}, {k}, tokens, {n}, nudge={_decimal(nudge)})"
        try:
            with calling(f"{call} for the name {doc!r}"):
                got = code.nudge_slope(name, i, k, tokens, n, nudge=nudge)
            _restore(code, saved)
            base = _mean_loss(code, tokens, n)
            row[k] = old + nudge
            up = _mean_loss(code, tokens, n)
            row[k] = old - nudge
            down = _mean_loss(code, tokens, n)
        finally:
            _restore(code, saved)
        want = (up - down) / (2 * nudge)
        if _is_number(got) and close(got, want, rel=1e-6, abs_tol=1e-9):
            continue
        seen = (f"`{call}` for the name {doc!r} returned {shown(got)}, but (loss_up - loss_down) "
                f"/ (2 * nudge) is {number(want)}.")
        if not _is_number(got):
            fail(f"{seen} nudge_slope must return the slope, one number.")
        if got == 0:
            fail(f"{seen} It returned 0, the starter's placeholder: the slope comes from the two "
                 "losses measured with the weight moved up and down.", fix=FIX_NUDGE)
        if close(got, 2 * want, rel=1e-6, abs_tol=1e-9):
            fail(f"{seen} That is twice the slope: the two losses were measured 2 * nudge apart "
                 "(from old - nudge to old + nudge), and the difference was divided by nudge "
                 "alone.", fix=FIX_SLOPE)
        if close(got, -want, rel=1e-6, abs_tol=1e-9):
            fail(f"{seen} The sign is flipped: the losses were subtracted the other way round "
                 "from the weights, which went from old - nudge up to old + nudge.",
                 fix=FIX_SLOPE)
        if (close(got, (up - base) / nudge, rel=1e-6, abs_tol=1e-9)
                or close(got, (base - down) / nudge, rel=1e-6, abs_tol=1e-9)):
            fail(f"{seen} That is the slope measured on one side only, against the loss at the "
                 "weight itself. A one-sided slope leans towards the side it looked at, and with "
                 "a nudge of 0.5 that shows: the central slope measures loss_up (at old + nudge) "
                 "and loss_down (at old - nudge), 2 * nudge apart.", fix=FIX_NUDGE)
        fail(f"{seen} The slope is the rise of the loss between old - nudge and old + nudge, "
             "over that distance.", fix=FIX_NUDGE)


@check("the slopes point downhill")
def _(code):
    doc = _short_names(code, 2)[1]
    tokens = _tokens(code, doc)
    n = len(tokens) - 1
    unused = next((ch for ch in code.chars if ch not in doc), None)
    picked = [('wte', code.BOS, 0), ('wte', code.BOS, 1), ('wte', tokens[1], 2),
              ('mlp_fc1', 0, 0), ('mlp_fc2', tokens[1], 0), ('mlp_fc2', code.BOS, 1)]
    saved = _snapshot(code)
    try:
        slopes = []
        for name, i, k in picked:
            with calling(f"nudge_slope({name!r}, {i}, {k}, tokens, {n}) for the name {doc!r}"):
                slopes.append(code.nudge_slope(name, i, k, tokens, n))
        if unused is not None:
            i = code.chars.index(unused)
            with calling(f"nudge_slope('wte', {i}, 0, tokens, {n}) for the name {doc!r}"):
                zero = code.nudge_slope('wte', i, 0, tokens, n)
            if not (_is_number(zero) and abs(zero) < 1e-9):
                fail(f"The name {doc!r} never uses the letter {unused!r}, so nudging a weight "
                     f"of its embedding row cannot change the loss: the slope must be 0, but "
                     f"nudge_slope('wte', {i}, 0, ...) returned {shown(zero)}.")
        _restore(code, saved)
        if not all(_is_number(slope) for slope in slopes) or not any(slopes):
            fail(f"nudge_slope returned {shown(slopes)} for {len(picked)} weights the name "
                 f"{doc!r} uses: with no slope, there is no downhill to follow. Make it return "
                 "the slope measured by nudging (see the check above).")
        before = _mean_loss(code, tokens, n)
        step = 0.1
        for (name, i, k), slope in zip(picked, slopes):
            code.weights[name][i][k] -= step * slope
        after = _mean_loss(code, tokens, n)
    finally:
        _restore(code, saved)
    expected = step * sum(slope * slope for slope in slopes)
    if not (after < before and close(before - after, expected, rel=0.05, abs_tol=0.0)):
        fail(f"Moving {len(picked)} weights each by -0.1 times its slope should lower the loss "
             f"of {doc!r} by about 0.1 times the sum of the squared slopes, "
             f"{number(expected)}; but it went from {number(before)} to {number(after)}. "
             "A slope says how fast the loss rises as the weight rises, so stepping against it "
             "goes downhill.")
    return (f"Stepping {len(picked)} weights against their slopes lowered the loss of {doc!r} "
            f"from {before:.8f} to {after:.8f}, as the slopes predicted.")


# --- name_loss and nudge_slope on new names ------------------------------------------------

def _names(rng):
    """(length, n, ids as fractions of the vocabulary): ordinary names, then names longer than
    block_size read only up to n = 16, and n smaller than the name."""
    for length, n, note in ((4, None, ""), (1, None, "a one-letter name"), (9, None, ""),
                            (20, 16, "a 20-letter name, longer than block_size"),
                            (30, 16, "a 30-letter name, read up to n = 16"),
                            (12, 5, "n = 5, fewer positions than the name has")):
        yield length, n, [rng.random() for _ in range(length)], note


def _tokens_of(space, fractions):
    ids = [int(f * (space.vocab_size - 1)) for f in fractions]  # letters, never BOS
    return [space.BOS] + ids + [space.BOS]


def _loss_cases(rng):
    for length, n, fractions, note in _names(rng):
        n = n or length + 1
        yield Case(f"the tokens of a {length}-letter name, {n}", lambda space, f=fractions, n=n: (
            _tokens_of(space, f), n), note)


def _slope_cases(rng):
    spots = (('wte', -1, 0, 1e-5), ('mlp_fc1', 5, 3, 1e-5), ('mlp_fc2', 0, 7, 1e-5),
             ('mlp_fc2', -1, 2, 0.1), ('wte', -1, 1, 1e-5), ('mlp_fc1', 63, 15, 1e-5))
    for (length, n, fractions, note), (name, i, k, nudge) in zip(_names(rng), spots):
        n = n or length + 1
        where = "BOS" if i == -1 else i
        yield Case(f"{name!r}, {where}, {k}, the tokens of a {length}-letter name, {n}, "
                   f"nudge={_decimal(nudge)}",
                   lambda space, f=fractions, n=n, name=name, i=i, k=k, nudge=nudge: (
                       name, space.BOS if i == -1 else i, k, _tokens_of(space, f), n, nudge),
                   note)


def _near(got, want):
    """Slopes measured by nudging differ in their last digits with the order of the steps."""
    if not _is_number(got):
        return f"it is {shown(got)}, not a number"
    if not close(got, want, rel=1e-6, abs_tol=1e-9):
        return f"it is {number(got)} but should be {number(want)}"
    return ""


agrees("name_loss", _loss_cases, compare=_near, share=("weights",))
agrees("nudge_slope", _slope_cases, compare=_near, share=("weights",))
