"""Checks for lesson 7.6, Parameters as Values, zeroing grads: the weights are Values, params
lists each of them once, and a step moves each against its grad, then zeroes the grad.

matrix is called on a seeded random (the learner's own random module, its state put back), and
compared with draws made here. The steps run on short names and are compared with train1's
arithmetic done here on plain floats (probabilities minus one-hot, back through the layers);
weights and grads are put back after every check.
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
    fail,
    number,
    plural,
    printed,
    replacing,
    rerun,
    shown,
)

NAMES = ["ada", "bo"]  # short names: a step of train2 is slow
MATRIX_FIX = "`return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]`"
PARAMS_FIX = "`params = [p for mat in weights.values() for row in mat for p in row]`"
PRINT_FIX = 'After params: `print(f"parameters: {len(params)}")`.'
UPDATE_FIX = "In the loop over params: `p.data -= lr * p.grad`, then `p.grad = 0`."
ZERO_FIX = "Right after the update, in the same loop: `p.grad = 0`."


# --- matrix --------------------------------------------------------------------------------

def _draws(code, rows, cols, std, seed):
    """What matrix(rows, cols, std) should hold, drawn here with the same seed."""
    import random
    rng = random.Random(seed)
    return [[rng.gauss(0, std) for _ in range(cols)] for _ in range(rows)]


def _their_matrix(code, rows, cols, seed):
    rng = code.random
    saved = rng.getstate()
    try:
        rng.seed(seed)
        with calling(f"matrix({rows}, {cols})"):
            return code.matrix(rows, cols)
    finally:
        rng.setstate(saved)


@check("matrix makes a grid of Values, one per draw")
def _(code):
    rows, cols = 3, 2
    got = _their_matrix(code, rows, cols, 7)
    want = _draws(code, rows, cols, 0.08, 7)
    call = f"matrix({rows}, {cols})"
    shape = [len(row) for row in got] if isinstance(got, list) and all(
        isinstance(row, list) for row in got) else None
    if shape is None or len(shape) == 0:
        fail(f"`{call}` returned {shown(got)}, but should return {rows} rows of {cols} Values: "
             "a list of rows, each a list.", fix=MATRIX_FIX)
    if shape != [cols] * rows:
        flipped = " (rows and columns swapped)" if shape == [rows] * cols else ""
        fail(f"`{call}` returned {len(shape)} rows of {listing_of(shape)} items{flipped}, but "
             f"should return {rows} rows of {cols}: one row per output, one column per input.",
             fix=MATRIX_FIX)
    cells = [cell for row in got for cell in row]
    plain = [cell for cell in cells if not isinstance(cell, code.Value)]
    if plain:
        fail(f"`{call}` returned plain numbers ({shown(got[0])} in its first row), as train1's "
             "matrix did. A plain number remembers nothing: backward() could never fill in its "
             "grad, and the update has no grad to read. Every parameter must be a Value.",
             fix=MATRIX_FIX)
    distinct = len({id(cell) for cell in cells})
    if distinct < len(cells):
        fail(f"`{call}` holds {len(cells)} places but only {distinct} different Values: "
             "the same Value object sits in several places. They would all move together and "
             "share one grad, where every parameter needs its own.", fix=MATRIX_FIX)
    with_children = sum(1 for cell in cells if cell._children)
    if with_children:
        fail(f"`{call}` made {with_children} of its {len(cells)} Values with children, each "
             "computed from other Values: a parameter is a leaf, a Value made straight from "
             "its drawn number, with nothing below it in the graph.", fix=MATRIX_FIX)
    graded = [cell.grad for cell in cells if cell.grad != 0]
    if graded:
        fail(f"`{call}` made Values whose grad is already {shown(graded[0])} "
             f"({len(graded)} of {len(cells)}): a parameter starts with grad 0, since "
             "backward() adds each share of its gradient into it.", fix=MATRIX_FIX)
    numbers = [[cell.data for cell in row] for row in got]
    if all(close(a, b, rel=1e-12, abs_tol=0) for r, w in zip(numbers, want) for a, b in zip(r, w)):
        return
    by_column = _draws(code, cols, rows, 0.08, 7)
    if all(close(numbers[i][j], by_column[j][i], rel=1e-12, abs_tol=0)
           for i in range(rows) for j in range(cols)):
        fail(f"`{call}` drew its numbers column after column: the first column holds the first "
             f"draws ({number(numbers[0][0])}, {number(numbers[1][0])}, ...). The draws must go "
             "row after row, as microgpt's, or every weight gets another number.",
             fix=MATRIX_FIX)
    wide = _draws(code, rows, cols, 1.0, 7)
    if all(close(a, b, rel=1e-12, abs_tol=0) for r, w in zip(numbers, wide) for a, b in zip(r, w)):
        fail(f"`{call}` drew with a std of 1 ({number(numbers[0][0])} first), where the std "
             "given is 0.08: small starting weights, as in train1.", fix=MATRIX_FIX)
    fail(f"`{call}`, right after random.seed(7), holds {shown(numbers[0])} in its first row, but "
         f"random.gauss(0, 0.08) draws {shown(want[0])} there: one draw per Value, in order.",
         fix=MATRIX_FIX)


def listing_of(counts):
    counts = sorted(set(counts))
    return " or ".join(str(c) for c in counts)


# --- params and the count -------------------------------------------------------------------

@check("params lists every weight itself, once, in order")
def _(code):
    params = code.params
    every = [p for mat in code.weights.values() for row in mat for p in row]
    if not isinstance(params, list):
        fail(f"params is {shown(params)}, but should be a list of the {len(every)} "
             "parameters.", fix=PARAMS_FIX)
    if params and all(isinstance(item, list) for item in params):
        depth = "rows" if all(isinstance(cell, code.Value) for item in params for cell in item) \
            else "matrices"
        fail(f"params holds {plural(len(params), 'list')}, the weights' {depth}, where it should "
             f"hold the {len(every)} parameters themselves, one after another: the update "
             "loop takes one parameter at a time.", fix=PARAMS_FIX)
    if len(params) != len(every):
        fail(f"params holds {len(params)} items, but the weights hold {len(every)} parameters: "
             "every Value of every row of every matrix, once.", fix=PARAMS_FIX)
    for index, (p, q) in enumerate(zip(params, every)):
        if p is q:
            continue
        if getattr(p, "data", None) == q.data:
            fail(f"params[{index}] holds the same number as the weight it stands for "
                 f"({number(q.data)}), but it is another Value, a copy. The update would move "
                 "the copies, and the model, which reads weights, would never change.",
                 fix=PARAMS_FIX)
        if any(p is r for r in every):
            fail(f"params holds every weight, but not in order: params[{index}] should be the "
                 f"weight at place {index} (the matrices in order, each row in order).",
                 fix=PARAMS_FIX)
        fail(f"params[{index}] is {shown(p)}, but should be the weight at place {index} itself.",
             fix=PARAMS_FIX)


OTHER_NAMES = "abc\ncab\nba\n"  # three letters: vocab_size 4, so other matrices, another count


def _check_count_read(code):
    """The file run again on names with only a, b and c: the count it prints must be its own."""
    with calling("your file, run again on a names file of its own (the letters a, b and c)"):
        again = rerun(code, {"input.txt": OTHER_NAMES})
    count = len(again.params) if isinstance(again.params, list) else None
    want = f"parameters: {count}"
    lines = printed(again).splitlines()
    if count is None or want in lines:
        return
    said = [line for line in lines if line.startswith("parameters")]
    got = f"printed {said[0]!r}" if said else "printed no parameter count"
    same = (", the same line as for the real names"
            if said and said[0] == f"parameters: {len(code.params)}" else "")
    fail(f"Run again on a names file with only the letters a, b and c (vocab_size "
         f"{again.vocab_size}, so wte and mlp_fc2 have {again.vocab_size} rows), your file made "
         f"{count} parameters but {got}{same}. The number printed must come from params itself, "
         "so that it stays true for any names file and any size of model.", fix=PRINT_FIX)


@check("the parameter count is printed")
def _(code):
    want = f"parameters: {len(code.params)}"
    lines = printed(code).splitlines()
    if want in lines:
        _check_count_read(code)
        return
    said = [line for line in lines if line.startswith("parameters")]
    if said:
        fail(f"Your file printed {said[0]!r}, but there are {len(code.params)} parameters: it "
             f"should print {want!r}.", fix=PRINT_FIX)
    fail(f"Your file should print {want!r} after making params, as train1 printed its count.",
         fix=PRINT_FIX)


# --- the step: against train1's arithmetic --------------------------------------------------

def _floats(code):
    return {name: [[p.data for p in row] for row in mat] for name, mat in code.weights.items()}


def _put(code, numbers):
    for name, mat in code.weights.items():
        for row, values in zip(mat, numbers[name]):
            for p, value in zip(row, values):
                p.data = value


def _gradients(code, doc, w):
    """The gradient of every weight for one name, at the plain weights w, as train1 does it."""
    tokens = [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]
    g = {name: [[0.0] * len(row) for row in mat] for name, mat in w.items()}
    n = min(code.block_size, len(tokens) - 1)
    for pos in range(n):
        token, target = tokens[pos], tokens[pos + 1]
        x = w['wte'][token]
        h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
        logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        probs = [e / sum(exps) for e in exps]
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
    return g


class _Steps:
    """train_step on each of `docs`, one after another (step numbers from `first`): the weights
    before and after each, and the grads each left. Weights and grads are put back after."""

    def __init__(self, code, docs, first=0):
        self.code, self.docs, self.first = code, docs, first
        start = _floats(code)
        grads = [p.grad for p in code.params] if isinstance(code.params, list) else []
        self.weights, self.left = [start], []
        try:
            for index, doc in enumerate(docs):
                step = first + index
                names = [doc] * (step + 1)
                with replacing(code, "docs", names), contextlib.redirect_stdout(io.StringIO()), \
                        calling(f"train_step({step}) on the name {doc!r}"):
                    code.train_step(step)
                self.weights.append(_floats(code))
                self.left.append([getattr(p, "grad", None) for p in _every(code)])
        finally:
            _put(code, start)
            for p, grad in zip(code.params, grads):
                p.grad = grad
            for p in _every(code):
                p.grad = 0

    def call(self, index):
        return f"train_step({self.first + index}) on the name {self.docs[index]!r}"


def _every(code):
    return [p for mat in code.weights.values() for row in mat for p in row]


def _first_mismatch(before, after, grads, lr):
    """(name, i, k, moved, should) for the first weight that did not move by -lr * grad."""
    for name, mat in grads.items():
        for i, row in enumerate(mat):
            for k, g in enumerate(row):
                moved = after[name][i][k] - before[name][i][k]
                if not close(moved, -lr * g, rel=1e-7, abs_tol=1e-12):
                    return name, i, k, moved, -lr * g
    return None


@check("a step moves each parameter against its grad")
def _(code):
    step_number = 500  # halfway: lr = learning_rate / 2, so a missing lr shows
    run = _Steps(code, NAMES[:1], first=step_number)
    lr = code.learning_rate * (1 - step_number / code.num_steps)
    grads = _gradients(code, NAMES[0], run.weights[0])
    wrong = _first_mismatch(run.weights[0], run.weights[1], grads, lr)
    if wrong is None:
        return
    name, i, k, moved, should = wrong
    seen = (f"After `{run.call(0)}` (lr = {number(lr)}), {name}[{i}][{k}] moved by "
            f"{number(moved)}, but minus lr times its grad is {number(should)}")
    ratio = moved / should if should else None
    unmoved = all(run.weights[1][n][a][b] == run.weights[0][n][a][b]
                  for n, mat in grads.items() for a, row in enumerate(mat)
                  for b in range(len(row)))
    if unmoved:
        _unmoved(code, seen, run, step_number)
    if ratio is not None and close(ratio, -1.0, rel=1e-6):
        fail(f"{seen}: it moved the same distance the other way, uphill. The grad points the "
             "way the loss grows, so the step goes against it.", fix=UPDATE_FIX)
    if ratio is not None and close(ratio, 1 / lr, rel=1e-6):
        _whole_grad(code, seen, lr)
    ratios = _ratios(run.weights[0], run.weights[1], grads, lr)
    if ratios and all(close(r, ratios[0], rel=1e-6) for r in ratios):
        fail(f"{seen}: every parameter that has a grad moved {number(ratios[0])} times as far "
             "as minus lr times its grad. Each must move by exactly that, no more and no less.",
             fix=UPDATE_FIX)
    fail(f"{seen}: the parameters did not move in proportion to their grads (the first "
         "differs here). Each must move by minus lr times its own grad.", fix=UPDATE_FIX)


class _Probe:
    """A stand-in parameter for the update loop: notes whether the loop sets its data. Numbers
    made from it by arithmetic are plain probes, so a loop that rebinds p runs as well."""

    def __init__(self):
        object.__setattr__(self, "wrote", [])
        object.__setattr__(self, "data", 0.5)
        object.__setattr__(self, "grad", 1.0)

    def __setattr__(self, name, value):
        self.wrote.append(name)
        object.__setattr__(self, name, value)

    def _new(self, *_):
        return _Probe()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _new
    __neg__ = _new


def _sets_data(code, step):
    """Whether train_step's update loop sets p.data, tried on stand-ins for the parameters
    (None when the loop cannot run on them)."""
    probes = [_Probe() for _ in range(3)]
    try:
        with replacing(code, "params", probes), replacing(code, "docs", [NAMES[0]] * (step + 1)), \
                contextlib.redirect_stdout(io.StringIO()):
            code.train_step(step)
    except Exception:  # the loop does more with p than these stand-ins allow: cannot tell
        return None
    finally:
        for p in _every(code):
            p.grad = 0
    return any("data" in probe.wrote for probe in probes)


def _unmoved(code, seen, run, step):
    """Fail: no parameter moved. Were the grads cleared first, or was p.data never set?"""
    left = [grad for grad in run.left[0] if grad != 0]
    sets = None if left else _sets_data(code, step)
    if sets is None and not left:
        fail(f"{seen}: no parameter moved at all, and every grad was back at 0 after the step. "
             "The update must change each parameter's own number, p.data (rebinding the loop's "
             "name p to a new Value changes nothing in the model), and it must read p.grad "
             "before the grad is set back to 0.", fix=UPDATE_FIX)
    if sets:
        fail(f"{seen}: no parameter moved at all, though the update does set p.data, and every "
             "grad was back at 0 after the step: the update read p.grad after it had been set "
             "back to 0, and moved each parameter by lr times 0. It must read the grad while it "
             "still holds the gradient.", fix=UPDATE_FIX)
    cleared = ("every grad was back at 0 after the step" if not left else
               f"{len(left)} of the {len(run.left[0])} grads were still not 0 after the step")
    fail(f"{seen}: no parameter moved at all, and {cleared}. Nothing in the loop over params "
         "sets p.data, each parameter's own number, which is what the model reads (rebinding "
         "the loop's name p to a new Value changes nothing in the model).", fix=UPDATE_FIX)


def _whole_grad(code, seen, lr):
    """Moved by the whole grad at lr = 0.5, learning_rate being 1: no lr at all, learning_rate,
    or twice lr? One more step, with another learning_rate and at another step, tells them
    apart (returns when it is none of the first two)."""
    other, step_number = 0.6, 750
    with replacing(code, "learning_rate", other):
        run = _Steps(code, NAMES[:1], first=step_number)
    lr2 = other * (1 - step_number / code.num_steps)
    ratios = _ratios(run.weights[0], run.weights[1],
                     _gradients(code, NAMES[0], run.weights[0]), lr2)
    if ratios and close(ratios[0], other / lr2, rel=1e-6):
        fail(f"{seen}: it moved by learning_rate ({number(code.learning_rate)}) times its "
             f"grad, where lr has decayed to {number(lr)} by this step. learning_rate is the "
             "rate of the first step only; the step must use lr, the rate for this step.",
             fix=UPDATE_FIX)
    if ratios and close(ratios[0], 1 / lr2, rel=1e-6):
        fail(f"{seen}: it moved by its whole grad, without the learning rate's "
             f"{number(lr)}.", fix=UPDATE_FIX)


def _ratios(before, after, grads, lr):
    """How far each parameter with a grad moved, in units of -lr * grad."""
    return [(after[n][a][b] - before[n][a][b]) / (-lr * g)
            for n, mat in grads.items() for a, row in enumerate(mat)
            for b, g in enumerate(row) if abs(g) > 1e-9]


@check("each step follows its own name's grads")
def _(code):
    run = _Steps(code, NAMES)
    grads2 = _gradients(code, NAMES[1], run.weights[1])
    lr2 = code.learning_rate * (1 - 1 / code.num_steps)
    wrong = _first_mismatch(run.weights[1], run.weights[2], grads2, lr2)
    if wrong is None:
        return  # zeroed after the update, or (as some write it) before the next backward()
    name, i, k, moved, should = wrong
    left = [grad for grad in run.left[0] if grad != 0]
    seen = (f"On the second step, `{run.call(1)}`, {name}[{i}][{k}] moved by {number(moved)}, "
            f"where the second name's grad alone says {number(should)}")
    if left:
        fail(f"{seen}. After the first step, `{run.call(0)}`, {len(left)} of the "
             f"{len(run.left[0])} grads were not 0, and backward() adds into grads with +=: it "
             "added the second name's shares on top of the first's, and the step followed "
             "both.", fix=ZERO_FIX)
    fail(f"{seen}.", fix=UPDATE_FIX)


# --- matrix and train_step against ours, on new sizes and names --------------------------

def _shapes(rng):
    """Small and real sizes, then what the model never asks for: a row wider than any of its
    matrices, no rows, another std."""
    for rows, cols, std, note in ((1, 1, None, ""), (3, 2, None, ""), (27, 16, None, "wte's size"),
                                  (4, 70, None, "rows wider than any of the model's"),
                                  (0, 5, None, "no rows at all"),
                                  (3, 2, 0.5, "a std other than the model's 0.08")):
        args = (rows, cols) if std is None else (rows, cols, std)
        yield Case(", ".join(number(a) for a in args), lambda space, a=args: a, note)


agrees("matrix", _shapes, draws=True, name="matrix on new sizes, twice each")


def _small_model(space, seed):
    """A small model of the same kind, 4 wide with 4 hidden units: its weights and params."""
    import random
    rng = random.Random(seed)
    V = space.Value

    def grid(rows, cols):
        return [[V(rng.gauss(0, 0.5)) for _ in range(cols)] for _ in range(rows)]

    weights = {'wte': grid(27, 4), 'mlp_fc1': grid(4, 4), 'mlp_fc2': grid(27, 4)}
    return weights, [p for mat in weights.values() for row in mat for p in row]


_models = {}  # (whose code, seed) -> that side's small model, kept from one call to the next


def _train_on(space, args):
    """train_step(0) on one name, with a small model in place of the file's; the loss and every
    weight after the step. Each side keeps its own small model between the two calls, so the
    second call trains it further: grads that a step leaves behind show there."""
    doc, seed = args
    key = (id(space), seed)
    if key not in _models:
        _models[key] = _small_model(space, seed)
    weights, params = _models[key]
    with replacing(space, "docs", [doc]), replacing(space, "weights", weights), \
            replacing(space, "params", params), contextlib.redirect_stdout(io.StringIO()):
        loss = space.train_step(0)
    return {"loss": getattr(loss, "data", loss), "weights after": [p.data for p in params]}


def _names(rng):
    letters = "abcdefghijklmnopqrstuvwxyz"
    for length, note in ((3, ""), (18, "a name longer than block_size")):
        doc = "".join(rng.choice(letters) for _ in range(length))
        seed = rng.randrange(10 ** 6)
        yield Case(repr(doc), lambda space, doc=doc, seed=seed: (doc, seed),
                   f"{note}, with a small model" if note else "with a small model")


agrees("train_step", _names, call=_train_on, name="train_step on new names, twice each")
