"""Checks for lesson 10.5: lr shrinks in a straight line to 0, and the update moves each
parameter by lr * m_hat / (v_hat ** 0.5 + eps), against its gradient.

adam_step(step) works on the file's global `params`, `m` and `v`; the checks put lists of their
own in their place while it runs (and put the file's back) and measure how far each parameter
moved. At step 0, m_hat and v_hat are the gradient and its square, so every parameter should
move exactly lr = learning_rate: the ratio of two parameters' moves tells the update's slips
apart (lr times the gradient, over its square, uncorrected), whatever lr is. Then a gradient of
0 and a tiny one (eps), then lr at steps 0, 500 and 999 read off the moves, then two real steps
of microgpt against Adam done here, then adam_step against ours on new parameters, twice each.
"""
from contextlib import ExitStack

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, replacing, shown

BETA1, BETA2, EPS = 0.85, 0.99, 1e-8
LR_FIX = "`lr = learning_rate * (1 - step / num_steps)`"
UPDATE_FIX = "`p.data -= lr * m_hat / (v_hat ** 0.5 + eps)`"


def _moves(code, grads, step, m0=None, v0=None, settings=None):
    """adam_step(step) on new parameters at 0 with these grads (and m, v), with the file's
    settings (names to values) replaced for the call: how far each moved downhill, i.e. against
    its gradient (so a right move is positive)."""
    params = [code.Value(0.0) for _ in grads]
    for p, grad in zip(params, grads):
        p.grad = grad
    m = list(m0) if m0 else [0.0] * len(grads)
    v = list(v0) if v0 else [0.0] * len(grads)
    with ExitStack() as stack:
        for name, value in {"params": params, "m": m, "v": v, **(settings or {})}.items():
            stack.enter_context(replacing(code, name, value))
        with calling(f"adam_step({step})"):
            code.adam_step(step)
    return [-p.data if grad >= 0 else p.data for p, grad in zip(params, grads)]


def _plain(x):
    """A small number written out, as a beginner reads it: 0.0000001 rather than 1e-07."""
    return f"{x:.12f}".rstrip("0").rstrip(".") if 0 < abs(x) < 1e-3 else number(x)


def _is(got, want, rel=1e-6):
    return isinstance(got, (int, float)) and close(got, want, rel=rel, abs_tol=1e-15)


def _first_step(code):
    """(message, fix) when the update at step 0 is wrong, else None."""
    grads = [2.0, -0.5]
    lr = code.learning_rate
    moved = _moves(code, grads, 0)
    if all(_is(x, lr) for x in moved):
        return None
    seen = (f"At step 0, with gradients 2 and -0.5 and m, v at 0, m_hat is the gradient and "
            f"v_hat its square, so m_hat / v_hat ** 0.5 is 1 for both: each should move lr = "
            f"learning_rate = {number(lr)} downhill. Yours moved them {number(moved[0])} and "
            f"{number(moved[1])} downhill")
    if all(_is(x, 0.0) for x in moved):
        later = _moves(code, grads, 500)
        if not all(_is(x, 0.0) for x in later):
            return (f"{seen}: not at all. At step 500 the same gradients move them "
                    f"{number(later[0])} and {number(later[1])}, so the step does change p.data: "
                    "it is lr that is 0 at step 0, where it must be the whole learning_rate.",
                    LR_FIX)
        return (f"{seen}: not at all, and at step 500 not at all either. Either lr is 0 at every "
                "step, where it must start at the whole learning_rate, or p.data does not change.",
                f"{LR_FIX}, and {UPDATE_FIX}")
    if all(_is(x, -lr) for x in moved):
        return (f"{seen}, that is, both went uphill by lr: the step was added to p.data. The "
                "gradient points the way the loss grows, so the step is subtracted.", UPDATE_FIX)
    ratio = moved[0] / moved[1] if moved[1] else float("inf")
    if _is(ratio, 4.0):
        return (f"{seen}: 4 times as far for the gradient 4 times as steep, lr times m_hat as "
                "SGD would move them. Divide by the gradient's typical size, the root of v_hat.",
                UPDATE_FIX)
    if _is(ratio, 0.25):
        return (f"{seen}: a quarter as far for the gradient 4 times as steep. That divides by "
                "v_hat, the square, instead of its root, which turns the sizes around.",
                UPDATE_FIX)
    if _is(ratio, 1.0) and _is(moved[0], lr * (1 - BETA1) / (1 - BETA2) ** 0.5):
        return (f"{seen}: 1.5 × lr each, which is m / √v uncorrected (0.15·g / 0.1·|g|). The "
                "update has to use m_hat and v_hat, the corrected means of the lines above it.",
                UPDATE_FIX)
    if _is(ratio, 1.0) and all(_is(x, 1.0) for x in moved):
        return (f"{seen}: a whole 1 each, m_hat / v_hat ** 0.5 without lr. The learning rate "
                "sets how long the step is.", UPDATE_FIX)
    if _is(ratio, 1.0) and all(_is(x, lr * (1 - 1 / code.num_steps)) for x in moved):
        return (f"{seen}: lr at step 0 is learning_rate × (1 - 1/{code.num_steps}), one step ahead, "
                "as if this were step 1. At step 0, 1 - step / num_steps is 1.", LR_FIX)
    if _is(ratio, 1.0):
        return (f"{seen}: the two moved alike, as they should, but by {number(moved[0])} instead "
                f"of lr = {number(lr)}. At step 0, lr is the whole learning_rate.", LR_FIX)
    return f"{seen}.", UPDATE_FIX


@check("the first step moves every parameter by lr")
def _(code):
    problem = _first_step(code)
    if problem:
        fail(problem[0], fix=problem[1])


@check("a gradient of 0 moves nothing, a tiny one a little")
def _(code):
    lr = code.learning_rate
    grads = [0.0, 1e-9]
    try:
        moved = _moves(code, grads, 0)
    except ZeroDivisionError:
        fail("adam_step(0) with a gradient of 0 raised ZeroDivisionError: with m and v at 0, "
             "m_hat and v_hat are 0 too, and 0 / 0 ** 0.5 cannot be worked out. At microgpt's "
             "first step hundreds of gradients are exactly 0 (the embedding rows of the letters "
             "and positions the name does not use). eps, added to the root, makes that step "
             "0 / 1e-8 = 0.",
             fix=UPDATE_FIX)
    if not _is(moved[0], 0.0):
        fail(f"adam_step(0) with a gradient of 0 moved the parameter by {number(moved[0])}, but "
             "a parameter with no slope has no step: m_hat is 0, and so is the move.",
             fix=UPDATE_FIX)
    want = lr * grads[1] / (grads[1] + EPS)
    if _is(moved[1], want):
        _other_eps(code, lr)
        return
    seen = (f"With a gradient of 0.000000001 (1e-9, below eps), adam_step(0) should move the "
            f"parameter lr × 1e-9 / (1e-9 + 1e-8) = {_plain(want)}: eps only matters for "
            f"gradients near its own size. Yours moved it {_plain(moved[1])}")
    if _is(moved[1], lr * grads[1] / (grads[1] ** 2 + EPS) ** 0.5):
        fail(f"{seen}: eps is inside the root. The root of v_hat + eps is at least the root of "
             "1e-8, 0.0001, so every gradient smaller than about 0.0001 has its step shrunk; "
             "eps belongs after the root.", fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


def _other_eps(code, lr):
    """With the file's eps set to 1e-6, a gradient of 1e-7 must move lr × 1e-7 / (1e-7 + 1e-6)."""
    eps, grad = 1e-6, 1e-7
    moved = _moves(code, [grad], 0, settings={"eps": eps})[0]
    want = lr * grad / (grad + eps)
    if _is(moved, want):
        return
    seen = ("With the file's eps set to 0.000001 (1e-6) for one call and a gradient of "
            f"0.0000001 (1e-7), adam_step(0) should move the parameter lr × 1e-7 / (1e-7 + "
            f"1e-6) = {_plain(want)}. Yours moved it {_plain(moved)}")
    if _is(moved, lr * grad / (grad + EPS)):
        fail(f"{seen}, what eps = 1e-8 gives: the step kept adding 1e-8 when eps changed, so "
             "the file's eps setting never reaches it.", fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


def _read_lr(code, steps, settings=None):
    """lr at each step, read off the move from m = v = 1 with a gradient of 1 (m and v stay 1;
    their corrections give the ratio of the move to lr)."""
    found = []
    for step in steps:
        ratio = (1 / (1 - BETA1 ** (step + 1))) / ((1 / (1 - BETA2 ** (step + 1))) ** 0.5 + EPS)
        moved = _moves(code, [1.0], step, [1.0], [1.0], settings)[0]
        found.append((step, moved / ratio))
    return found


def _other_run(code):
    """lr with the file's learning_rate set to 0.05 and num_steps to 200: it must follow both."""
    rate, count = 0.05, 200
    found = _read_lr(code, (0, 100, 199), {"learning_rate": rate, "num_steps": count})
    want = [rate * (1 - step / count) for step, _ in found]
    if all(_is(lr, w) for (_, lr), w in zip(found, want)):
        return
    seen = ("With the file's learning_rate set to 0.05 and num_steps to 200 for these calls, "
            "lr should be 0.05 × (1 - step / 200): 0.05 at step 0, 0.025 at step 100 and 0.00025 "
            "at step 199. Read off the moves, yours is "
            + ", ".join(f"{_plain(lr)} at step {step}" for step, lr in found))
    kept = []
    for start in (rate, code.learning_rate):
        for length in (count, code.num_steps):
            if (start, length) != (rate, count) and all(
                    _is(lr, start * (1 - step / length)) for step, lr in found):
                kept = [f"started at {number(start)}" if start != rate else "",
                        f"shrank over {length:,} steps" if length != count else ""]
    if kept:
        fail(f"{seen}: it {' and '.join(filter(None, kept))}, as in the bundled run, and did "
             "not follow the settings. Training longer or shorter, or faster, means changing "
             "num_steps or learning_rate, and lr has to change with them.", fix=LR_FIX)
    fail(f"{seen}.", fix=LR_FIX)


@check("lr shrinks in a straight line to 0")
def _(code):
    if _first_step(code):
        fail("The update at step 0 is not right yet (see the first check), so lr cannot be "
             "read off it.", fix=f"{LR_FIX}, and {UPDATE_FIX}")
    learning_rate, num_steps = code.learning_rate, code.num_steps
    found = _read_lr(code, (0, 500, 999))
    want = [learning_rate * (1 - step / num_steps) for step, _ in found]
    if all(_is(lr, w, rel=1e-6) for (_, lr), w in zip(found, want)):
        _other_run(code)
        return
    rates = ", ".join(f"{_plain(lr)} at step {step}" for step, lr in found)
    seen = (f"Read off the moves, lr is {rates}; it should be learning_rate × (1 - step / "
            f"num_steps): {_plain(want[0])}, {_plain(want[1])} and {_plain(want[2])}")
    if all(_is(lr, learning_rate) for _, lr in found):
        fail(f"{seen}. Yours stays at learning_rate: it does not decay. Adam's step is about lr "
             "long whatever the gradient, so late in training each name would still shove the "
             "weights as hard as the first ones did.", fix=LR_FIX)
    if all(_is(lr, learning_rate * (1 - (step + 1) / num_steps), rel=1e-6) for step, lr in found):
        fail(f"{seen}. Yours is one step ahead, as if each step were the next: the last step, "
             f"{num_steps - 1}, would not move at all.", fix=LR_FIX)
    fail(f"{seen}.", fix=LR_FIX)


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


@check("two real steps of microgpt move every parameter as Adam done here")
def _(code):
    seen = []
    original = code.adam_step

    def spy(step):
        seen.append(([p.grad for p in code.params], [p.data for p in code.params]))
        return original(step)

    with _Kept(code), replacing(code, "docs", NAMES), replacing(code, "adam_step", spy):
        count = len(code.params)
        mean, square = [0.0] * count, [0.0] * count
        for step in range(2):
            with calling(f"train_step({step}) on the name {NAMES[step]!r}"):
                code.train_step(step)
            grads, before = seen[-1]
            lr = 0.01 * (1 - step / 1000)
            wrong = []
            for i, (g, data) in enumerate(zip(grads, before)):
                mean[i] = BETA1 * mean[i] + (1 - BETA1) * g
                square[i] = BETA2 * square[i] + (1 - BETA2) * g * g
                m_hat = mean[i] / (1 - BETA1 ** (step + 1))
                v_hat = square[i] / (1 - BETA2 ** (step + 1))
                want = data - lr * m_hat / (v_hat ** 0.5 + EPS)
                if not close(code.params[i].data, want, rel=1e-9, abs_tol=1e-15):
                    wrong.append((i, want, data, g, mean[i], square[i]))
            if wrong:
                fail(_off(code, step, wrong, count), fix=f"{LR_FIX}, and {UPDATE_FIX}")
        zeros = sum(1 for g in seen[0][0] if g == 0)
    return (f"Two steps, {NAMES[0]!r} then {NAMES[1]!r}: all {count:,} parameters where Adam done "
            f"here puts them, the {zeros:,} with a gradient of 0 at the first step included.")


def _apart(got, want):
    """got and want written with enough digits to tell them apart, and the gap between them."""
    if not isinstance(got, (int, float)) or isinstance(got, bool):
        return shown(got), number(want), ""
    got, want = got + 0.0, want + 0.0  # -0.0 written as 0
    for digits in range(6, 18):
        a, b = f"{got:.{digits}g}", f"{want:.{digits}g}"
        if a != b:
            break
    return a, b, f" (a difference of {abs(got - want):.2g})" if got == got else ""


def _off(code, step, wrong, count):
    """What two real steps found at the first parameter Adam done here puts elsewhere."""
    i, want, data, grad, mean, square = wrong[0]
    got = code.params[i].data
    told = (f"After train_step({step}) on {NAMES[step]!r}, {len(wrong):,} of the {count:,} "
            f"parameters are not where Adam done here puts them. The first, params[{i}], had "
            f"the gradient {number(grad)} from backward()")
    if not (close(code.m[i], mean, rel=1e-9, abs_tol=1e-15)
            and close(code.v[i], square, rel=1e-9, abs_tol=1e-15)):
        return (f"{told}, and after the step its m is {shown(code.m[i])} and its v "
                f"{shown(code.v[i])}, where the running means are {number(mean)} and "
                f"{number(square)}: something beyond the given line that updates them changed m[i] "
                "or v[i].")
    if isinstance(got, complex):
        return (f"{told}; its m and v are right, but it ended as a complex number, "
                f"where Adam moves it by {number(want - data)}: a number below 0 was raised to "
                "the power 0.5.")
    a, b, gap = _apart(got - data if isinstance(got, (int, float)) else got, want - data)
    return (f"{told}; its m and v are right, but it moved by {a} where Adam moves it by {b}"
            f"{gap}.")


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
