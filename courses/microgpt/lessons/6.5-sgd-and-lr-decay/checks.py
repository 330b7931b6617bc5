"""Checks for lesson 6.5: one SGD step, the reset of the gradients, and the decaying learning rate.

Each check starts from the weights the file made and puts them back afterwards. The gradients
expected are worked out here by a separate backward pass. gradient_check is swapped for a quick
stand-in that only notes what it was shown (the real one runs 30 forward passes), and the last
check trains a few steps and compares with SGD done here, independently. The checks of the
learning rate call train_step twice from the same weights, so a rate that depends on earlier
calls shows; the last compares train_step with ours on names of its own (longer than
block_size among them), at other steps and rates, twice each.
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
    differ,
    fail,
    number,
    replacing,
    shown,
)

FIX_LR = "The first line: `lr = learning_rate * (1 - step / num_steps)`."
FIX_STEP = "In the innermost loop: `row[k] -= lr * grad_row[k]`."
FIX_RESET = "Right after the step: `grad_row[k] = 0.0`."


def _tokens(code, step):
    doc = code.docs[step % len(code.docs)]
    return doc, [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]


def _forward(w, token):
    x = w['wte'][token]
    h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
    logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    return x, h, [e / sum(exps) for e in exps]


def _loss(w, tokens):
    n = min(16, len(tokens) - 1)
    return sum(-math.log(_forward(w, tokens[pos])[2][tokens[pos + 1]]) for pos in range(n)) / n


def _grads(w, tokens, block_size):
    """The gradients of one name's mean loss, worked out here."""
    g = {name: [[0.0] * len(row) for row in mat] for name, mat in w.items()}
    n = min(block_size, len(tokens) - 1)
    for pos in range(n):
        token, target = tokens[pos], tokens[pos + 1]
        x, h, probs = _forward(w, token)
        dl = [(p - (i == target)) / n for i, p in enumerate(probs)]
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
    return g


def _copy(w):
    return {name: [row[:] for row in mat] for name, mat in w.items()}


def _set(target, source):
    for name, mat in target.items():
        for row, values in zip(mat, source[name]):
            row[:] = values


class _State:
    """Start from the file's own weights and empty grads; put everything back when done."""

    def __init__(self, code):
        self.code = code

    def __enter__(self):
        self.start = _copy(self.code.weights)
        self.seen = []

        def stand_in(tokens, n):
            self.seen.append((_copy(self.code.grads), _copy(self.code.weights)))
            return 0.0

        self.stand_in = replacing(self.code, "gradient_check", stand_in)
        self.stand_in.__enter__()
        self.zero()
        return self

    def zero(self):
        for mat in self.code.grads.values():
            for row in mat:
                row[:] = [0.0] * len(row)

    def __exit__(self, *exc):
        self.stand_in.__exit__()
        _set(self.code.weights, self.start)
        self.zero()
        return False


def _step(code, step, num_steps, learning_rate):
    call = f"train_step({step}, {num_steps}, {learning_rate})"
    with calling(call), contextlib.redirect_stdout(io.StringIO()):
        loss = code.train_step(step, num_steps, learning_rate)
    return call, loss


def _ratios(before, after, g):
    """How far each weight moved, in units of minus its gradient: lr for a right SGD step."""
    out = []
    for name, mat in g.items():
        for i, row in enumerate(mat):
            for k, grad in enumerate(row):
                if abs(grad) > 1e-6:
                    out.append((before[name][i][k] - after[name][i][k]) / grad)
    return out


def _all(ratios, value):
    return bool(ratios) and all(close(r, value, rel=1e-6, abs_tol=1e-9) for r in ratios)


@check("a step moves each weight against its gradient")
def _(code):
    with _State(code) as state:
        doc, tokens = _tokens(code, 0)
        g = _grads(state.start, tokens, code.block_size)
        call, loss = _step(code, 0, 10, 0.5)
        moved = _ratios(state.start, code.weights, g)
        want_loss = _loss(state.start, tokens)
        if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not close(loss,
                                                                                   want_loss):
            fail(f"`{call}` returned {shown(loss)}, but it must return the loss of {doc!r} "
                 f"before the step, {number(want_loss)}: the starter's `return loss`.")
        if _all(moved, 0.5):
            return
        # Two more steps tell the lr line from the step line: the same step with twice the
        # learning_rate, and step 5 of 10, where lr should be half of it.
        _, double = _moved_by(code, state, 0, 10, 1.0)
        _, later = _moved_by(code, state, 5, 10, 0.5)
    _wrong_step(call, doc, moved, double, later)


def _uniform(ratios):
    """The one number every weight moved by (in units of minus its gradient), else None."""
    return ratios[0] if ratios and _all(ratios, ratios[0]) else None


def _wrong_step(call, doc, moved, double, later):
    seen = (f"`{call}` trains on {doc!r} with lr = 0.5 at step 0, so each weight should move by "
            "-0.5 times its gradient")
    rate, twice, halfway = _uniform(moved), _uniform(double), _uniform(later)
    if rate == 0 and halfway:
        fail(f"{seen}, but no weight moved; at step 5 of 10 they moved by {number(-halfway)} "
             "times their gradients. The weights do take their step, but lr is 0 at step 0, "
             "where it must be the whole learning_rate (0.5 here).", fix=FIX_LR)
    if rate == 0:
        fail(f"{seen}, but no weight moved, at step 0 nor at step 5 of 10: either lr is always "
             "0, or the weights never take their step inside the loops.",
             fix=FIX_LR + " " + FIX_STEP)
    if _all(moved, 0.5 * (1 - 1 / 10)):
        fail(f"{seen}, but each moved by -0.45 times its gradient: that is the rate of step 1, "
             "one step ahead, so the last step would not move at all. Step 0 must use the whole "
             "learning_rate.", fix=FIX_LR)
    if _all(moved, -0.5):
        fail(f"{seen}, but each moved by +0.5 times its gradient: uphill. The gradient points "
             "the way the loss grows, so the step must go against it; every step with the "
             "gradient makes the loss bigger.",
             fix="Step against the gradient, with `-=`, not `+=`. " + FIX_STEP)
    if rate is None:
        fail(f"{seen}, but the weights moved by different multiples of their gradients (for "
             f"example {number(moved[0])} and {number(moved[-1])}): one lr must scale every "
             "weight's gradient alike.", fix=FIX_STEP)
    if rate == twice == halfway:
        fail(f"{seen}, but each moved by {number(-rate)} times its gradient, and by the same "
             "with learning_rate 1.0 and at step 5 of 10: the step is not scaled by lr at all.",
             fix=FIX_STEP)
    if twice is not None and close(rate, twice):
        fail(f"{seen}, but each moved by {number(-rate)} times its gradient, and by the same "
             "with learning_rate 1.0: the learning_rate train_step is given is never used. lr starts "
             "from learning_rate, whatever number it is.", fix=FIX_LR)
    fail(f"{seen}, but each moved by {number(-rate)} times its gradient: lr came out as "
         f"{number(rate)} at step 0, where it must be the whole learning_rate, 0.5.")


@check("the gradients are back to 0 after the step")
def _(code):
    with _State(code):
        _doc, tokens = _tokens(code, 0)
        call, _loss_ = _step(code, 0, 10, 0.5)
        left = sum(1 for mat in code.grads.values() for row in mat for value in row if value != 0)
        total = sum(len(row) for mat in code.grads.values() for row in mat)
    if left:
        fail(f"After `{call}`, {left} of the {total} gradients are not 0. Each step's backprop "
             "adds (+=) into grads, so whatever is left there piles up: the next step would follow "
             "this name's gradients plus the next name's, the step after that three names', and "
             "so on. Each gradient must go back to 0 right after its weight has moved.",
             fix=FIX_RESET)


def _moved_by(code, state, step, num_steps, learning_rate):
    """Train one step from the file's starting weights; how far the weights moved per gradient."""
    state.zero()
    _set(code.weights, state.start)
    _doc, tokens = _tokens(code, step)
    g = _grads(state.start, tokens, code.block_size)
    call, _loss_ = _step(code, step, num_steps, learning_rate)
    return call, _ratios(state.start, code.weights, g)


@check("the learning rate decays to 0")
def _(code):
    with _State(code) as state:
        for step, num_steps in ((1, 4), (3, 4)):
            call, moved = _moved_by(code, state, step, num_steps, 1.0)
            want = 1.0 * (1 - step / num_steps)
            if _all(moved, want):
                continue
            seen = (f"`{call}` should step with lr = 1.0 × (1 - {step}/{num_steps}) = "
                    f"{number(want)}, but the weights moved by")
            _, again = _moved_by(code, state, step, num_steps, 1.0)
            if moved and again and not close(moved[0], again[0], rel=1e-6, abs_tol=1e-9):
                fail(f"{seen} {number(moved[0])} times their gradients, and called again from "
                     f"the same weights, by {number(again[0])}: the learning rate of a step "
                     "depends on the calls that came before it, not on step and num_steps "
                     "alone. Each step's rate must be worked out from those two, so that a "
                     "step gives the same move however it is reached.", fix=FIX_LR)
            if _all(moved, 1.0):
                fail(f"{seen} 1 times their gradients: the learning rate does not decay. The "
                     "first steps need big moves, but late in training a big step on one name "
                     "undoes what the others taught; the rate must shrink in a straight line to "
                     "0 at step num_steps.", fix=FIX_LR)
            if _all(moved, step / num_steps):
                fail(f"{seen} {number(step / num_steps)} times their gradients: the learning rate "
                     "grows from 0 instead of shrinking to 0.", fix=FIX_LR)
            if _all(moved, 1 - (step + 1) / num_steps):
                fail(f"{seen} {number(1 - (step + 1) / num_steps)} times their gradients: one step "
                     "ahead, so the last step (step num_steps - 1) would not move at all. Step 0 "
                     "should use the whole learning_rate.", fix=FIX_LR)
            rate = _uniform(moved)
            runs = step / (1 - rate) if rate is not None and rate < 1 else None
            if runs is not None and close(runs, round(runs), abs_tol=1e-6) and round(runs) > 0:
                fail(f"{seen} {number(rate)} times their gradients: the rate a run of "
                     f"{round(runs)} steps has at step {step}. The decay must use the "
                     f"num_steps train_step is given, {num_steps} here, so that lr reaches 0 at "
                     "the end of whatever run it is part of.", fix=FIX_LR)
            fail(f"{seen} {number(moved[0]) if moved else 0} times their gradients: lr must "
                 "shrink in a straight line, from learning_rate at step 0 to 0 at step "
                 "num_steps.", fix=FIX_LR)


@check("the gradient check comes before the update")
def _(code):
    with _State(code) as state:
        _doc, tokens = _tokens(code, 0)
        g = _grads(state.start, tokens, code.block_size)
        call, _loss_ = _step(code, 0, 10, 0.5)
        seen = state.seen
    if not seen:
        fail(f"`{call}` never ran gradient_check: at step 0, train_step must check the gradients "
             "(the `if step == 0:` lines of the starter).")
    grads_then, weights_then = seen[0]
    right = all(close(a, b, rel=1e-7, abs_tol=1e-12)
                for name in g for ra, rb in zip(grads_then[name], g[name]) for a, b in zip(ra, rb))
    if right and weights_then == state.start:
        return
    fail(f"When `{call}` ran gradient_check, the weights had already moved and the gradients "
         "had already been reset: the check compared slopes at new weights with gradients that "
         "were gone, and would report a large difference for right code. Update the weights "
         "only after the `if step == 0:` check.")


@check("a few steps lower the loss")
def _(code):
    with _State(code) as state:
        names = [_tokens(code, step) for step in range(3)]
        before = sum(_loss(state.start, tokens) for _doc, tokens in names) / 3
        mine = _copy(state.start)
        for step, (_doc, tokens) in enumerate(names):
            g = _grads(mine, tokens, code.block_size)
            lr = 1.0 * (1 - step / 3)
            for name, mat in mine.items():
                for row, grad_row in zip(mat, g[name]):
                    for k in range(len(row)):
                        row[k] -= lr * grad_row[k]
        with calling("train_step(step, 3, 1.0) for step 0, 1 and 2"), \
                contextlib.redirect_stdout(io.StringIO()):
            for step in range(3):
                code.train_step(step, 3, 1.0)
        after = sum(_loss(code.weights, tokens) for _doc, tokens in names) / 3
        same = all(close(a, b, rel=1e-7, abs_tol=1e-12) for name in mine
                   for ra, rb in zip(mine[name], code.weights[name]) for a, b in zip(ra, rb))
    listed = ", ".join(repr(doc) for doc, _tokens_ in names)
    if not after < before:
        fail(f"Three steps of train_step on {listed} (learning_rate 1.0, num_steps 3) took their "
             f"mean loss from {number(before)} to {number(after)}: it should go down.")
    if not same:
        fail(f"Three steps of train_step on {listed} lowered their mean loss from "
             f"{number(before)} to {number(after)}, but the weights differ from SGD done here "
             "step by step: the updates or the learning rates are not quite right.")
    return (f"Three steps on {listed} took their mean loss from {before:.4f} to {after:.4f}, "
            "exactly as SGD done here.")


# --- train_step on names of its own -----------------------------------------------------------

def _trainings(rng):
    """(names as fractions of the alphabet, step, num_steps, learning_rate): names longer than
    block_size among them, steps late in a run and rates other than train1's."""
    for lengths, step, num_steps, rate, note in (
            ((4, 7, 3), 1, 10, 0.5, ""),
            ((5, 20), 1, 4, 2.0, "a 20-letter name, longer than block_size"),
            ((8,), 999, 1000, 1.0, "the last step of train1's 1000")):
        names = [[rng.random() for _ in range(length)] for length in lengths]
        text = (f"train_step({step}, {num_steps}, {rate}) with docs of {len(lengths)} names of "
                f"{', '.join(str(length) for length in lengths)} letters and weights of new "
                "numbers")
        weights = {'wte': [[round(rng.gauss(0, 0.3), 4) for _ in range(16)] for _ in range(27)],
                   'mlp_fc1': [[round(rng.gauss(0, 0.3), 4) for _ in range(16)]
                               for _ in range(64)],
                   'mlp_fc2': [[round(rng.gauss(0, 0.3), 4) for _ in range(64)]
                               for _ in range(27)]}
        yield Case(text, lambda space, names=names, weights=weights, args=(step, num_steps, rate): (
            args, ["".join(space.chars[int(x * len(space.chars))] for x in name) for name in names],
            {key: [row[:len(space.weights[key][0])] for row in mat[:len(space.weights[key])]]
             for key, mat in weights.items()}), note)


def _trained(space, args):
    """train_step(*args[0]) on docs args[1], from weights args[2] and empty grads, with
    gradient_check as a quiet stand-in; the loss, and the weights and grads it left."""
    (step, num_steps, rate), docs, weights = args
    grads = {key: [[0.0] * len(row) for row in mat] for key, mat in weights.items()}
    with replacing(space, "docs", docs), replacing(space, "weights", weights), \
            replacing(space, "grads", grads), \
            replacing(space, "gradient_check", lambda tokens, n: 0.0), \
            contextlib.redirect_stdout(io.StringIO()):
        loss = space.train_step(step, num_steps, rate)
    return loss, weights, grads


def _after(got, want):
    """Where (loss, weights, grads) part from ours, named by part."""
    for label, mine, ours in (("the loss it returned", got[0], want[0]),
                              *((f"weights[{key!r}] after the step", got[1][key], want[1][key])
                                for key in want[1]),
                              *((f"grads[{key!r}] after the step", got[2][key], want[2][key])
                                for key in want[2])):
        problem = differ(mine, ours, rel=1e-7, abs_tol=1e-12)
        if problem:
            return f"{label}: {problem}"
    return ""


agrees("train_step", _trainings, call=_trained, compare=_after,
       name="train_step on names of its own, twice each")
