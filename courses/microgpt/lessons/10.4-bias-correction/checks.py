"""Checks for lesson 10.4: m_hat and v_hat, m and v divided by the total weight of the
gradients they hold, 1 - beta ** (step + 1).

m_hat and v_hat live only inside adam_step, so the checks read them off the one line that uses
them, the given update p.data -= lr * m_hat / (v_hat ** 0.5 + eps), by calling adam_step twice
on one parameter that starts at 0: once with eps made 10**12 (then the parameter moves by
lr * m_hat / 10**12, which gives m_hat) and once with eps at 0 (it moves by lr * m_hat /
v_hat ** 0.5, which then gives v_hat). Each slip (no correction, step instead of step + 1, the
betas swapped, a power of 1 - beta, the corrected value written back into m) leaves its own
numbers at step 0 or at step 9. Then m and v must stay uncorrected from step to step, two real
steps of microgpt must move every parameter as Adam done here does, and adam_step is compared
with ours on new parameters, twice each.
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
    shown,
)

BETA1, BETA2 = 0.85, 0.99
HUGE = 1e12
HATS_FIX = ("`m_hat = m[i] / (1 - beta1 ** (step + 1))`, then "
            "`v_hat = v[i] / (1 - beta2 ** (step + 1))`")
M_HAT_FIX = "`m_hat = m[i] / (1 - beta1 ** (step + 1))`"
V_HAT_FIX = "`v_hat = v[i] / (1 - beta2 ** (step + 1))`"


def _call_one(code, grad, step, m0, v0, eps, betas):
    """adam_step(step) on one parameter at 0 with this grad, m and v, and the file's eps, beta1
    and beta2 set to `eps` and `betas`: (its move, m, v)."""
    p = code.Value(0.0)
    p.grad = grad
    m, v = [m0], [v0]
    with replacing(code, "params", [p]), replacing(code, "m", m), replacing(code, "v", v), \
            replacing(code, "eps", eps), replacing(code, "beta1", betas[0]), \
            replacing(code, "beta2", betas[1]):
        with calling(f"adam_step({step})"):
            code.adam_step(step)
    return -p.data, m[0], v[0]


def _hats(code, grad, step, m0, v0, betas=(BETA1, BETA2)):
    """(m_hat, v_hat, m, v) as the learner's adam_step works them out for one parameter."""
    lr = code.learning_rate * (1 - step / code.num_steps)
    small, m, v = _call_one(code, grad, step, m0, v0, HUGE, betas)
    whole, _, _ = _call_one(code, grad, step, m0, v0, 0.0, betas)
    # small = lr * m_hat / (root + HUGE) and whole = lr * m_hat / root, where root = v_hat ** 0.5:
    # so 1/small - 1/whole = HUGE / (lr * m_hat). A negative v_hat has a complex root, so the
    # moves may be complex: the real parts are what is read.
    if not small or not whole:
        return 0.0, float("nan"), m, v
    m_hat = complex(HUGE / (lr * (1 / small - 1 / whole))).real
    v_hat = complex((lr * m_hat / whole) ** 2).real
    return m_hat, v_hat, m, v


def _near(a, b):
    return close(a, b, rel=1e-6, abs_tol=1e-12)


def _m_slip(m_hat, m1, step):
    t = step + 1
    if _near(m_hat, m1):
        return ("m_hat is m itself, not corrected: m started at 0 and holds only "
                f"1 - 0.85^{t} = {number(1 - BETA1 ** t)} of the gradients' weight so far, so "
                "divide it by that.")
    if step and _near(m_hat, m1 / (1 - BETA1 ** step)):
        return (f"m_hat is m divided by 1 - 0.85^{step}, one power short: this is step number "
                f"{t} (step counts from 0), so m holds 1 - 0.85^{t} of the weight. With the "
                "power `step`, the very first step divides by 1 - 0.85^0 = 0.")
    if _near(m_hat, m1 / (1 - BETA2 ** t)):
        return ("m_hat is m divided by v's total weight, 1 - beta2 ** (step + 1): m's "
                "gradients were blended with beta1, so its total weight is a power of beta1.")
    if _near(m_hat, m1 / (1 - BETA1) ** t):
        return (f"m_hat is m divided by (1 - 0.85)^{t}, a power of 1 - beta1. The total "
                f"weight is 1 minus a power of beta1: 1 - 0.85^{t} = {number(1 - BETA1 ** t)}.")
    if _near(m_hat, m1 * (1 - BETA1 ** t)):
        return ("m_hat is m multiplied by its total weight, making it smaller still: it has to "
                "be divided by it.")
    if _near(m_hat, m1 - BETA1 ** t):
        return ("m_hat is m minus 0.85 to a power: the division needs brackets around "
                "1 - beta1 ** (step + 1), or it divides by 1 and then subtracts.")
    return _divisor("m_hat", "m", m_hat, m1, f"1 - 0.85^{t} = {number(1 - BETA1 ** t)}")


def _divisor(hat, mean, got, raw, weight):
    """What a learner's hat divided its mean by, against the total weight it should be."""
    if not got or got != got or not raw:
        return (f"Your {hat} came out as {number(got)}, not {mean} divided by anything: it has "
                f"to be {mean} divided by its total weight, {weight}.")
    return (f"Your {hat} is {mean} divided by {number(raw / got)}, where the total weight of "
            f"what {mean} holds is {weight}.")


def _v_slip(v_hat, v1, step):
    t = step + 1
    if _near(v_hat, v1):
        return ("v_hat is v itself, not corrected: v started at 0 and holds only "
                f"1 - 0.99^{t} = {number(1 - BETA2 ** t)} of the squares' weight so far.")
    if step and _near(v_hat, v1 / (1 - BETA2 ** step)):
        return (f"v_hat is v divided by 1 - 0.99^{step}, one power short: this is step number "
                f"{t}, so v holds 1 - 0.99^{t} of the weight.")
    if _near(v_hat, v1 / (1 - BETA1 ** t)):
        return ("v_hat is v divided by m's total weight, 1 - beta1 ** (step + 1): v's "
                "squares were blended with beta2, so its total weight is a power of beta2.")
    if _near(v_hat, v1 / (1 - BETA2) ** t):
        return (f"v_hat is v divided by (1 - 0.99)^{t}, a power of 1 - beta2. The total "
                f"weight is 1 minus a power of beta2: 1 - 0.99^{t} = {number(1 - BETA2 ** t)}.")
    if _near(v_hat, v1 * (1 - BETA2 ** t)):
        return "v_hat is v multiplied by its total weight: it has to be divided by it."
    if _near(v_hat, v1 - BETA2 ** t):
        return ("v_hat is v minus 0.99 to a power, which is below 0, and a number below 0 has no "
                "real root: the division needs brackets around 1 - beta2 ** (step + 1), or it "
                "divides by 1 and then subtracts.")
    return _divisor("v_hat", "v", v_hat, v1, f"1 - 0.99^{t} = {number(1 - BETA2 ** t)}")


def _judge(code, grad, step, m0, v0, seen):
    try:
        m_hat, v_hat, m1, v1 = _hats(code, grad, step, m0, v0)
    except ZeroDivisionError:
        fail(f"{seen}, but adam_step({step}) raised ZeroDivisionError. At step 0, the first "
             "one, a total weight of 1 - beta1 ** step is 1 - 0.85^0 = 1 - 1 = 0: step counts "
             "from 0, so after this step m holds step + 1 gradients, and the weight is "
             "1 - beta1 to the power step + 1.", fix=HATS_FIX)
    t = step + 1
    raw_m, raw_v = BETA1 * m0 + (1 - BETA1) * grad, BETA2 * v0 + (1 - BETA2) * grad * grad
    if _near(m1, raw_m / (1 - BETA1 ** t)) or _near(v1, raw_v / (1 - BETA2 ** t)):
        fail(f"{seen}. adam_step left m at {number(m1)} and v at {number(v1)}, where the running "
             f"means are {number(raw_m)} and {number(raw_v)}: the correction was written back "
             "into m[i] and v[i]. They have to stay the plain running means, or the next step "
             "corrects them again, on top of this correction; the corrected values go into "
             "m_hat and v_hat only.", fix=HATS_FIX)
    if not _near(m1, raw_m) or not _near(v1, raw_v):
        fail(f"{seen}, but adam_step left m at {number(m1)} and v at {number(v1)}, where the "
             f"given lines make {number(raw_m)} and {number(raw_v)}: the lines that update m[i] "
             "and v[i] have changed. Put them back as they were.")
    want_m = m1 / (1 - BETA1 ** t)
    want_v = v1 / (1 - BETA2 ** t)
    m_ok, v_ok = _near(m_hat, want_m), _near(v_hat, want_v)
    if m_ok and v_ok:
        return
    told = (f"{seen}. Read off your update, your m_hat is {number(m_hat)} and your v_hat "
            f"{number(v_hat)}")
    if not m_ok and not v_ok and _near(m_hat, m1) and _near(v_hat, v1):
        fail(f"{told}: neither is corrected, they are m and v themselves. m and v started at 0, "
             f"so after {plural(t, 'step')} they hold only 1 - beta1^{t} and 1 - beta2^{t} of their "
             "gradients' weight; divide each by that.", fix=HATS_FIX)
    if not m_ok and not v_ok and step and _near(m_hat, m1 / (1 - BETA1 ** step)) and _near(
            v_hat, v1 / (1 - BETA2 ** step)):
        fail(f"{told}: both are divided by 1 - beta to the power {step}, one power short. This "
             f"is step number {t} (step counts from 0), so m and v hold {t} gradients' worth "
             "of weight: the power is step + 1. (With the power step, the first step divides "
             "by 1 - beta^0 = 0.)", fix=HATS_FIX)
    if not m_ok and not v_ok and _near(m_hat, m1 / (1 - BETA2 ** t)) and _near(
            v_hat, v1 / (1 - BETA1 ** t)):
        fail(f"{told}: beta1 and beta2 are swapped in the corrections. m was blended with "
             "beta1, so its weight is 1 - beta1 ** (step + 1); v with beta2.", fix=HATS_FIX)
    if not m_ok and not v_ok:
        fail(f"{told}, where m / (1 - 0.85^{t}) is {number(want_m)} and v / (1 - 0.99^{t}) is "
             f"{number(want_v)}. " + " ".join(filter(None, (_m_slip(m_hat, m1, step),
                                                           _v_slip(v_hat, v1, step)))),
             fix=HATS_FIX)
    if not m_ok:
        fail(f"{told}: v_hat is right, but m_hat should be m / (1 - 0.85^{t}) = "
             f"{number(want_m)}. " + _m_slip(m_hat, m1, step), fix=M_HAT_FIX)
    fail(f"{told}: m_hat is right, but v_hat should be v / (1 - 0.99^{t}) = {number(want_v)}. "
         + _v_slip(v_hat, v1, step), fix=V_HAT_FIX)


@check("at the first step, m_hat and v_hat are the gradient and its square")
def _(code):
    _judge(code, 2.0, 0, 0.0, 0.0,
           "At step 0 with a gradient of 2, m becomes 0.15 × 2 = 0.3 and v 0.01 × 4 = 0.04: "
           "only 15% and 1% of what they measure, because both started at 0. Corrected, "
           "m_hat = 0.3 / (1 - 0.85) = 2 and v_hat = 0.04 / (1 - 0.99) = 4, the gradient and "
           "its square")


@check("at step 9 the correction is smaller")
def _(code):
    m0, v0 = 0.5, 0.02
    m1, v1 = BETA1 * m0 + (1 - BETA1) * 1.0, BETA2 * v0 + (1 - BETA2) * 1.0
    _judge(code, 1.0, 9, m0, v0,
           f"At step 9, the tenth, with m = 0.5, v = 0.02 and a gradient of 1, m becomes "
           f"{number(m1)} and v {number(v1)}; their total weights are 1 - 0.85^10 = "
           f"{number(1 - BETA1 ** 10)} and 1 - 0.99^10 = {number(1 - BETA2 ** 10)}, so m_hat "
           f"should be {number(m1 / (1 - BETA1 ** 10))} and v_hat "
           f"{number(v1 / (1 - BETA2 ** 10))}")


@check("the corrections follow beta1 and beta2")
def _(code):
    betas = (0.7, 0.9)
    m_hat, v_hat, m1, v1 = _hats(code, 2.0, 0, 0.0, 0.0, betas)
    want_m, want_v = m1 / (1 - betas[0]), v1 / (1 - betas[1])
    m_ok, v_ok = _near(m_hat, want_m), _near(v_hat, want_v)
    if m_ok and v_ok:
        return
    seen = ("With the file's beta1 set to 0.7 and beta2 to 0.9 for one call, adam_step(0) with "
            f"a gradient of 2 makes m = 0.3 × 2 = {number(m1)} and v = 0.1 × 4 = {number(v1)}; "
            f"corrected, m_hat = {number(m1)} / (1 - 0.7) = {number(want_m)} and v_hat = "
            f"{number(v1)} / (1 - 0.9) = {number(want_v)}, the gradient and its square, whatever "
            f"the betas. Read off your update, your m_hat is {number(m_hat)} and your v_hat "
            f"{number(v_hat)}")
    stuck = []
    if not m_ok and _near(m_hat, m1 / (1 - BETA1)):
        stuck.append("m_hat is m divided by 1 - 0.85, what beta1 = 0.85 gives")
    if not v_ok and _near(v_hat, v1 / (1 - BETA2)):
        stuck.append("v_hat is v divided by 1 - 0.99, what beta2 = 0.99 gives")
    if len(stuck) == (not m_ok) + (not v_ok):
        fail(f"{seen}: {'; and '.join(stuck)}. The {'corrections' if len(stuck) == 2 else 'correction'} "
             "did not follow the settings when they changed, so with other betas m_hat and v_hat "
             "would no longer be the gradient and its square at the first step.", fix=HATS_FIX)
    fail(f"{seen}.", fix=HATS_FIX)


@check("m and v themselves stay uncorrected")
def _(code):
    p = code.Value(0.0)
    m, v = [0.0], [0.0]
    with replacing(code, "params", [p]), replacing(code, "m", m), replacing(code, "v", v):
        for step in range(2):
            p.grad = 2.0
            with calling(f"adam_step({step})"):
                code.adam_step(step)
            want_m = 0.3 if step == 0 else 0.85 * 0.3 + 0.3
            want_v = 0.04 if step == 0 else 0.99 * 0.04 + 0.04
            if not (_near(m[0], want_m) and _near(v[0], want_v)):
                fail(f"After adam_step({step}) with a gradient of 2 (from m = v = 0), m should be "
                     f"{number(want_m)} and v {number(want_v)}, the running means as they are, "
                     f"but yours are {number(m[0])} and {number(v[0])}. The correction belongs "
                     "in m_hat and v_hat only: written back into m[i] and v[i], it is applied "
                     "again at every step, on top of the last one.", fix=HATS_FIX)


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
                want = data - lr * m_hat / (v_hat ** 0.5 + 1e-8)
                if not close(code.params[i].data, want, rel=1e-9, abs_tol=1e-15):
                    wrong.append((i, want, data, g, mean[i], square[i]))
            if wrong:
                fail(_off(code, step, wrong, count), fix=HATS_FIX)
    return (f"Two steps, {NAMES[0]!r} then {NAMES[1]!r}: all {count:,} parameters where Adam done "
            "here puts them.")


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
    steps at the very start and at the end; called twice, the second call continues from the
    means the first one left."""
    plans = [
        ([2.0, -0.5], [0.0, 0.0], [0.0, 0.0], 0, "the very first step"),
        ([0.0, 0.25, -3.0], [0.5, -1.0, 2.0], [0.1, 2.0, 0.3], 1, ""),
        ([0.0, 1e-9, -2e-6, 40.0, -0.5], [0.0] * 5, [0.0] * 5, 4, "gradients of 0, 1e-9 and 40"),
        ([0.3, -0.2], [0.05, 0.01], [0.02, 0.001], 998, "the next-to-last step: the "
         "corrections are all but 1"),
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
