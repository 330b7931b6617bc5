"""Checks for lesson 4.4, The chain rule: each weight of the last layer gets d × its input.

`fc2_grads(h, dlogits, grads)` is called with the checks' own numbers; the module's `weights` is
set to the checks' own matrix while it runs (and put back), so that a learner who multiplies by
the weight instead of its input is caught by the number. Most checks start grads at zero; one
starts it with earlier positions' shares, as train1.py does from its second position on, to
catch `=` in place of `+=`. The last check builds a real loss (-log of a softmax, as in
train1.py), measures dlogits by nudging the logits, and compares every gradient with nudging
each weight directly.
"""
import math

from linebyline.runtime import calling, check, close, fail, number, shown


class _Weights:
    """Let the learner's module see the checks' matrix as weights['mlp_fc2'] for a while."""

    def __init__(self, code, matrix):
        self.weights, self.matrix = code.weights, matrix

    def __enter__(self):
        self.saved = self.weights.get('mlp_fc2')
        self.weights['mlp_fc2'] = self.matrix
        return self.matrix

    def __exit__(self, *exc):
        self.weights['mlp_fc2'] = self.saved
        return False


def _matrix(got, rows, cols):
    """The learner's result as a list of rows of numbers, or None when it is not that shape."""
    if not isinstance(got, (list, tuple)) or len(got) != rows:
        return None
    result = []
    for row in got:
        if not isinstance(row, (list, tuple)) or len(row) != cols:
            return None
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row):
            return None
        result.append(list(row))
    return result


def _same(got, want):
    return all(close(g, w) for grow, wrow in zip(got, want) for g, w in zip(grow, wrow))


def _zeros(rows, cols):
    return [[0.0] * cols for _ in range(rows)]


def _call(code, h, dlogits, matrix, start):
    """Call the learner's fc2_grads with grads['mlp_fc2'] holding `start`: (call, result, grads)."""
    call = f"fc2_grads({shown(h)}, {shown(dlogits)}, grads)"
    grads = {'mlp_fc2': [list(row) for row in start]}
    with _Weights(code, matrix):
        with calling(f"{call}` with `weights['mlp_fc2'] = {shown(matrix)}` and "
                     f"`grads['mlp_fc2'] = {shown(start)}"):
            try:
                got = code.fc2_grads(list(h), list(dlogits), grads)
            except IndexError:
                if len(h) == len(dlogits):
                    raise
                fail(f"`{call}` raised IndexError: a list was indexed past its end. "
                     f"grads['mlp_fc2'] has one row per logit ({len(dlogits)}) and one number per "
                     f"input in each row ({len(h)}): the gradient of fc2[i][j] is "
                     "grads['mlp_fc2'][i][j], row i first.")
            except TypeError as error:
                if error.__traceback__.tb_next is not None or "argument" not in str(error):
                    raise  # raised inside the learner's function, not by the call itself
                fail(f"`{call}` raised TypeError: {error}. The checks give fc2_grads three "
                     "things: h, dlogits and grads, the gradients collected so far. Its first "
                     "line should be `def fc2_grads(h, dlogits, grads):`, and it adds into that "
                     "grads instead of making a new table of zeros.")
    return call, got, grads


def _diagnose(code, h, dlogits, matrix, where):
    """Fail with the likeliest slip when fc2_grads does not give d × h[j] for every weight."""
    rows, cols = len(dlogits), len(h)
    start = _zeros(rows, cols)
    call, got, _ = _call(code, h, dlogits, matrix, start)
    want = [[d * hj for hj in h] for d in dlogits]
    grid = _matrix(got, rows, cols)
    seen = (f"`{call}` with `weights['mlp_fc2'] = {shown(matrix)}` and `grads['mlp_fc2'] = "
            f"{shown(start)}` gave {shown(got)}")
    if grid is None:
        fail(f"{seen}, but should give a table of {rows} rows of {cols} numbers, one gradient per "
             f"weight: {shown(want)}.")
    if _same(grid, want):
        return
    seen = f"{seen}, but should give {shown(want)}{where}"
    if _same(grid, [[d + hj for hj in h] for d in dlogits]):
        fail(f"{seen}. You added the two rates. Along a chain, rates multiply: if the weight moves "
             "logits[i] hj times as fast as itself, and logits[i] moves the loss d times as fast, "
             "the loss moves d * hj times as fast as the weight.")
    if _same(grid, [[d * w for w in row] for d, row in zip(dlogits, matrix)]):
        fail(f"{seen}. You multiplied d by the weight itself. The weight's local rate is what it "
             "is multiplied by in logits[i], its input hj: nudge fc2[i][j] by a little and "
             "logits[i] moves by that little times h[j].")
    if _same(grid, [[d for _ in h] for d in dlogits]):
        fail(f"{seen}. Each gradient is only d, the rate of the loss at logits[i]. The chain has "
             "a second link: the weight moves logits[i] at the rate hj. Multiply the two.")
    if _same(grid, [list(h) for _ in dlogits]):
        fail(f"{seen}. Each gradient is only hj, the weight's rate at logits[i]. The chain goes on "
             "to the loss: multiply by d, the rate of the loss at logits[i].")
    if all(close(x, 0) for row in grid for x in row):
        fail(f"{seen}. Nothing was added into grads['mlp_fc2']: write the chain-rule line in place "
             "of `pass`.")
    wrong = [f"fc2[{i}][{j}] got {number(grid[i][j])} instead of {number(want[i][j])}"
             for i in range(rows) for j in range(cols) if not close(grid[i][j], want[i][j])]
    fail(f"{seen}: {'; '.join(wrong[:4])}. Each weight fc2[i][j] should get d * hj, with the d of "
         "its own logit i and the hj of its own input j.")


@check("one weight, one chain")
def _(code):
    _diagnose(code, [2.0], [3.0], [[0.5]], ": one weight, whose input is 2, feeding one logit "
              "that moves the loss 3 times as fast as itself")
    return "A weight with input 2, under a logit that moves the loss at 3, gets 3 × 2 = 6."


@check("every weight gets its own d × input")
def _(code):
    _diagnose(code, [1.0, 0.0, 2.0], [-2.0, 3.0], [[0.5, -1.0, 0.25], [-0.5, 2.0, 1.0]], "")
    _diagnose(code, [0.5, -1.5, 3.0, 2.0], [0.25, -4.0, 1.0],
              [[0.1, 0.2, -0.3, 0.4], [1.5, -1.0, 2.0, 0.5], [-0.2, 0.7, 0.9, -1.1]], "")


@check("adds to the shares already there")
def _(code):
    # train1.py calls fc2_grads once per position of a name, into the same grads: from the second
    # position on, grads already holds the shares of the positions before.
    h, dlogits = [2.0, 0.5], [3.0, -1.0]
    matrix = [[0.5, -1.0], [0.25, 2.0]]
    start = [[1.5, -2.0], [0.5, 4.0]]
    share = [[d * hj for hj in h] for d in dlogits]
    want = [[s + x for s, x in zip(srow, xrow)] for srow, xrow in zip(start, share)]
    call, got, grads = _call(code, h, dlogits, matrix, start)
    given = f"`{call}` with `grads['mlp_fc2'] = {shown(start)}`"
    table = grads.get('mlp_fc2')
    kept = _matrix(table, 2, 2)
    if kept is not None and _same(kept, start):
        if got is table:
            fail(f"{given} gave {shown(got)}, the numbers it started with: nothing was added "
                 "into grads['mlp_fc2']. Write the chain-rule line in place of `pass`.")
        fail(f"{given} gave {shown(got)}, but left grads['mlp_fc2'] as it was: {shown(start)}. "
             "grads is where the gradients are kept from one position to the next, so add each "
             "share into grads['mlp_fc2'] itself and return that table; if your function still "
             "makes a new table of zeros, remove that line.")
    if kept is not None and _same(kept, share):
        fail(f"{given} gave {shown(table)}, but should give {shown(want)}. grads already held "
             f"the shares of earlier positions, {shown(start)}, and your line replaced them with "
             f"this position's, {shown(share)}. train1.py adds up the shares of every position "
             "of a name in the same grads, so the line must add to what is there: `+=`, not `=`.")
    grid = _matrix(got, 2, 2)
    if grid is None:
        fail(f"{given} gave {shown(got)}, but should give grads['mlp_fc2'] with this "
             f"position's shares added: {shown(want)}.")
    if not _same(grid, want) or kept is None or not _same(kept, want):
        fail(f"{given} gave {shown(got)}, but should give {shown(want)}: each weight's share, "
             f"d * hj ({shown(share)}), added to the {shown(start)} already there.")
    return (f"With earlier positions' shares already in grads, each new share is added to them: "
            f"fc2[0][0] gets {number(start[0][0])} + {number(dlogits[0])} × {number(h[0])} = "
            f"{number(want[0][0])}.")


def _softmax_loss(logits, target):
    biggest = max(logits)
    exps = [math.exp(v - biggest) for v in logits]
    return -math.log(exps[target] / sum(exps))


def _slope(loss, row, k, nudge=1e-6):
    old = row[k]
    row[k] = old + nudge
    up = loss()
    row[k] = old - nudge
    down = loss()
    row[k] = old
    return (up - down) / (2 * nudge)


@check("matches nudging every weight")
def _(code):
    h = [0.8, -0.3, 1.7, 0.05]
    matrix = [[0.3, -0.8, 0.5, 1.2], [-0.4, 0.9, 0.2, -0.6], [1.1, 0.1, -0.7, 0.3]]
    target = 2
    logits = [sum(w * x for w, x in zip(row, h)) for row in matrix]
    dlogits = [_slope(lambda: _softmax_loss(logits, target), logits, i) for i in range(3)]
    call, got, _ = _call(code, h, dlogits, matrix, _zeros(3, 4))
    grid = _matrix(got, 3, 4)
    if grid is None:
        fail(f"`{call}` gave {shown(got)}, but should give a table of 3 rows of 4 gradients.")
    for i in range(3):
        for j in range(4):
            def loss():
                return _softmax_loss([sum(w * x for w, x in zip(row, h)) for row in matrix], target)
            measured = _slope(loss, matrix[i], j)
            if not close(grid[i][j], measured, rel=1e-5, abs_tol=1e-7):
                fail(f"With train1.py's kind of loss (-log of a softmax of the logits, target "
                     f"{target}), nudging fc2[{i}][{j}] itself moves the loss at "
                     f"{number(measured)}, but fc2_grads gave it {number(grid[i][j])}.")
    return ("With a real -log p loss, all 12 gradients from the chain rule agree with nudging "
            "each weight directly.")
