"""Checks for lesson 10.2: m holds one running mean per parameter, and each step folds the
parameter's gradient into it, keeping beta1 of the old mean.

smoothed_step(lr) works on the file's global `params` and `m`; the checks put lists of their own
in their place while it runs (and put the file's back), then read the means it left. With
lr = 0 nothing moves, so m can be followed step after step on gradients the checks choose. The
example's mean starts at 2, not 0, so that every slip (the shares swapped, no 1 - beta1, the
square of the gradient, an old mean forgotten) leaves its own numbers. A gradient of exactly 0,
which the surface never has and microgpt has at every step, comes next; then a long run of
gradients against the weighted sum worked out here; then smoothed_step against ours on new
parameters, twice each.
"""
import random

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, replacing, shown

BETA1 = 0.85
M_FIX = "`m = [0.0] * len(params)  # running mean of each gradient`"
UPDATE_FIX = "`m[i] = beta1 * m[i] + (1 - beta1) * p.grad`"


def _fold(code, grads, start, lr=0.0, beta1=BETA1):
    """smoothed_step(lr) with parameters whose grads are `grads` and a mean starting at `start`:
    the means it leaves (a copy), and the parameters."""
    params = [code.Value(1.0) for _ in grads]
    for p, grad in zip(params, grads):
        p.grad = grad
    mean = list(start)
    with replacing(code, "params", params), replacing(code, "m", mean), \
            replacing(code, "beta1", beta1):
        with calling(f"smoothed_step({number(lr)})"):
            code.smoothed_step(lr)
    return list(mean), params


def _all_close(got, want):
    return len(got) == len(want) and all(
        isinstance(g, (int, float)) and not isinstance(g, bool) and close(g, w, rel=1e-9,
                                                                           abs_tol=1e-12)
        for g, w in zip(got, want))


@check("m starts at 0, one mean per parameter")
def _(code):
    m, params = code.m, code.params
    count = len(params)
    if isinstance(m, (int, float)):
        fail(f"m is the single number {number(m)}, but there are {count} parameters, and each "
             "needs a running mean of its own gradient: a list with one mean per parameter.",
             fix=M_FIX)
    if not isinstance(m, list):
        fail(f"m is {shown(m)}, but should be a list of {count} zeros, one per parameter.",
             fix=M_FIX)
    if len(m) != count:
        fail(f"m holds {len(m)} numbers, but params holds {count} parameters: there has to be one "
             "running mean per parameter, m[i] for params[i].", fix=M_FIX)
    if any(value != 0 for value in m):
        fail(f"m starts as {shown(m)}, but each mean has to start at 0: before the first step "
             "there is no gradient to average yet.", fix=M_FIX)


@check("a step folds each gradient into its mean")
def _(code):
    start, grads = [0.0, 2.0], [1.0, -4.0]
    got, _ = _fold(code, grads, start)
    want = [BETA1 * a + (1 - BETA1) * g for a, g in zip(start, grads)]
    if _all_close(got, want):
        _other_beta1(code, start, grads)
        return
    seen = ("With beta1 = 0.85, m = [0, 2] and gradients [1, -4], smoothed_step(0) should leave "
            "m = [0.15, 1.1]: 0.85 × 0 + 0.15 × 1, and 0.85 × 2 + 0.15 × (-4). "
            f"Yours left m = {shown(got)}")

    def leaves(values):
        return _all_close(got, values)

    if leaves(start):
        fail(f"{seen}: unchanged. The step has to write each new mean into the file's list, "
             "m[i], where the next step finds it; a name or list made inside smoothed_step is "
             "gone when it returns.", fix=UPDATE_FIX)
    if leaves([(1 - BETA1) * a + BETA1 * g for a, g in zip(start, grads)]):
        fail(f"{seen}: the shares are swapped. Yours keeps 0.15 of the old mean and takes 0.85 of "
             "the new gradient, so m follows each step's noise almost as it comes; beta1 = 0.85 "
             "is the share of the old mean that stays.", fix=UPDATE_FIX)
    if leaves([BETA1 * a + g for a, g in zip(start, grads)]):
        fail(f"{seen}: the new gradient is added whole, not its share 1 - beta1. Then the "
             "weights no longer add up to 1, and m grows to about 1 / 0.15 = 6.7 times the "
             "gradient instead of settling on it.", fix=UPDATE_FIX)
    if leaves([a + (1 - BETA1) * g for a, g in zip(start, grads)]):
        fail(f"{seen}: the old mean is kept whole, with the new share added on top, so m keeps "
             "growing and never forgets; only beta1 of the old mean should stay.", fix=UPDATE_FIX)
    if leaves([BETA1 * a + (1 - BETA1) * g * g for a, g in zip(start, grads)]):
        fail(f"{seen}: m took in the square of the gradient. m is the running mean of the "
             "gradient itself, sign included: it says which way to go (lesson 10.3 averages the "
             "squares, in a list of their own).", fix=UPDATE_FIX)
    shared = BETA1 * (BETA1 * start[0] + (1 - BETA1) * grads[0]) + (1 - BETA1) * grads[1]
    if leaves([shared, start[1]]):
        fail(f"{seen}: both gradients went into m[0], one after the other, and m[1] was never "
             "touched. Each parameter needs its own mean: params[i]'s gradient goes into m[i].",
             fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


def _other_beta1(code, start, grads):
    """The same fold with beta1 set to 0.6: the shares must follow beta1, not stay 0.85 and 0.15."""
    beta1 = 0.6
    got, _ = _fold(code, grads, start, beta1=beta1)
    if _all_close(got, [beta1 * a + (1 - beta1) * g for a, g in zip(start, grads)]):
        return
    seen = ("With the file's beta1 set to 0.6 for one call, m = [0, 2] and gradients [1, -4], "
            "smoothed_step(0) should leave m = [0.4, -0.4]: 0.6 × 0 + 0.4 × 1, and 0.6 × 2 + "
            f"0.4 × (-4). Yours left m = {shown(got)}")
    kept = ("so a change of beta1 never reaches the mean: Run's comparison of beta1 = 0 with "
            "0.85 would show the same walk twice.")
    if _all_close(got, [BETA1 * a + (1 - BETA1) * g for a, g in zip(start, grads)]):
        fail(f"{seen}, what beta1 = 0.85 gives: both shares stayed 0.85 and 0.15 when beta1 "
             f"changed, {kept}", fix=UPDATE_FIX)
    if _all_close(got, [beta1 * a + (1 - BETA1) * g for a, g in zip(start, grads)]):
        fail(f"{seen}: the old mean kept 0.6, but the new gradient's share stayed 0.15 when beta1 "
             "changed. It is 1 - beta1, what the old mean leaves, so the two shares always add "
             "up to 1.", fix=UPDATE_FIX)
    if _all_close(got, [BETA1 * a + (1 - beta1) * g for a, g in zip(start, grads)]):
        fail(f"{seen}: the new gradient took 0.4, but the old mean's share stayed 0.85 when beta1 "
             f"changed, {kept}", fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


@check("a gradient of 0 still counts")
def _(code):
    start, grads = [1.0, 1.0], [0.0, 2.0]
    got, _ = _fold(code, grads, start)
    want = [BETA1 * a + (1 - BETA1) * g for a, g in zip(start, grads)]
    if _all_close(got, want):
        return
    seen = ("With m = [1, 1] and gradients [0, 2], smoothed_step(0) should leave m = [0.85, 1.15]: "
            f"a gradient of 0 pulls its mean towards 0 like any other. Yours left m = {shown(got)}")
    if close(got[0], start[0]) and close(got[1], want[1]):
        fail(f"{seen}: the mean of the parameter whose gradient was 0 stayed at 1. On the surface "
             "no gradient is ever exactly 0, but in microgpt most are at every step (the letters "
             "a name does not have): skipped, their means would keep pushing them the way of "
             "names long gone.", fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


def _gradients(count):
    rng = random.Random(10)
    return [round(rng.gauss(0.5, 1.0), 3) for _ in range(count)]


@check("m is the weighted sum of all the gradients so far")
def _(code):
    grads = _gradients(30)
    mean = [0.0]
    params = [code.Value(1.0)]
    with replacing(code, "params", params), replacing(code, "m", mean), \
            replacing(code, "beta1", BETA1):
        for step, grad in enumerate(grads):
            params[0].grad = grad
            with calling(f"smoothed_step(0), step {step + 1} of 30"):
                code.smoothed_step(0.0)
    t = len(grads)
    # Worked out here in one go: gradient k (of t) keeps the weight (1 - beta1) * beta1 ** (t - 1 - k).
    want = sum((1 - BETA1) * BETA1 ** (t - 1 - k) * g for k, g in enumerate(grads))
    if not close(mean[0], want, rel=1e-9, abs_tol=1e-12):
        fail(f"After 30 steps of smoothed_step(0) on the gradients {shown(grads)}, m should be "
             f"{number(want)}: each gradient weighted by 0.15 × 0.85 to the power of its age. Yours "
             f"is {number(mean[0])}.", fix=UPDATE_FIX)
    return (f"After 30 noisy gradients around 0.5, m is {want:.4f}: the last one weighs 0.15, the "
            f"one before 0.1275, the first {(1 - BETA1) * BETA1 ** (t - 1):.4f}.")


def _cases(rng):
    """New parameters, gradients (0, tiny, huge, negative) and means that do not start at 0;
    called twice, the second call folds the same gradients in again, on the first one's m."""
    plans = [
        ([0.0, 0.0], [1.0, -4.0], 0.85, ""),
        ([0.5, -1.0, 2.0], [0.0, 0.25, -3.0], 0.9, ""),
        ([0.0] * 5, [0.0, 1e-9, -2e-6, 40.0, -0.5], 0.5, "gradients of 0, 1e-9 and 40"),
    ]
    means = [round(rng.uniform(-2, 2), 3) for _ in range(50)]
    grads = [round(rng.choice((-1, 1)) * 10 ** rng.uniform(-6, 3), 9) for _ in range(50)]
    plans.append((means, grads, 0.99, "50 parameters, gradients from 1e-6 to 1e3, beta1 = 0.99"))
    for start, grads, beta1, note in plans:
        text = (f"beta1 = {beta1} on {len(grads)} parameters, m = {_short(start)}, grads "
                f"{_short(grads)} (what it returns here: m afterwards)")
        yield Case(text, lambda space, start=start, grads=grads, beta1=beta1: (
            [space.Value(1.0) for _ in grads], list(grads), list(start), beta1), note)


def _short(values):
    text = ", ".join(f"{v:g}" for v in values[:4])
    return f"[{text}{', ...' if len(values) > 4 else ''}]"


def _call(space, args):
    params, grads, mean, beta1 = args
    for p, grad in zip(params, grads):
        p.grad = grad
    with replacing(space, "params", params), replacing(space, "m", mean), \
            replacing(space, "beta1", beta1):
        space.smoothed_step(0.0)
    return list(mean)


agrees("smoothed_step", _cases, call=_call, name="smoothed_step on new parameters, twice each")
