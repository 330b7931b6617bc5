"""Checks for lesson 7.1, What gets deleted: train2's step, with backward() where train1's
hand-written chain rule was.

Every check starts from the weights the file made and puts them back afterwards (and docs, for
the names it trains on: short ones, because a step of train2 is slow). What the step should do
is worked out here independently, with plain floats and train1's own formulas (probabilities
minus one-hot, then back through the layers): the loss, and the gradient of every one of the
3,184 parameters. A step of SGD with learning rate 1 moves each parameter by minus its
gradient, so the update shows what backward() filled in.
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
    cut_off,
    fail,
    matrix_leaves,
    number,
    replacing,
    shown,
)

NAMES = ["ada", "bo", "al"]  # short names for the checks' own steps: a step of train2 is slow
FORWARD_FIX = ("The two lines: `probs = softmax(mlp(tokens[pos]))` and "
               "`losses.append(-probs[tokens[pos + 1]].log())`.")
BACKWARD_FIX = "After the loss: `loss.backward()`."
PRINT_FIX = 'At the end: `print(f"step {step + 1:4d} / {num_steps} | loss {loss.data:.4f}")`.'


# --- train1's arithmetic, on plain floats: what the step should do -------------------------

def _floats(code):
    return {name: [[p.data for p in row] for row in mat] for name, mat in code.weights.items()}


def _forward(w, token):
    x = w['wte'][token]
    h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
    logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    return x, h, [e / total for e in exps]


def _expected(code, doc, target_shift=1, w=None):
    """(the mean loss, the gradient of every weight) for one name, as train1 works them out,
    at the weights `w` (plain floats; the file's own weights when not given)."""
    tokens = [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]
    w = w or _floats(code)
    g = {name: [[0.0] * len(row) for row in mat] for name, mat in w.items()}
    n = min(code.block_size, len(tokens) - 1)
    loss = 0.0
    for pos in range(n):
        token, target = tokens[pos], tokens[pos + target_shift]
        x, h, probs = _forward(w, token)
        loss += -math.log(probs[target]) / n
        dlogits = [(p - (i == target)) / n for i, p in enumerate(probs)]
        dh = [0.0] * len(h)
        for i, d in enumerate(dlogits):
            for j, hj in enumerate(h):
                g['mlp_fc2'][i][j] += d * hj
                dh[j] += d * w['mlp_fc2'][i][j]
        for j, d in enumerate(dh):
            if h[j] > 0:
                for k, xk in enumerate(x):
                    g['mlp_fc1'][j][k] += d * xk
                    g['wte'][token][k] += d * w['mlp_fc1'][j][k]
    return loss, g


# --- one step of the learner's train_step, watched ------------------------------------------

class _Step:
    """What train_step(step) did on the name `doc`: its result, what it printed, how each
    weight moved. The weights and their grads are put back afterwards."""

    def __init__(self, code, doc, step=0):
        self.doc, self.step = doc, step
        self.call = f"train_step({step}) on the name {doc!r}"
        self.before = _floats(code)
        self.grads_before = [p.grad for p in code.params]
        out = io.StringIO()
        try:
            with replacing(code, "docs", [doc] * (step + 1)), contextlib.redirect_stdout(out), \
                    calling(self.call):
                self.loss = code.train_step(step)
            self.error = None
        except (TypeError, AttributeError) as error:
            self.loss, self.error = None, error
        finally:
            self.printed = out.getvalue()
            self.after = _floats(code)
            _put(code, self.before)
            for p, grad in zip(code.params, self.grads_before):
                p.grad = grad

    def moved(self, name, i, k):
        return self.after[name][i][k] - self.before[name][i][k]


_steps = {}


def _first_step(code):
    """train_step(0) on NAMES[0], run once for the first three checks."""
    if id(code) not in _steps:
        _steps[id(code)] = _Step(code, NAMES[0])
    return _steps[id(code)]


def _explain_error(step, first=True):
    """A TypeError or AttributeError the step raised, told in the lesson's words (the first
    check tells why; the later ones point to it)."""
    error, text = step.error, str(step.error)
    seen = f"`{step.call}` raised {type(error).__name__}: {text}."
    if not first:
        fix = PRINT_FIX if "Value.__format__" in text else FORWARD_FIX
        fail(f"{seen} The first check, on the loss, says why.", fix=fix)
    if "must be real number, not Value" in text:
        fail(f"{seen} math.log works on plain numbers only, and was handed a Value, a "
             "probability. Value has a log of its own, which makes a node that remembers the "
             "probability it came from.", fix=FORWARD_FIX)
    if "object has no attribute 'backward'" in text:
        kind = text.split("'")[1]
        fail(f"{seen} The loss is a plain {kind}, not a Value: a plain number has no "
             "children and no backward(), so nothing can lead back from it to the weights. "
             "Every step from the logits to the loss must stay on Values (a Value's .data is "
             "a plain number).", fix=FORWARD_FIX)
    if "unsupported format string passed to Value.__format__" in text:
        fail(f"{seen} The loss is a Value, and a Value has no number format of its own: "
             "`:.4f` needs its number, loss.data.", fix=PRINT_FIX)
    raise error


@check("the loss is a Value, equal to train1's")
def _(code):
    step = _first_step(code)
    want, _grads = _expected(code, step.doc)
    if step.error is not None:
        _explain_error(step)
    loss = step.loss
    if not hasattr(loss, "_children"):
        fail(f"`{step.call}` returned {shown(loss)}, but should return the loss as a Value "
             f"(holding {number(want)}): the mean of the losses appended for each position. "
             "Is anything appended to losses yet?", fix=FORWARD_FIX)
    got = loss.data
    if close(got, want, rel=1e-9, abs_tol=1e-12):
        _check_graph(code, step)
        return
    seen = (f"`{step.call}` gave the loss {number(got)}, but train1's arithmetic gives "
            f"{number(want)} for the same name and weights")
    if close(got, -want, rel=1e-9, abs_tol=1e-12):
        fail(f"{seen}: yours is minus that. The surprise at a letter is -log p: log of a "
             "probability is below 0, and the minus makes it a positive loss to bring down.",
             fix=FORWARD_FIX)
    same, _g = _expected(code, step.doc, target_shift=0)
    if close(got, same, rel=1e-9, abs_tol=1e-12):
        fail(f"{seen}: yours is exactly the mean surprise at the current letter, tokens[pos], "
             "where each position must be scored on the next one, tokens[pos + 1].",
             fix=FORWARD_FIX)
    fail(f"{seen}: the mean over the positions of -log p(the next letter).", fix=FORWARD_FIX)


def _used(code, doc):
    """The weights one step on `doc` computes from, named: every weight of both layers, and the
    embedding rows of the letters the positions read."""
    tokens = [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]
    rows = sorted(set(tokens[:min(code.block_size, len(tokens) - 1)]))
    used = {f"wte[{i}][{k}]": p for i in rows for k, p in enumerate(code.weights['wte'][i])}
    used.update(matrix_leaves("mlp_fc1", code.weights['mlp_fc1']))
    used.update(matrix_leaves("mlp_fc2", code.weights['mlp_fc2']))
    return tokens, used


def _cut_leaves(code, loss, doc):
    """(the weights the loss's graph does not reach, how many it should, the first position
    positions whose surprise sits in the graph as a Value with no children, of how many)."""
    tokens, used = _used(code, doc)
    cut = cut_off(loss, used)
    if not cut:
        return cut, len(used), ([], 0)
    w = _floats(code)
    surprises = [-math.log(_forward(w, tokens[pos])[2][tokens[pos + 1]])
                 for pos in range(min(code.block_size, len(tokens) - 1))]
    weights = {id(p) for p in used.values()}
    leaves, seen, stack = [], set(), [loss]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        children = getattr(node, "_children", ()) or ()
        if not children and id(node) not in weights:
            leaves.append(node.data)
        stack.extend(children)
    cut_at = [pos for pos, s in enumerate(surprises)
              if any(close(x, s, rel=1e-9, abs_tol=1e-12) for x in leaves)]
    return cut, len(used), (cut_at, len(surprises))


def _check_graph(code, step):
    """The loss has the right number: does its graph reach every weight it is computed from?"""
    cut, total, cut_at = _cut_leaves(code, step.loss, step.doc)
    if not cut:
        return
    shown_cut = ", ".join(cut[:3]) + (f" and {len(cut) - 3} more" if len(cut) > 3 else "")
    how_many = (f"none of the {total} weights it is computed from is" if len(cut) == total
                else f"{len(cut)} of the {total} weights it is computed from are not")
    at, positions = cut_at
    if at:
        whose = ("Each position's surprise is" if len(at) == positions else
                 f"The surprise at position {at[0]} is")
        where = (f" {whose} in it as a Value with no children, made from a plain number (a "
                 ".data): the path down to the weights stops there.")
    else:
        where = (" Somewhere between the logits and the loss, a Value was made from a plain "
                 "number (a .data): it has no children, so the path down to the weights stops "
                 "there.")
    fail(f"`{step.call}` gave the right loss, {number(step.loss.data)}, but {how_many} in its "
         f"graph ({shown_cut}).{where} backward() follows exactly these children, so no "
         "gradient could reach those weights and the update would never move them.",
         fix=FORWARD_FIX)


@check("backward() fills in every gradient train1 wrote by hand")
def _(code):
    step = _first_step(code)
    if step.error is not None:
        _explain_error(step, first=False)
    _loss, grads = _expected(code, step.doc)
    lr = code.learning_rate * (1 - step.step / code.num_steps)
    moved = total = 0
    worst = None
    for name, mat in grads.items():
        for i, row in enumerate(mat):
            for k, g in enumerate(row):
                total += 1
                shift = step.moved(name, i, k)
                moved += shift != 0
                if not close(shift, -lr * g, rel=1e-7, abs_tol=1e-12) and worst is None:
                    worst = (name, i, k, shift, -lr * g)
    if worst is None:
        return (f"All {total} parameters moved exactly as train1's hand-written gradients "
                "say.")
    if moved == 0:
        seen = (f"After `{step.call}`, none of the {total} parameters moved: every p.grad was "
                "still 0 when the update read it.")
        if hasattr(step.loss, "_children") and _cut_leaves(code, step.loss, step.doc)[0]:
            fail(f"{seen} The loss's graph does not reach the weights (the first check says "
                 "where it stops), so backward() had no path to them.", fix=FORWARD_FIX)
        fail(f"{seen} Nothing has filled in the gradients: backward() on the loss is what walks "
             "the graph and does it.", fix=BACKWARD_FIX)
    name, i, k, shift, want = worst
    fail(f"After `{step.call}` (learning rate {number(lr)}), {name}[{i}][{k}] moved by "
         f"{number(shift)}, but train1's hand-written chain rule says {number(want)}: minus "
         "the learning rate times its gradient. backward() must run once, on the loss of the "
         "whole name, before the update.", fix=BACKWARD_FIX)


@check("the step prints its loss as train1 did")
def _(code):
    step = _first_step(code)
    if step.error is not None:
        _explain_error(step, first=False)
    want = f"step {step.step + 1:4d} / {code.num_steps} | loss {step.loss.data:.4f}"
    lines = [line for line in step.printed.splitlines() if line.strip()]
    if want in lines:
        _check_steps_read(code)
        return
    if not lines:
        fail(f"`{step.call}` printed nothing, but should print {want!r}: one line per step, "
             "as train1 does.", fix=PRINT_FIX)
    got = lines[-1]
    if "Value object" in got or "<" in got:
        fail(f"`{step.call}` printed {got!r}, but should print {want!r}: printing a Value "
             "shows the object, not its number. The loss's number is loss.data.",
             fix=PRINT_FIX)
    fail(f"`{step.call}` printed {got!r}, but should print {want!r}, exactly as train1 "
         "prints its steps (the step counted from 1, 4 wide; the loss to 4 decimals).",
         fix=PRINT_FIX)


OTHER_STEPS = 300  # num_steps for a second print: the line must read it, not say 1000


def _check_steps_read(code):
    """The line printed when num_steps is another number: it must say that number."""
    weights, params = _small_model(code, 5)
    out = io.StringIO()
    call = f"train_step(0) with num_steps = {OTHER_STEPS}"
    with replacing(code, "docs", ["ada"]), replacing(code, "weights", weights), \
            replacing(code, "params", params), replacing(code, "num_steps", OTHER_STEPS), \
            contextlib.redirect_stdout(out), calling(call):
        loss = code.train_step(0)
    want = f"step    1 / {OTHER_STEPS} | loss {loss.data:.4f}"
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    if want in lines:
        return
    got = lines[-1] if lines else ""
    said = (f": it says {code.num_steps}, the file's own num_steps, even when num_steps holds "
            "another number" if f"/ {code.num_steps} " in got else "")
    fail(f"`{call}` printed {got!r}, where it should print {want!r}{said}. The number of steps "
         "must be read from num_steps, as the step and the loss are read from theirs.",
         fix=PRINT_FIX)


@check("three steps match train1's losses to the last digit")
def _(code):
    saved = _floats(code)
    w = _floats(code)  # train1's own run: plain floats, its gradients, its SGD
    got, want = [], []
    try:
        for index, doc in enumerate(NAMES):
            loss, grads = _expected(code, doc, w=w)
            want.append(loss)
            lr = code.learning_rate * (1 - index / code.num_steps)
            for name, mat in w.items():
                for row, grad_row in zip(mat, grads[name]):
                    for k in range(len(row)):
                        row[k] -= lr * grad_row[k]
            step = _Step(code, doc, index)
            if step.error is not None:
                _explain_error(step, first=False)
            got.append(getattr(step.loss, "data", step.loss))
            _put(code, step.after)  # train2 goes on from the weights its step left
    finally:
        _put(code, saved)
    for index, (g, w_) in enumerate(zip(got, want)):
        if not close(g, w_, rel=1e-9, abs_tol=1e-12):
            before = ("" if index == 0 else
                      f" The {'step' if index == 1 else f'{index} steps'} before agreed, so it "
                      "is the update in between that parted.")
            fail(f"Three steps in a row, on {', '.join(repr(n) for n in NAMES)}: at step "
                 f"{index + 1} your loss is {number(g)} where train1's run gives "
                 f"{number(w_)}.{before}")
    worst = max(abs(g - w_) for g, w_ in zip(got, want))
    return (f"Three steps in a row: {', '.join(f'{g:.4f}' for g in got)}, as train1's run gives "
            f"(the largest difference: {worst:.1e}).")


def _put(code, numbers):
    """Set the file's weights to these plain numbers."""
    for name, mat in code.weights.items():
        for row, values in zip(mat, numbers[name]):
            for p, value in zip(row, values):
                p.data = value


# --- train_step against ours, on new names, with a small model so that it is quick --------

def _small_model(space, seed):
    """A model of the same kind, 4 wide with 4 hidden units: weights and params."""
    import random
    rng = random.Random(seed)
    V = space.Value

    def matrix(rows, cols):
        return [[V(rng.gauss(0, 0.5)) for _ in range(cols)] for _ in range(rows)]

    weights = {'wte': matrix(27, 4), 'mlp_fc1': matrix(4, 4), 'mlp_fc2': matrix(27, 4)}
    return weights, [p for mat in weights.values() for row in mat for p in row]


def _train_on(space, args):
    """train_step(0) on one name, with the small model in place of the file's."""
    doc, weights, params = args
    with replacing(space, "docs", [doc]), replacing(space, "weights", weights), \
            replacing(space, "params", params), contextlib.redirect_stdout(io.StringIO()):
        loss = space.train_step(0)
    return {"loss": getattr(loss, "data", loss), "weights after": [p.data for p in params]}


def _names(rng):
    """A one-letter name, ordinary ones, then names longer than block_size (16)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    for length, note in ((1, ""), (5, ""), (26, "a name longer than block_size, every letter")):
        doc = ("".join(rng.choice(letters) for _ in range(length)) if length != 26
               else letters)
        seed = rng.randrange(10 ** 6)
        yield Case(repr(doc), lambda space, doc=doc, seed=seed: (doc, *_small_model(space, seed)),
                   f"{note}, with a small model" if note else "with a small model")


agrees("train_step", _names, call=_train_on, name="train_step on new names, twice each")
