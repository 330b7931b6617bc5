"""Checks for lesson 10.1: scaled_step moves every parameter lr downhill, whatever its slope.

scaled_step(lr) works on the file's global `params`; each check puts parameters of its own in
their place for the call (and puts the file's back), with the gradients it chooses, and
measures how far each one moved. The slips of this line each move the probe's two parameters
in their own telltale way (lr times the gradient, lr over it, uphill), so the message can say
which one it saw. A gradient of exactly 0 and a very small one come next: microgpt has both at
every step, the surface never. The last checks walk the surface with the learner's step, against
the walk done here, and compare scaled_step with ours on new parameters, twice each.
"""
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, plural, replacing

UPDATE_FIX = "`p.data -= lr * m_hat / (v_hat ** 0.5 + eps)`"
EPS = 1e-8
START = {"x": 1.0, "y": 1.5}
SLOPES = {"x": 10.0, "y": 0.15}  # the surface's gradients at its start: 10·x and 0.1·y


def _moves(code, grads, lr, start, eps=EPS):
    """Call scaled_step(lr) on new parameters (data `start`, grads `grads`), with the file's eps
    set to `eps` for the call: where they end."""
    params = [code.Value(value) for value in start]
    for p, grad in zip(params, grads):
        p.grad = grad
    with replacing(code, "params", params), replacing(code, "eps", eps):
        with calling(f"scaled_step({number(lr)})"):
            code.scaled_step(lr)
    return [p.data for p in params], [p.grad for p in params]


def _right(start, grads, lr):
    return [value - lr * grad / (abs(grad) + EPS) for value, grad in zip(start, grads)]


def _plain(x):
    """A small number written out, as a beginner reads it: 0.000001 rather than 1e-06."""
    return f"{x:.12f}".rstrip("0").rstrip(".") if 0 < abs(x) < 1e-3 else number(x)


def _ended(values):
    return f"x at {number(values[0])} and y at {number(values[1])}"


def _all_close(got, want, rel=1e-6):
    return all(isinstance(g, (int, float)) and close(g, w, rel=rel, abs_tol=1e-12)
               for g, w in zip(got, want))


@check("one step moves x and y by lr each")
def _(code):
    start, grads, lr = [START["x"], START["y"]], [SLOPES["x"], SLOPES["y"]], 0.1
    got, left = _moves(code, grads, lr, start)
    want = _right(start, grads, lr)
    # eps moves y's step by 7e-8 of it: compare loosely here, the tiny gradients come later.
    seen = ("scaled_step(0.1) at the surface's start, x = 1 with grad 10 and y = 1.5 with grad "
            "0.15, should move each parameter 0.1 downhill, however steep its slope: x to 0.9 "
            f"and y to 1.4. Yours left {_ended(got)}")
    if _all_close(got, want, rel=1e-6):
        if any(grad != 0 for grad in left):
            fail(f"scaled_step(0.1) moved x and y rightly, but left their grads at "
                 f"{number(left[0])} and {number(left[1])}: the starter's `p.grad = 0` after the "
                 "step sets each back to 0, for the next backward() to add into.")
        _other_lr(code, start, grads)
        return
    moved = [a - b for a, b in zip(start, got)]
    if _all_close(got, start):
        fail(f"{seen}: neither moved. The TODO line has to change p.data, by lr times m_hat "
             "over the gradient's size.", fix=UPDATE_FIX)
    if _all_close(moved, _right([0, 0], grads, lr)):
        fail(f"{seen}: each went up by 0.1, uphill. The gradient points the way the loss grows, "
             "so the step must go against it: subtract from p.data.", fix=UPDATE_FIX)
    if _all_close(moved, [lr * g for g in grads]):
        fail(f"{seen}: x moved 0.1 × 10 = 1 and y 0.1 × 0.15 = 0.015, lr times the gradient, "
             "just as SGD moves them: the steep x jumps, the flat y hardly stirs. Divide m_hat by "
             "the gradient's size, the root of v_hat, so that the size of the slope cancels out.",
             fix=UPDATE_FIX)
    if _all_close(moved, [lr * g / (g * g + EPS) for g in grads]):
        fail(f"{seen}: x moved 0.1 × 10 / 100 = 0.01 and y 0.1 × 0.15 / 0.0225 = 0.667, lr times "
             "the gradient over its square, v_hat. That turns the sizes around instead of "
             "cancelling them: the steeper the slope, the smaller the step. The gradient's size "
             "is the square root of v_hat.", fix=UPDATE_FIX)
    if _all_close(moved, [g / (abs(g) + EPS) for g in grads]):
        fail(f"{seen}: each moved by 1, a whole unit, not by lr = 0.1. m_hat over its size is "
             "1 or -1: the learning rate sets how long the step is.", fix=UPDATE_FIX)
    fail(f"{seen}: x moved by {number(moved[0])} and y by {number(moved[1])} (downhill "
         "counted positive), where both should move 0.1.", fix=UPDATE_FIX)


def _other_lr(code, start, grads):
    """The same step with lr = 0.05: each parameter must move 0.05, not Run's 0.1."""
    lr = 0.05
    got, _ = _moves(code, grads, lr, start)
    if _all_close(got, _right(start, grads, lr)):
        return
    moved = [a - b for a, b in zip(start, got)]
    seen = ("scaled_step(0.05), from the same start, should move x and y 0.05 each, to 0.95 and "
            f"1.45. Yours moved x by {number(moved[0])} and y by {number(moved[1])}")
    if _all_close(moved, [0.1, 0.1]):
        fail(f"{seen}, as far as scaled_step(0.1) moved them: the step stayed 0.1 long when lr "
             "changed. Its length has to come from the lr scaled_step is called with, "
             "whatever that is.",
             fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


@check("a gradient of 0 moves nothing")
def _(code):
    start, grads, lr = [1.0, 1.5], [0.0, 0.15], 0.1
    try:
        got, _ = _moves(code, grads, lr, start)
    except ZeroDivisionError:
        fail("scaled_step(0.1) with x's grad at 0 (and y's at 0.15) raised ZeroDivisionError: "
             "with a gradient of 0 the size v_hat ** 0.5 is 0 too, and m_hat / 0 cannot be "
             "worked out. On the surface that never happens, but in microgpt it happens at every "
             "step: the embedding rows of the letters a name does not have get a gradient of "
             "exactly 0. Adding eps, 1e-8, to the size makes that step 0 / 1e-8 = 0.",
             fix=UPDATE_FIX)
    want = _right(start, grads, lr)
    if not _all_close(got, want):
        fail(f"scaled_step(0.1) with x's grad at 0 and y's at 0.15 should leave x at 1 (no "
             f"slope, no step) and move y to 1.4, but left {_ended(got)}.", fix=UPDATE_FIX)


@check("a tiny gradient takes a shorter step")
def _(code):
    start, grads, lr = [1.0, 1.5], [1e-9, 0.15], 0.1
    got, _ = _moves(code, grads, lr, start)
    want = _right(start, grads, lr)
    if _all_close(got, want):
        _other_eps(code)
        return
    moved = start[0] - got[0]
    seen = ("With x's grad at 0.000000001 (1e-9, smaller than eps), scaled_step(0.1) should "
            "move x by 0.1 × 1e-9 / (1e-9 + 1e-8) = 0.00909: eps only matters for gradients "
            f"near its own size, 1e-8. Yours moved x by {_plain(moved)}")
    inside = lr * grads[0] / math.sqrt(grads[0] ** 2 + EPS)
    if close(moved, inside, rel=1e-6, abs_tol=1e-15):
        fail(f"{seen}: eps is inside the root. The root of v_hat + eps is at least the root of "
             "1e-8, 0.0001, ten thousand times eps itself, so every gradient smaller than about "
             "0.0001 has its step shrunk, and microgpt has gradients that small. Add eps after "
             "taking the root.", fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


def _other_eps(code):
    """With eps set to 1e-6 and a gradient of 1e-7, x's step must shrink by eps = 1e-6."""
    eps, grads, lr = 1e-6, [1e-7, 0.15], 0.1
    got, _ = _moves(code, grads, lr, [1.0, 1.5], eps=eps)
    moved = 1.0 - got[0]
    want = lr * grads[0] / (grads[0] + eps)
    if close(moved, want, rel=1e-6, abs_tol=1e-15):
        return
    seen = ("With the file's eps set to 0.000001 (1e-6) for one call and x's grad at 0.0000001 "
            "(1e-7), scaled_step(0.1) should move x by 0.1 × 1e-7 / (1e-7 + 1e-6) = "
            f"{number(want)}. Yours moved it {number(moved)}")
    if close(moved, lr * grads[0] / (grads[0] + EPS), rel=1e-6, abs_tol=1e-15):
        fail(f"{seen}, what eps = 1e-8 gives: the step kept adding 1e-8 when eps changed, so "
             "the file's eps setting never reaches it.", fix=UPDATE_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


def _surface_walk(steps, lr):
    """The walk from x = 1, y = 1.5 done here: each coordinate steps lr against its slope."""
    x, y = START["x"], START["y"]
    path = []
    for _ in range(steps):
        gx, gy = 10 * x, 0.1 * y
        x -= lr * gx / (abs(gx) + EPS)
        y -= lr * gy / (abs(gy) + EPS)
        path.append((x, y))
    return path


@check("the walk down the surface matches")
def _(code):
    # Nine steps: both parameters are still on their way down, with gradients of 0.06 or more,
    # where eps changes no step by more than a millionth (the gradient checks above see to eps).
    steps, lr = 9, 0.1
    params = [code.Value(START["x"]), code.Value(START["y"])]
    with replacing(code, "params", params):
        for step in range(steps):
            with calling("surface_loss().backward()"):
                code.surface_loss().backward()
            with calling(f"scaled_step({lr}), step {step + 1} of the walk"):
                code.scaled_step(lr)
            got = (params[0].data, params[1].data)
            want = _surface_walk(step + 1, lr)[-1]
            if not _all_close(got, want):
                fail(f"Walking from x = 1, y = 1.5 with scaled_step(0.1), after {plural(step + 1, 'step')} "
                     f"x is {number(got[0])} and y {number(got[1])}, but the same walk done here "
                     f"puts them at {number(want[0])} and {number(want[1])}.", fix=UPDATE_FIX)
    return ("9 steps from x = 1, y = 1.5: the steep x and the flat y both came down 0.1 a step, as "
            "in the walk done here.")


def _cases(rng):
    """New parameters and gradients: more of them than the surface has, gradients of every size
    (0, tiny, huge, negative), and other learning rates."""
    plans = [
        ([1.0, 1.5], [10.0, 0.15], 0.1, ""),
        ([0.5, -2.0, 3.0], [-4.0, 0.002, -0.3], 0.05, ""),
        ([0.0] * 4, [0.0, 1e-12, -1e-6, 25.0], 0.01, "gradients of 0, 1e-12 and 1e-6"),
    ]
    values = [round(rng.uniform(-1, 1), 3) for _ in range(40)]
    grads = [round(rng.choice((-1, 1)) * 10 ** rng.uniform(-7, 4), 9) for _ in range(40)]
    plans.append((values, grads, 0.01, "40 parameters, gradients from 1e-7 to 1e4"))
    plans.append(([0.1, 0.2], [3e8, -5e5], 0.5, "huge gradients"))
    for start, grads, lr, note in plans:
        text = (f"lr = {number(lr)} on parameters with data {_short(start)} and grads "
                f"{_short(grads)} (what it returns here: each parameter's data and grad afterwards)")
        yield Case(text, lambda space, start=start, grads=grads, lr=lr: (
            [space.Value(value) for value in start], list(grads), lr), note)


def _short(values):
    shown_ = ", ".join(f"{v:g}" for v in values[:4])
    return f"[{shown_}{', ...' if len(values) > 4 else ''}]"


def _compare(got, want):
    """Where two lists of (data, grad) part, each number to 1 part in a billion, or ""."""
    for index, (pair, right) in enumerate(zip(got, want)):
        for what, a, b in zip(("its data", "its grad"), pair, right):
            if not (isinstance(a, (int, float)) and close(a, b, rel=1e-9, abs_tol=1e-15)):
                return f"parameter {index} ends with {what} {a:.12g}, but should end with {b:.12g}"
    return ""


def _call(space, args):
    params, grads, lr = args
    for p, grad in zip(params, grads):
        p.grad = grad
    with replacing(space, "params", params):
        space.scaled_step(lr)
    return [(p.data, p.grad) for p in params]


agrees("scaled_step", _cases, call=_call, compare=_compare,
       name="scaled_step on new parameters, twice each")
