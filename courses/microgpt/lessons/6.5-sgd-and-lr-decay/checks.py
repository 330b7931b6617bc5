"""Checks for lesson 6.5: one SGD step, the reset of the gradients, and the decaying learning rate.

Each check starts from the weights the file made and puts them back afterwards. The gradients
expected are worked out here by a separate backward pass. gradient_check is swapped for a quick
stand-in that only notes what it was shown (the real one runs 30 forward passes), and the last
check trains a few steps and compares with SGD done here, independently.
"""
import contextlib
import io
import math

from linebyline.runtime import calling, check, close, fail, number, replacing, shown


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
    if isinstance(loss, bool) or not isinstance(loss, (int, float)) or not close(loss, want_loss):
        fail(f"`{call}` returned {shown(loss)}, but it must return the loss of {doc!r} before "
             f"the step, {number(want_loss)}: the starter's `return loss`.")
    if _all(moved, 0.5):
        return
    seen = (f"`{call}` trains on {doc!r} with lr = 0.5 at step 0, so each weight should move by "
            "-0.5 times its gradient")
    if _all(moved, 0.0):
        fail(f"{seen}, but no weight moved. At step 0, lr must be the whole learning_rate "
             "(0.5 here): is lr still 0.0, or does it start from 0? And inside the loops, each "
             "weight must change: row[k] -= lr * grad_row[k].")
    if _all(moved, 0.5 * (1 - 1 / 10)):
        fail(f"{seen}, but each moved by -0.45 times its gradient: lr is one step ahead, "
             "learning_rate * (1 - (step + 1) / num_steps), so the last step would not move at "
             "all. Step 0 must use the whole learning_rate: 1 - step / num_steps.")
    if _all(moved, -0.5):
        fail(f"{seen}, but each moved by +0.5 times its gradient: uphill. The gradient points "
             "the way the loss grows, so the step must go against it: `row[k] -= lr * "
             "grad_row[k]`, not `+=`. Every step with `+=` makes the loss bigger.")
    if _all(moved, 1.0):
        fail(f"{seen}, but each moved by its whole gradient: the step must be lr times the "
             "gradient, `row[k] -= lr * grad_row[k]`.")
    fail(f"{seen}; the weights moved by something else (for example -{number(moved[0])} times "
         "the gradient). Write `row[k] -= lr * grad_row[k]`.")


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
             "so on. Right after updating a weight, set its gradient back: "
             "`grad_row[k] = 0.0`.")


@check("the learning rate decays to 0")
def _(code):
    with _State(code) as state:
        for step, num_steps in ((1, 4), (3, 4)):
            state.zero()
            _set(code.weights, state.start)
            _doc, tokens = _tokens(code, step)
            g = _grads(state.start, tokens, code.block_size)
            call, _loss_ = _step(code, step, num_steps, 1.0)
            moved = _ratios(state.start, code.weights, g)
            want = 1.0 * (1 - step / num_steps)
            if _all(moved, want):
                continue
            seen = (f"`{call}` should step with lr = 1.0 × (1 - {step}/{num_steps}) = "
                    f"{number(want)}, but the weights moved by")
            if _all(moved, 1.0):
                fail(f"{seen} 1 times their gradients: the learning rate does not decay. The "
                     "first steps need big moves, but late in training a big step on one name "
                     "undoes what the others taught. Shrink it in a straight line: "
                     "lr = learning_rate * (1 - step / num_steps).")
            if _all(moved, step / num_steps):
                fail(f"{seen} {number(step / num_steps)} times their gradients: the learning rate "
                     "grows from 0 instead of shrinking to 0. Use 1 - step / num_steps.")
            if _all(moved, 1 - (step + 1) / num_steps):
                fail(f"{seen} {number(1 - (step + 1) / num_steps)} times their gradients: one step "
                     "ahead, so the last step (step num_steps - 1) would not move at all. Step 0 "
                     "should use the whole learning_rate: 1 - step / num_steps.")
            fail(f"{seen} {number(moved[0]) if moved else 0} times their gradients. Write "
                 "lr = learning_rate * (1 - step / num_steps).")


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
