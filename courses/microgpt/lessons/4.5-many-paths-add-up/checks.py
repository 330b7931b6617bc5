"""Checks for lesson 4.5, Many paths add up: dh[j] collects one share from every logit.

`fc2_backward(h, dlogits)` is called with the checks' own numbers while the module's `weights`
holds the checks' own matrix (put back afterwards). The classic slips each give a number of their
own: keeping only the last share (`=`), multiplying the shares, adding along a path, the wrong
local rate, the weight's indices swapped. The last check nudges every h[j] through a real loss.
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


def _numbers(x, length):
    return (isinstance(x, (list, tuple)) and len(x) == length
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in x))


def _call(code, h, dlogits, matrix):
    """Run fc2_backward; return (how it was called, the weights' gradients, dh)."""
    call = f"fc2_backward({shown(h)}, {shown(dlogits)})"
    with _Weights(code, matrix):
        with calling(f"{call}` with `weights['mlp_fc2'] = {shown(matrix)}"):
            try:
                result = code.fc2_backward(list(h), list(dlogits))
            except IndexError:
                if len(h) != len(dlogits):
                    fail(f"`{call}` with `weights['mlp_fc2'] = {shown(matrix)}` raised IndexError: "
                         f"a list was indexed past its end. h has {len(h)} numbers but there are "
                         f"{len(dlogits)} logits: is dh made inside fc2_backward, with one 0.0 "
                         "per number of h, `[0.0] * len(h)`?")
                raise
    if not isinstance(result, tuple) or len(result) != 2:
        fail(f"`{call}` returned {shown(result)}, but should return two things, as the starter's "
             "`return grads['mlp_fc2'], dh` does.")
    return f"`{call}` with `weights['mlp_fc2'] = {shown(matrix)}`", result[0], result[1]


def _term(x):
    """A number inside a sum: negative ones in brackets, 1.5 + (-2)."""
    return f"({number(x)})" if x < 0 else number(x)


def _same(got, want):
    return _numbers(got, len(want)) and all(close(g, w) for g, w in zip(got, want))


def _judge(code, h, dlogits, matrix, story=""):
    seen, grads, dh = _call(code, h, dlogits, matrix)
    rows, cols = len(dlogits), len(h)
    paths = [[d * matrix[i][j] for i, d in enumerate(dlogits)] for j in range(cols)]
    want = [sum(shares) for shares in paths]
    weight_grads = [[d * hj for hj in h] for d in dlogits]
    if dh is None:
        fail(f"{seen} returned dh = None: make dh a list of zeros, one per number in h, before "
             "the loops.")
    if not _numbers(dh, cols):
        fail(f"{seen} returned dh = {shown(dh)}, but dh should hold {cols} numbers, one per number "
             f"in h: {shown(want)}.")
    if _same(dh, want):
        if not (isinstance(grads, list) and len(grads) == rows
                and all(_same(g, w) for g, w in zip(grads, weight_grads))):
            fail(f"{seen} gave the weights' gradients {shown(grads)}, but they should be "
                 f"{shown(weight_grads)}: the line `grads['mlp_fc2'][i][j] += d * hj` from 4.4 "
                 "should stay as it was.")
        return
    shares = "; ".join(f"h[{j}]: " + " + ".join(_term(s) for s in paths[j]) + f" = {number(want[j])}"
                       for j in range(cols))
    seen = (f"{seen} gave dh = {shown(list(dh))}, but should give {shown(want)}{story}. Each h[j] "
            f"is used by every logit, and each logit adds one share, d * fc2[i][j]: {shares}.")
    if _same(dh, [paths[j][-1] for j in range(cols)]):
        fail(f"{seen} Yours kept only the last logit's share: `dh[j] = ...` replaces what the "
             "paths before had put there. Write `+=`, so that every path's share adds up.")
    if _same(dh, [math.prod(paths[j]) for j in range(cols)]):
        fail(f"{seen} Yours multiplied the shares of different paths. Along one path the rates "
             "multiply, but different paths each add their own share: start dh at zeros and "
             "add with `+=`.")
    if _same(dh, [sum(d + matrix[i][j] for i, d in enumerate(dlogits)) for j in range(cols)]):
        fail(f"{seen} Yours added d and the weight. Along a path the rates multiply: h[j] moves "
             "logits[i] fc2[i][j] times as fast as itself, and logits[i] moves the loss d times as "
             "fast, so the share is their product.")
    if _same(dh, [sum(d * hj for d in dlogits) for hj in h]):
        fail(f"{seen} Yours multiplied d by hj. That is the weight's local rate (4.4); h[j]'s own "
             "local rate in logits[i] is the weight it is multiplied by, fc2[i][j].")
    if rows == cols and _same(dh, [sum(d * matrix[j][i] for i, d in enumerate(dlogits))
                                   for j in range(cols)]):
        fail(f"{seen} Yours used fc2[j][i], with the indices swapped. The weight between h[j] and "
             "logits[i] is in row i (its logit) and column j (its input): "
             "weights['mlp_fc2'][i][j].")
    if all(close(v, 0) for v in dh):
        fail(f"{seen} Nothing was added into dh: write the line that adds each path's share in "
             "place of `pass`.")
    fail(seen)


@check("a number used by two logits gets two shares")
def _(code):
    _judge(code, [2.0, 1.0], [0.5, 2.0], [[3.0, 0.5], [-1.0, 4.0]],
           ": h[0] reaches the loss through logits[0] and through logits[1]")
    return "h[0] gets 0.5 × 3 from logits[0] and 2 × (-1) from logits[1]: -0.5 in all."


@check("every number of h adds up all its paths")
def _(code):
    h, dlogits = [0.5, -1.5, 3.0, 2.0], [0.25, -4.0, 1.0]
    matrix = [[0.1, 0.2, -0.3, 0.4], [1.5, -1.0, 2.0, 0.5], [-0.2, 0.7, 0.9, -1.1]]
    _judge(code, h, dlogits, matrix)
    seen, _, first = _call(code, h, dlogits, matrix)
    seen, _, second = _call(code, h, dlogits, matrix)
    if not _same(second, list(first)):
        fail(f"Calling {seen} twice gave dh = {shown(list(first))}, then {shown(list(second))}. "
             "dh must start from zeros at every call: make it inside fc2_backward, before the "
             "loops.")


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


@check("matches nudging every h")
def _(code):
    h = [0.8, -0.3, 1.7, 0.05]
    matrix = [[0.3, -0.8, 0.5, 1.2], [-0.4, 0.9, 0.2, -0.6], [1.1, 0.1, -0.7, 0.3]]
    target = 1
    logits = [sum(w * x for w, x in zip(row, h)) for row in matrix]
    dlogits = [_slope(lambda: _softmax_loss(logits, target), logits, i) for i in range(3)]
    _, _, dh = _call(code, h, dlogits, matrix)

    def loss():
        return _softmax_loss([sum(w * x for w, x in zip(row, h)) for row in matrix], target)

    for j in range(len(h)):
        measured = _slope(loss, h, j)
        if not _numbers(dh, len(h)) or not close(dh[j], measured, rel=1e-5, abs_tol=1e-7):
            fail(f"With train1.py's kind of loss (-log of a softmax of the logits, target "
                 f"{target}), nudging h[{j}] itself moves the loss at {number(measured)}, but "
                 f"fc2_backward gave dh = {shown(dh)}.")
    return "With a real -log p loss, every dh[j] agrees with nudging h[j] directly."
