"""Checks for lesson 10.6: all of Adam written again, settings, buffers and update, so that the
file trains exactly as microgpt.py does.

The settings are read from the file; m and v are also made on a names file of our own, whose
vocabulary is not a to z. adam_step(step) works on the global `params`, `m` and `v`: the checks
put small lists of their own in their place while it runs (and put the file's back), and read
what it leaves. Each slip met in lessons 10.2 to 10.5 leaves its own numbers at step 0 or step
9 and is told with the lesson that covers it. The last checks train three steps of microgpt
beside ours, both on the same short names from the same starting weights, and compare
adam_step with ours on new parameters, twice each.
"""
from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    fail,
    number,
    reference,
    replacing,
    rerun,
    shown,
)

SETTINGS = {"learning_rate": 0.01, "beta1": 0.85, "beta2": 0.99, "eps": 1e-8}
BETA1, BETA2, EPS = 0.85, 0.99, 1e-8
SETTINGS_FIX = "`learning_rate, beta1, beta2, eps = 0.01, 0.85, 0.99, 1e-8`"
BUFFERS_FIX = ("`m = [0.0] * len(params)  # running mean of each gradient`, then "
               "`v = [0.0] * len(params)  # running mean of each squared gradient`")
LR_FIX = "`lr = learning_rate * (1 - step / num_steps)`"
HATS_FIX = ("`m_hat = m[i] / (1 - beta1 ** (step + 1))`, then "
            "`v_hat = v[i] / (1 - beta2 ** (step + 1))`")
STEP_FIX = "`p.data -= lr * m_hat / (v_hat ** 0.5 + eps)`"
MEANS_FIX = ("`m[i] = beta1 * m[i] + (1 - beta1) * p.grad`, then "
             "`v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2`")
UPDATE_FIX = ("`m[i] = beta1 * m[i] + (1 - beta1) * p.grad`, "
              "`v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2`, "
              "`m_hat = m[i] / (1 - beta1 ** (step + 1))`, "
              "`v_hat = v[i] / (1 - beta2 ** (step + 1))`, "
              "`p.data -= lr * m_hat / (v_hat ** 0.5 + eps)`")
OTHER_NAMES = "zoë\nrené\nanne-marie\nbo\nlou\nmina\n"


def _plain(x):
    """A small number written out, as a beginner reads it: 0.00001 rather than 1e-05."""
    return f"{x:.12f}".rstrip("0").rstrip(".") if 0 < abs(x) < 1e-3 else number(x)


@check("microgpt's Adam settings")
def _(code):
    got = {name: getattr(code, name) for name in SETTINGS}
    if all(isinstance(got[name], (int, float)) and close(got[name], want, rel=1e-12, abs_tol=0)
           for name, want in SETTINGS.items()):
        return
    told = ", ".join(f"{name} = {shown(got[name])}" for name in SETTINGS)
    seen = (f"Your settings are {told}; microgpt's are learning_rate 0.01, beta1 0.85, beta2 "
            "0.99 and eps 1e-8, and the published losses come from exactly those")
    if got["beta1"] == 0.99 and got["beta2"] == 0.85:
        fail(f"{seen}. beta1 and beta2 are swapped: beta1 belongs to m, the fast mean of the "
             "gradients (lesson 10.3), beta2 to v, the slow mean of their squares.",
             fix=SETTINGS_FIX)
    if got["beta1"] == 0.9 and got["beta2"] == 0.999:
        fail(f"{seen}. 0.9 and 0.999 are Adam's usual defaults, but microgpt uses 0.85 and "
             "0.99, and with any other numbers the run will not reproduce microgpt's.",
             fix=SETTINGS_FIX)
    if got["learning_rate"] == 0.3:
        fail(f"{seen}. 0.3 is train4's learning rate for plain SGD, whose step is lr times a "
             "small gradient; Adam's step is about lr long (lesson 10.5), so it needs 0.01.",
             fix=SETTINGS_FIX)
    fail(f"{seen}.", fix=SETTINGS_FIX)


@check("m and v: one of each per parameter, on any names file")
def _(code):
    count = len(code.params)
    if code.m is code.v:
        fail("m and v are one and the same list: v's line would overwrite what m's line wrote. "
             "Make two lists (lesson 10.3).", fix=BUFFERS_FIX)
    for name in ("m", "v"):
        value = getattr(code, name)
        if not isinstance(value, list) or len(value) != count or any(x != 0 for x in value):
            fail(f"{name} is {shown(value)}, but should be a list of {count:,} zeros, one per "
                 "parameter, made before training (lesson 10.3).", fix=BUFFERS_FIX)
    with calling("your file, run again on a names file with the letters ë, é and -"):
        theirs = rerun(code, {"input.txt": OTHER_NAMES})
    other = len(theirs.params)
    for name in ("m", "v"):
        value = getattr(theirs, name)
        if not isinstance(value, list) or len(value) != other:
            size = f"{len(value):,} numbers" if isinstance(value, list) else shown(value)
            fail(f"Run again on a names file whose letters include ë, é and - (vocab_size "
                 f"{theirs.vocab_size}), your file makes {other:,} parameters but its {name} "
                 f"holds {size}: make {name} as long as params, whatever the data makes that.",
                 fix=BUFFERS_FIX)


def _probe(code, grads, step, m0=None, v0=None):
    """adam_step(step) on new parameters at 0 with these grads (and m, v): each one's move
    downhill (against its gradient, so a right move is positive), and the m and v it leaves."""
    params = [code.Value(0.0) for _ in grads]
    for p, grad in zip(params, grads):
        p.grad = grad
    m = list(m0) if m0 else [0.0] * len(grads)
    v = list(v0) if v0 else [0.0] * len(grads)
    with replacing(code, "params", params), replacing(code, "m", m), replacing(code, "v", v):
        with calling(f"adam_step({step})"):
            code.adam_step(step)
    moves = [-p.data if grad >= 0 else p.data for p, grad in zip(params, grads)]
    return moves, m, v


def _is(got, want, rel=1e-6):
    return isinstance(got, (int, float)) and close(got, want, rel=rel, abs_tol=1e-15)


@check("the first step moves every parameter by lr, a gradient of 0 not at all")
def _(code):
    grads = [2.0, -0.5, 0.0]
    try:
        moves, m, v = _probe(code, grads, 0)
    except ZeroDivisionError:
        try:
            _probe(code, grads[:2], 0)
        except ZeroDivisionError:
            fail("adam_step(0) raised ZeroDivisionError, even with the gradients 2 and -0.5, "
                 "none of them 0: the corrections divide by 1 - beta ** step, which is 1 - 1 = 0 "
                 "at step 0. During step 0 the means hold one gradient: the power is step + 1 "
                 "(lesson 10.4).", fix=HATS_FIX)
        fail("adam_step(0) raised ZeroDivisionError on a gradient of 0, and not without it: "
             "with m_hat and v_hat at 0, the step divides 0 by a root of 0. eps, added after "
             "the root, makes it 0 / 1e-8 = 0 (lesson 10.5).", fix=STEP_FIX)
    want_m = [(1 - BETA1) * g for g in grads]
    want_v = [(1 - BETA2) * g * g for g in grads]
    seen = ("At step 0, from m = v = 0, with the gradients 2, -0.5 and 0, adam_step should leave "
            f"m = {shown(want_m)} and v = {shown(want_v)}, and move the first two parameters "
            "lr = 0.01 downhill each (m_hat and v_hat are the gradient and its square) and the "
            f"third not at all. Yours left m = {shown(m)} and v = {shown(v)}, and moved them "
            f"{', '.join(number(x) for x in moves)} downhill")
    if not all(_is(a, b) for a, b in zip(m, want_m)) or not all(
            _is(a, b) for a, b in zip(v, want_v)):
        if all(_is(a, (1 - BETA2) * g) for a, g in zip(m, grads)):
            fail(f"{seen}: m was blended with beta2, and so on: beta1 and beta2 are swapped "
                 "(lesson 10.3).", fix=MEANS_FIX)
        if all(_is(a, b) for a, b in zip(m, [0.0] * 3)):
            fail(f"{seen}: m did not change; the new means have to go into the file's lists, "
                 "m[i] and v[i] (lessons 10.2 and 10.3).", fix=MEANS_FIX)
        corrected = [a / (1 - BETA1) for a in want_m]
        if all(_is(a, b) for a, b in zip(m, corrected)):
            fail(f"{seen}: m and v hold the corrected means: the correction was written back "
                 "into m[i] and v[i], so the next step would correct them again; it belongs in "
                 "m_hat and v_hat only (lesson 10.4).", fix=HATS_FIX)
        fail(f"{seen}: m or v is off (lessons 10.2 and 10.3: keep beta1 of m and add 1 - beta1 "
             "of the gradient; keep beta2 of v and add 1 - beta2 of its square).",
             fix=MEANS_FIX)
    lr = 0.01
    if all(_is(x, want) for x, want in zip(moves, [lr, lr, 0.0])):
        return
    if all(_is(x, 0.0) for x in moves):
        later, _, _ = _probe(code, grads, 500)
        if not all(_is(x, 0.0) for x in later):
            fail(f"{seen}: not at all. At step 500 the same gradients move them "
                 f"{', '.join(number(x) for x in later)}, so the step does change p.data: it is "
                 "lr that is 0 at step 0, where it is the whole learning_rate (lesson 10.5).",
                 fix=LR_FIX)
        fail(f"{seen}: not at all, and at step 500 not at all either. Either lr is 0 at every "
             "step, where it must start at the whole learning_rate (lesson 10.5), or p.data "
             "does not change.", fix=f"{LR_FIX}, and {STEP_FIX}")
    if _is(moves[0], lr * 1.5) and _is(moves[1], lr * 1.5):
        fail(f"{seen}: 1.5 × lr, which is m / √v uncorrected. Divide m and v by their total "
             "weights, 1 - beta to the power step + 1, into m_hat and v_hat (lesson 10.4), and "
             "step with those.", fix=HATS_FIX)
    if _is(moves[0], -lr) and _is(moves[1], -lr):
        fail(f"{seen}: both went uphill by lr; the step is subtracted from p.data, against the "
             "gradient (lesson 10.5).", fix=STEP_FIX)
    if _is(moves[0], moves[1] * 4):
        fail(f"{seen}: 4 times as far for the gradient 4 times as steep, as SGD moves them. "
             "Divide by the root of v_hat (lesson 10.5).", fix=STEP_FIX)
    if _is(moves[0] * 4, moves[1]):
        fail(f"{seen}: a quarter as far for the gradient 4 times as steep: that divides by "
             "v_hat itself, not its root (lesson 10.5).", fix=STEP_FIX)
    if _is(moves[0], moves[1]):
        fail(f"{seen}: both alike, as they should, but by {number(moves[0])} and not lr = 0.01. "
             "At step 0 lr is the whole learning_rate: 1 - step / num_steps is 1 (lesson 10.5).",
             fix=LR_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


@check("at step 9 the means carry over, corrected")
def _(code):
    m0, v0, grad, step = 0.5, 0.02, 1.0, 9
    moves, m, v = _probe(code, [grad], step, [m0], [v0])
    m1, v1 = BETA1 * m0 + (1 - BETA1) * grad, BETA2 * v0 + (1 - BETA2) * grad * grad
    lr = 0.01 * (1 - step / 1000)
    m_hat, v_hat = m1 / (1 - BETA1 ** (step + 1)), v1 / (1 - BETA2 ** (step + 1))
    want = lr * m_hat / (v_hat ** 0.5 + EPS)
    # A slip of lr alone (no decay, one step ahead) is the next check's to tell.
    rates = (lr, 0.01, 0.01 * (1 - (step + 1) / 1000))
    if _is(m[0], m1) and _is(v[0], v1) and any(
            _is(moves[0], rate * m_hat / (v_hat ** 0.5 + EPS)) for rate in rates):
        return
    seen = (f"At step 9, from m = 0.5 and v = 0.02 with a gradient of 1, adam_step should leave "
            f"m = {number(m1)} and v = {number(v1)} and move the parameter lr × m_hat / (√v_hat + "
            f"eps) = {number(lr)} × {number(m_hat)} / √{number(v_hat)} = {number(want)}. Yours "
            f"left m = {number(m[0])} and v = {number(v[0])} and moved it {number(moves[0])}")
    if _is(m[0], m_hat) or _is(v[0], v_hat):
        fail(f"{seen}: the correction was written back into m or v, so the next step would "
             "correct it again; it belongs in m_hat and v_hat only (lesson 10.4).",
             fix=HATS_FIX)
    if not (_is(m[0], m1) and _is(v[0], v1)):
        fail(f"{seen}: m or v is off (lessons 10.2 and 10.3).", fix=MEANS_FIX)
    if _is(moves[0], lr * m1 / (1 - BETA1 ** step) / ((v1 / (1 - BETA2 ** step)) ** 0.5 + EPS)):
        fail(f"{seen}: the corrections use the power step, one short: during step 9 the means "
             "hold ten gradients (lesson 10.4).", fix=HATS_FIX)
    t = step + 1
    for m_w, v_w, what in (((1 - BETA1) ** t, 1 - BETA2 ** t, "m's"),
                           ((1 - BETA1) ** t, (1 - BETA2) ** t, "m's and v's")):
        if _is(moves[0], lr * (m1 / m_w) / ((v1 / v_w) ** 0.5 + EPS)):
            fail(f"{seen}: {what} total weight is taken as (1 - beta) to the power step + 1, "
                 "which is right at step 0 only: it is 1 minus the power of beta (lesson 10.4).",
                 fix=HATS_FIX)
    fail(f"{seen}: with m and v right, the corrections or the step itself are off (lessons "
         "10.4 and 10.5).", fix=f"{HATS_FIX}, and {STEP_FIX}")


@check("lr shrinks in a straight line to 0")
def _(code):
    found = []
    for step in (0, 500, 999):
        ratio = (1 / (1 - BETA1 ** (step + 1))) / ((1 / (1 - BETA2 ** (step + 1))) ** 0.5 + EPS)
        moves, _, _ = _probe(code, [1.0], step, [1.0], [1.0])
        found.append((step, moves[0] / ratio))
    want = [0.01 * (1 - step / 1000) for step, _ in found]
    if all(_is(lr, w) for (_, lr), w in zip(found, want)):
        return
    rates = ", ".join(f"{_plain(lr)} at step {step}" for step, lr in found)
    seen = (f"From m = v = 1 with a gradient of 1, the moves at steps 0, 500 and 999 give lr = "
            f"{rates}, if m_hat and v_hat are right; it should be 0.01 × (1 - step / 1000): "
            "0.01, 0.005 and 0.00001")
    if all(_is(lr, 0.01) for _, lr in found):
        fail(f"{seen}. It does not decay (lesson 10.5).", fix=LR_FIX)
    if all(_is(lr, 0.01 * (1 - (step + 1) / 1000)) for step, lr in found):
        fail(f"{seen}. It is one step ahead: 1 - step / num_steps, not step + 1 (lesson 10.5).",
             fix=LR_FIX)
    fail(f"{seen}. No straight line gives these: if lr is right, the corrections are off at "
         "later steps (lesson 10.4).", fix=f"{LR_FIX}, and {HATS_FIX}")


# Each setting changed on its own, for one call: adam_step must follow it. The probe is at step
# 2 (early, so the corrections are far from 1, and lr shows num_steps), from means that are not 0,
# with a gradient below eps's new size.
OTHER_SETTINGS = (("learning_rate", 0.05), ("num_steps", 10), ("beta1", 0.7), ("beta2", 0.9),
                  ("eps", 1e-6))
PROBE = {"grads": [2.0, 1e-7], "step": 2, "m0": [0.5, 0.0], "v0": [0.3, 0.0]}


def _adam_here(values):
    """Adam done here on the probe with these settings: (moves downhill, m, v)."""
    step, moves, m, v = PROBE["step"], [], [], []
    lr = values["learning_rate"] * (1 - step / values["num_steps"])
    b1, b2 = values["beta1"], values["beta2"]
    for g, m0, v0 in zip(PROBE["grads"], PROBE["m0"], PROBE["v0"]):
        m.append(b1 * m0 + (1 - b1) * g)
        v.append(b2 * v0 + (1 - b2) * g * g)
        m_hat, v_hat = m[-1] / (1 - b1 ** (step + 1)), v[-1] / (1 - b2 ** (step + 1))
        moves.append(lr * m_hat / (v_hat ** 0.5 + values["eps"]))
    return moves, m, v


def _probe_with(code, name, value):
    """The probe, with the file's `name` set to `value` for the call: (moves, m, v)."""
    with replacing(code, name, value):
        return _probe(code, PROBE["grads"], PROBE["step"], PROBE["m0"], PROBE["v0"])


def _parts_apart(got, want):
    """Which of the moves, m and v differ, in words."""
    return [part for part, a, b in zip(("the moves", "m", "v"), got, want)
            if not all(_is(x, y, rel=1e-9) for x, y in zip(a, b))]


def _setting(value):
    """A setting as the lesson writes it: 1e-8 for eps, 0.05 or 200 for the others."""
    return f"{value:.0e}".replace("e-0", "e-") if value < 1e-4 else number(value)


def _setting_fix(name, kept):
    """The lines that read `name`: the lr line, the means, the corrections or the step."""
    if name in ("learning_rate", "num_steps"):
        return LR_FIX
    if name == "eps":
        return STEP_FIX
    return MEANS_FIX if kept != ["the moves"] else HATS_FIX


def _first_apart(got, want):
    """The first number of (moves, m, v) that differs, with enough digits to show it."""
    for part, items, rights in zip(("the move of parameter", "m", "v"), got, want):
        for index, (a, b) in enumerate(zip(items, rights)):
            if not _is(a, b, rel=1e-9):
                mine, ours = _apart(a, b)
                where = f"{part} {index}" if part.startswith("the") else f"{part}[{index}]"
                return f"{where} is {mine}, where Adam done here makes it {ours}"
    return "they differ"


def _apart(got, want):
    """got and want with enough digits to tell them apart."""
    if not isinstance(got, (int, float)) or isinstance(got, bool):
        return shown(got), number(want)
    got, want = got + 0.0, want + 0.0  # -0.0 written as 0
    for digits in range(6, 18):
        a, b = f"{got:.{digits}g}", f"{want:.{digits}g}"
        if a != b:
            break
    return a, b


@check("Adam follows its settings when they change")
def _(code):
    usual = {"num_steps": 1000, **SETTINGS}
    got = _probe(code, PROBE["grads"], PROBE["step"], PROBE["m0"], PROBE["v0"])
    want = _adam_here(usual)
    if _parts_apart(got, want):
        fail("With the settings as they are, adam_step(2) from m = [0.5, 0] and v = [0.3, 0] with "
             f"the gradients 2 and 0.0000001 should leave m = {shown(want[1])} and v = "
             f"{shown(want[2])}, and move the parameters {_plain(want[0][0])} and "
             f"{_plain(want[0][1])} downhill, but {_first_apart(got, want)}. That is before "
             "any setting changes: your adam_step parts from Adam's here already (lessons 10.3 "
             "to 10.5).", fix=f"{LR_FIX}, and {UPDATE_FIX}")
    for name, value in OTHER_SETTINGS:
        want = _adam_here({**usual, name: value})
        got = _probe_with(code, name, value)
        wrong = _parts_apart(got, want)
        if not wrong:
            continue
        before = _adam_here(usual)
        kept = [part for part in wrong if part not in _parts_apart(got, before)]
        seen = (f"With the file's {name} set to {_setting(value)} for one call (the other settings "
                "as they are), adam_step(2) from m = [0.5, 0] and v = [0.3, 0] with the "
                f"gradients 2 and 0.0000001 should leave m = {shown(want[1])} and v = "
                f"{shown(want[2])}, and move the parameters {_plain(want[0][0])} and "
                f"{_plain(want[0][1])} downhill. Yours left m = {shown(got[1])} and v = "
                f"{shown(got[2])}, and moved them {_plain(got[0][0])} and {_plain(got[0][1])}")
        if kept:
            fail(f"{seen}: {' and '.join(kept)} came out just as with {name} = "
                 f"{_setting(usual[name])}. Your adam_step did not follow {name} when it "
                 f"changed, so a file that set {name} otherwise would still train as with "
                 f"{_setting(usual[name])}.", fix=_setting_fix(name, kept))
        if wrong == ["the moves"]:
            fail(f"{seen}: {_first_apart(got, want)}. m and v are right, so the lines after them, "
                 f"the corrections or the step, did not follow {name} as Adam does.",
                 fix=f"{LR_FIX}, and {UPDATE_FIX}")
        fail(f"{seen}: {_first_apart(got, want)}.", fix=f"{LR_FIX}, and {UPDATE_FIX}")
    return ("learning_rate, num_steps, beta1, beta2 and eps each changed for one call: "
            "adam_step followed every one.")


NAMES = ["ava", "bo", "emma"]  # short names: three steps of microgpt on them are quick


class _Kept:
    """Put a file's parameters, grads, m and v back as they were when the block ends."""

    def __init__(self, space):
        self.space = space

    def __enter__(self):
        self.data = [p.data for p in self.space.params]
        self.m, self.v = list(self.space.m), list(self.space.v)
        return self

    def __exit__(self, *error):
        for p, value in zip(self.space.params, self.data):
            p.data, p.grad = value, 0
        self.space.m[:], self.space.v[:] = self.m, self.v
        return False


@check("three steps of microgpt, beside ours")
def _(code):
    ours = reference(code)
    if [p.data for p in code.params[:50]] != [p.data for p in ours.params[:50]]:
        fail("Your file's parameters do not start where microgpt's do: the given lines that "
             "draw them (the seed, the shuffle, matrix, the order of the matrices) have "
             "changed. Put them back as they were.")
    with _Kept(code), _Kept(ours), replacing(code, "docs", NAMES), replacing(ours, "docs", NAMES):
        for step in range(3):
            with calling(f"train_step({step}) on the name {NAMES[step]!r}"):
                loss = code.train_step(step)
            want = ours.train_step(step)
            mine = [p.data for p in code.params]
            theirs = [p.data for p in ours.params]
            wrong = [i for i, (a, b) in enumerate(zip(mine, theirs))
                     if not close(a, b, rel=1e-9, abs_tol=1e-15)]
            if not close(loss.data, want.data, rel=1e-9, abs_tol=1e-12) or wrong:
                fail(_beside(step, loss.data, want.data, wrong, mine, theirs), fix=UPDATE_FIX)
    return ("Three steps on 'ava', 'bo' and 'emma': the same losses and the same 4,192 "
            "parameters as ours, to the last digits.")


def _beside(step, loss, want, wrong, mine, theirs):
    """Where the learner's training left ours at this step: the loss, then the first parameter."""
    told = f"Training on {', '.join(repr(n) for n in NAMES)} from the same starting weights"
    if not close(loss, want, rel=1e-9, abs_tol=1e-12):
        a, b = _apart(loss, want)
        told += f", at step {step} your loss is {a} and ours {b}"
    else:
        told += f", at step {step} your loss is ours, {want:.6f}"
    if not wrong:
        return f"{told}."
    i = wrong[0]
    a, b = _apart(mine[i], theirs[i])
    return (f"{told}; after it {len(wrong):,} of the {len(mine):,} parameters differ from ours, "
            f"the first, params[{i}], at {a} where ours is at {b}.")


def _cases(rng):
    """New parameters and gradients (0, tiny, huge, negative), means that do not start at 0,
    steps at the start, the middle and the very end; called twice, the second call continues
    from the means the first one left."""
    plans = [
        ([2.0, -0.5], [0.0, 0.0], [0.0, 0.0], 0, "the very first step"),
        ([0.0, 0.25, -3.0], [0.5, -1.0, 2.0], [0.1, 2.0, 0.3], 500, "halfway"),
        ([0.0, 1e-9, -2e-6, 40.0, -0.5], [0.0] * 5, [0.0] * 5, 3, "gradients of 0, 1e-9 and 40"),
        ([0.3, -0.2], [0.05, 0.01], [0.02, 0.001], 999, "the last step: lr is 0.00001"),
    ]
    grads = [round(rng.choice((-1, 1)) * 10 ** rng.uniform(-6, 3), 9) for _ in range(60)]
    means = [round(rng.uniform(-1, 1), 3) for _ in range(60)]
    squares = [round(rng.uniform(0, 2), 3) for _ in range(60)]
    plans.append((grads, means, squares, 57, "60 parameters, gradients from 1e-6 to 1e3"))
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
