"""Checks for lesson 10.3: m and v, one running mean each per parameter, and the two lines that
fold each step's gradient, and its square, into them.

adam_step(step) works on the file's global `params`, `m` and `v`; most checks put small lists
of their own in their place while it runs (and put the file's back), with gradients and
starting means they choose, and read the means it left. The example's means do not start at
0, so that each slip (beta1 and beta2 swapped, the gradient not squared, the square of the mean,
the shares swapped, an old mean kept whole) leaves its own numbers. Then: the file run again on
a names file whose vocabulary is not a to z (so params has another length), two real steps of
microgpt against m and v worked out here from the very gradients backward() gave, and
adam_step against ours on new parameters, twice each.
"""

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    fail,
    number,
    plural,
    replacing,
    rerun,
    shown,
)

BETA1, BETA2 = 0.85, 0.99
BUFFERS_FIX = ("`m = [0.0] * len(params)  # running mean of each gradient`, then "
               "`v = [0.0] * len(params)  # running mean of each squared gradient`")
M_FIX = "`m[i] = beta1 * m[i] + (1 - beta1) * p.grad`"
V_FIX = "`v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2`"
# Names whose letters are not a to z (and only some of a to z): vocab_size is not 27 here, so
# params does not hold 4,192 numbers.
OTHER_NAMES = "zoë\nrené\nanne-marie\nbo\nlou\nmina\n"


def _probe(code, grads, step, m0, v0, betas=(BETA1, BETA2)):
    """adam_step(step) on new parameters (data 0, grads `grads`), with m and v starting at m0
    and v0, and the file's beta1 and beta2 set to `betas`: the means it leaves (copies)."""
    params = [code.Value(0.0) for _ in grads]
    for p, grad in zip(params, grads):
        p.grad = grad
    m, v = list(m0), list(v0)
    with replacing(code, "params", params), replacing(code, "m", m), replacing(code, "v", v), \
            replacing(code, "beta1", betas[0]), replacing(code, "beta2", betas[1]):
        with calling(f"adam_step({step})"):
            code.adam_step(step)
    return list(m), list(v)


def _same(got, want):
    return len(got) == len(want) and all(
        isinstance(g, (int, float)) and not isinstance(g, bool)
        and close(g, w, rel=1e-9, abs_tol=1e-15) for g, w in zip(got, want))


def _blend(beta, old, new):
    return [beta * a + (1 - beta) * b for a, b in zip(old, new)]


@check("m and v start at 0, one of each per parameter")
def _(code):
    count = len(code.params)
    m, v = code.m, code.v
    for name, value in (("m", m), ("v", v)):
        if isinstance(value, (int, float)):
            fail(f"{name} is the single number {number(value)}, but microgpt has {count:,} "
                 "parameters, and each needs running means of its own: a list with one number "
                 "per parameter.", fix=BUFFERS_FIX)
        if not isinstance(value, list):
            fail(f"{name} is {shown(value)}, but should be a list of {count:,} zeros, one per "
                 "parameter.", fix=BUFFERS_FIX)
        if len(value) != count:
            fail(f"{name} holds {len(value):,} numbers, but params holds {count:,} parameters: "
                 f"{name}[i] belongs to params[i], one for each.", fix=BUFFERS_FIX)
        if any(item != 0 for item in value):
            fail(f"{name} does not start at 0 everywhere (its first items are {shown(value)}): "
                 "before the first step there is nothing to average yet.", fix=BUFFERS_FIX)
    if m is v:
        fail("m and v are one and the same list: whatever v's line writes into v[i] lands in "
             "m[i] too, so the mean of the gradients is overwritten by the mean of their squares "
             "at every step. Make two lists.", fix=BUFFERS_FIX)


@check("a step folds the gradient into m and its square into v")
def _(code):
    grads, step = [2.0, -0.5], 3
    m0, v0 = [1.0, 0.0], [0.5, 1.0]
    m, v = _probe(code, grads, step, m0, v0)
    want_m, want_v = _blend(BETA1, m0, grads), _blend(BETA2, v0, [g * g for g in grads])
    seen = ("With m = [1, 0], v = [0.5, 1] and gradients [2, -0.5], adam_step should leave "
            f"m = {shown(want_m)} (0.85 × old + 0.15 × gradient) and v = {shown(want_v)} (0.99 × "
            f"old + 0.01 × gradient²). Yours left m = {shown(m)} and v = {shown(v)}")
    m_ok, v_ok = _same(m, want_m), _same(v, want_v)
    if m_ok and v_ok:
        _other_betas(code, grads, step, m0, v0)
        return
    if _same(m, _blend(BETA2, m0, grads)) and _same(v, _blend(BETA1, v0, [g * g for g in grads])):
        fail(f"{seen}: beta1 and beta2 are swapped. m, the mean of the gradients, forgets fast "
             "with beta1 = 0.85 (about the last 7 steps count); v, the mean of their squares, "
             "slowly with beta2 = 0.99 (about the last 100).", fix=f"{M_FIX} and {V_FIX}")
    if _same(m, m0) and _same(v, v0):
        fail(f"{seen}: neither m nor v changed. The new means have to be "
             "written into the file's lists, m[i] and v[i], where the next step finds them.",
             fix=f"{M_FIX} and {V_FIX}")
    if not m_ok:
        fail(f"{seen}: m is off. " + _m_slip(m, m0, grads), fix=M_FIX)
    fail(f"{seen}: v is off. " + _v_slip(v, v0, grads, m), fix=V_FIX)


def _other_betas(code, grads, step, m0, v0):
    """The same step with the file's beta1 set to 0.7 and beta2 to 0.9: both lines must follow."""
    betas = (0.7, 0.9)
    m, v = _probe(code, grads, step, m0, v0, betas)
    squares = [g * g for g in grads]
    want_m, want_v = _blend(betas[0], m0, grads), _blend(betas[1], v0, squares)
    if _same(m, want_m) and _same(v, want_v):
        return
    seen = ("With the file's beta1 set to 0.7 and beta2 to 0.9 for one call, from the same m, v "
            f"and gradients, adam_step should leave m = {shown(want_m)} (0.7 × old + 0.3 × "
            f"gradient) and v = {shown(want_v)} (0.9 × old + 0.1 × gradient²). Yours left m = "
            f"{shown(m)} and v = {shown(v)}")
    stuck, settings = [], []
    for name, got, old, new, beta, usual, setting in (
            ("m", m, m0, grads, betas[0], BETA1, "beta1"),
            ("v", v, v0, squares, betas[1], BETA2, "beta2")):
        if _same(got, _blend(beta, old, new)):
            continue
        settings.append(f"{setting} = {number(usual)}")
        if _same(got, _blend(usual, old, new)):
            stuck.append(f"{name} was blended with {number(usual)} and {number(1 - usual)} "
                         f"still, what {setting} = {number(usual)} gives")
        elif _same(got, [beta * a + (1 - usual) * b for a, b in zip(old, new)]):
            stuck.append(f"the old {name} kept {number(beta)}, but the new share stayed "
                         f"{number(1 - usual)}, where it is 1 - {setting} = {number(1 - beta)}")
        elif _same(got, [usual * a + (1 - beta) * b for a, b in zip(old, new)]):
            stuck.append(f"the new share of {name} was {number(1 - beta)}, but the old {name} "
                         f"kept {number(usual)} still, where it keeps {setting} = {number(beta)}")
    if stuck and len(stuck) == len(settings):
        fail(f"{seen}: {'; and '.join(stuck)}. Those numbers did not follow the settings, so a "
             f"file that changed them would still blend as with {' and '.join(settings)}.",
             fix=f"{M_FIX} and {V_FIX}")
    fail(f"{seen}.", fix=f"{M_FIX} and {V_FIX}")


def _m_slip(m, m0, grads):
    if _same(m, m0):
        return ("It did not change: the new mean has to be written into the file's list, m[i], "
                "where the next step finds it.")
    if _same(m, _blend(1 - BETA1, m0, grads)):
        return ("The shares are swapped: 0.15 of the old mean and 0.85 of the new gradient, so m "
                "follows each step's noise. beta1 is the share of the old mean that stays.")
    if _same(m, [BETA1 * a + g for a, g in zip(m0, grads)]):
        return ("The gradient went in whole, not its share 1 - beta1, so m would grow to about "
                "6.7 times the gradient.")
    if _same(m, _blend(BETA1, m0, [g * g for g in grads])):
        return ("m took in the square of the gradient: m is the mean of the gradient itself, "
                "sign included; the squares go into v.")
    return "m should be 0.85 × its old value + 0.15 × the gradient, for each parameter."


def _v_slip(v, v0, grads, m):
    squares = [g * g for g in grads]
    if _same(v, v0):
        return ("It did not change: the new mean has to be written into the file's list, v[i], "
                "where the next step finds it.")
    if _same(v, _blend(BETA2, v0, grads)):
        return ("v took in the gradient itself, not its square. v measures how big the "
                "gradients are, whatever their sign: it averages the squares, so that its root "
                "is a typical size.")
    if _same(v, _blend(BETA2, v0, [abs(g) for g in grads])):
        return ("v took in the gradient's absolute value, not its square: the update takes the "
                "root of v, so v has to be a mean of squares for that root to be a typical size.")
    if _same(v, _blend(BETA2, v0, [a * a for a in m])):
        return ("v took in the square of the new mean m, not of the gradient. A mean of squares "
                "is not the square of the mean: where the gradients swing around 0, m is small "
                "but the gradients are not, and v has to see them.")
    if _same(v, _blend(1 - BETA2, v0, squares)):
        return ("The shares are swapped: 0.01 of the old v and 0.99 of the new square. beta2 = "
                "0.99 is the share of the old v that stays.")
    if _same(v, [BETA2 * a + s for a, s in zip(v0, squares)]):
        return ("The square went in whole, not its share 1 - beta2, so v would grow to about "
                "100 times the squared gradient.")
    return "v should be 0.99 × its old value + 0.01 × the gradient squared, for each parameter."


@check("a gradient of 0 still counts")
def _(code):
    grads = [0.0, 3.0]
    m0, v0 = [1.0, 1.0], [4.0, 4.0]
    m, v = _probe(code, grads, 0, m0, v0)
    want_m, want_v = _blend(BETA1, m0, grads), _blend(BETA2, v0, [g * g for g in grads])
    if _same(m, want_m) and _same(v, want_v):
        return
    fix = f"{M_FIX} and {V_FIX}"
    if close(m[0], 1.0) or close(v[0], 4.0):
        fail(f"With m = [1, 1], v = [4, 4] and gradients [0, 3], adam_step should leave m[0] = "
             f"0.85 and v[0] = 3.96: a gradient of 0 pulls both means towards 0 like any other. "
             f"Yours left m[0] = {number(m[0])} and v[0] = {number(v[0])}. In microgpt most "
             "gradients are 0 at every step (the embedding rows of the letters a name does not "
             "have), so a skipped 0 would keep those parameters moving on old news.", fix=fix)
    fail(f"With m = [1, 1], v = [4, 4] and gradients [0, 3], adam_step should leave m = "
         f"{shown(want_m)} and v = {shown(want_v)}; yours left m = {shown(m)} and v = "
         f"{shown(v)}.", fix=fix)


@check("m and v fit params on another names file")
def _(code):
    files = {"input.txt": OTHER_NAMES}
    with calling("your file, run again on a names file with the letters ë, é and -"):
        theirs = rerun(code, files)
    count = len(theirs.params)
    for name in ("m", "v"):
        value = getattr(theirs, name)
        if not isinstance(value, list) or len(value) != count:
            size = f"{len(value):,} numbers" if isinstance(value, list) else shown(value)
            fail(f"Run again on a names file whose letters include ë, é and - (vocab_size "
                 f"{theirs.vocab_size}), your file makes {count:,} parameters but its {name} "
                 f"holds {size}. With the bundled names both are 4,192, but the count of "
                 f"parameters follows the data: make {name} as long as params, whatever that is.",
                 fix=BUFFERS_FIX)
    return f"On a names file with {theirs.vocab_size} tokens: {count:,} parameters, m and v as many."


NAMES = ["ava", "bo"]  # short names: a step of microgpt on them is quick


class _Kept:
    """Put the file's parameters, grads, m and v back as they were when the block ends."""

    def __init__(self, code):
        self.code = code

    def __enter__(self):
        self.data = [p.data for p in self.code.params]
        self.m, self.v = list(self.code.m), list(self.code.v)
        return self

    def __exit__(self, *error):
        for p, value in zip(self.code.params, self.data):
            p.data, p.grad = value, 0
        self.code.m[:], self.code.v[:] = self.m, self.v
        return False


@check("two real steps of microgpt give the m and v worked out here")
def _(code):
    seen = []
    original = code.adam_step

    def spy(step):
        seen.append([p.grad for p in code.params])  # the gradients backward() just gave
        return original(step)

    with _Kept(code), replacing(code, "docs", NAMES), replacing(code, "adam_step", spy):
        mean, square = [0.0] * len(code.params), [0.0] * len(code.params)
        for step in range(2):
            with calling(f"train_step({step}) on the name {NAMES[step]!r}"):
                code.train_step(step)
            grads = seen[-1]
            mean = _blend(BETA1, mean, grads)
            square = _blend(BETA2, square, [g * g for g in grads])
            wrong = [i for i in range(len(grads)) if not (
                close(code.m[i], mean[i], rel=1e-9, abs_tol=1e-15)
                and close(code.v[i], square[i], rel=1e-9, abs_tol=1e-15))]
            if wrong:
                i = wrong[0]
                fail(f"After train_step({step}) on {NAMES[step]!r}, {plural(len(wrong), 'parameter')} "
                     f"of {len(grads):,} have m or v off: the first, params[{i}], has m = "
                     f"{number(code.m[i])} and v = {number(code.v[i])}, where the gradients "
                     f"backward() gave make m = {number(mean[i])} and v = {number(square[i])}.",
                     fix=f"{M_FIX} and {V_FIX}")
        zeros = sum(1 for g in seen[0] if g == 0)
    return (f"Two steps, {NAMES[0]!r} then {NAMES[1]!r}: all {len(mean):,} means m and v as "
            f"worked out here ({zeros:,} gradients were exactly 0 at the first step).")


def _cases(rng):
    """New parameters, gradients (0, tiny, huge, negative), means that do not start at 0, and
    steps early and late; called twice, the second call folds the same gradients in again."""
    plans = [
        ([1.0, -4.0], [0.0, 0.0], [0.0, 0.0], 0, ""),
        ([0.0, 0.25, -3.0], [0.5, -1.0, 2.0], [0.1, 2.0, 0.3], 7, ""),
        ([0.0, 1e-9, -2e-6, 40.0, -0.5], [0.0] * 5, [0.0] * 5, 999, "gradients of 0, 1e-9 and 40"),
    ]
    grads = [round(rng.choice((-1, 1)) * 10 ** rng.uniform(-6, 3), 9) for _ in range(60)]
    means = [round(rng.uniform(-1, 1), 3) for _ in range(60)]
    squares = [round(rng.uniform(0, 2), 3) for _ in range(60)]
    plans.append((grads, means, squares, 42, "60 parameters, gradients from 1e-6 to 1e3"))
    for grads, m0, v0, step, note in plans:
        text = (f"step = {step} on {len(grads)} parameters with grads {_short(grads)}, m = "
                f"{_short(m0)}, v = {_short(v0)} (what it returns here: each parameter's data "
                "and grad, then m and v)")
        yield Case(text, lambda space, grads=grads, m0=m0, v0=v0, step=step: (
            [space.Value(0.5) for _ in grads], list(grads), list(m0), list(v0), step), note)


def _short(values):
    text = ", ".join(f"{v:g}" for v in values[:4])
    return f"[{text}{', ...' if len(values) > 4 else ''}]"


def _call(space, args):
    params, grads, m, v, step = args
    for p, grad in zip(params, grads):
        p.grad = grad
    with replacing(space, "params", params), replacing(space, "m", m), replacing(space, "v", v):
        space.adam_step(step)
    return [[p.data, p.grad] for p in params] + [list(m), list(v)]


agrees("adam_step", _cases, call=_call, name="adam_step on new parameters, twice each")
