"""Checks for lesson 4.6, The table of local gradients: relu's gate and mul's two rates at work.

`fc1_backward(token, h, dh)` runs while the module's `weights` holds the checks' own matrices
(put back afterwards), with h worked out here from them: some hidden numbers on, some off (one
exactly at relu's corner), and dh with both signs, so that gating on the wrong thing shows. The
last check nudges every weight of the layer through a real loss.
"""
import math

from linebyline.runtime import calling, check, close, fail, number, shown

WTE = [[0.4, -1.2], [1.5, 0.5], [-0.7, 2.0]]
FC1 = [[1.0, -0.5], [-1.0, 3.0], [0.25, 1.0], [2.0, -1.5], [-0.5, 0.25]]
TOKEN = 1          # x = [1.5, 0.5]: pre-activations 1.25, 0.0, 0.875, 2.25, -0.625
DH = [-1.0, 3.0, 0.5, 1.5, 4.0]


class _Weights:
    """Let the learner's module see the checks' matrices as its weights for a while."""

    def __init__(self, code, wte, fc1):
        self.weights, self.new = code.weights, {'wte': wte, 'mlp_fc1': fc1}

    def __enter__(self):
        self.saved = {key: self.weights.get(key) for key in self.new}
        self.weights.update(self.new)

    def __exit__(self, *exc):
        self.weights.update(self.saved)
        return False


def _hidden(wte, fc1, token):
    x = wte[token]
    return [max(0.0, sum(w * xi for w, xi in zip(row, x))) for row in fc1]


def _grid(got, rows, cols):
    if not isinstance(got, (list, tuple)) or len(got) != rows:
        return None
    if not all(isinstance(row, (list, tuple)) and len(row) == cols and
               all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in row)
               for row in got):
        return None
    return [list(row) for row in got]


def _run(code, wte, fc1, token, dh):
    """fc1_backward's two tables of gradients, as (fc1 grads, wte grads), or fail."""
    h = _hidden(wte, fc1, token)
    call = f"fc1_backward({token}, {shown(h)}, {shown(dh)})"
    with _Weights(code, [list(row) for row in wte], [list(row) for row in fc1]):
        with calling(f"{call}` with `x = weights['wte'][{token}] = {shown(wte[token])}"):
            got = code.fc1_backward(token, h, list(dh))
    if not isinstance(got, dict) or 'mlp_fc1' not in got or 'wte' not in got:
        fail(f"`{call}` returned {shown(got)}, but should return the dict `grads`, with "
             "'mlp_fc1' and 'wte' in it, as the starter does.")
    fc1_grads = _grid(got['mlp_fc1'], len(fc1), len(wte[0]))
    wte_grads = _grid(got['wte'], len(wte), len(wte[0]))
    if fc1_grads is None or wte_grads is None:
        fail(f"`{call}` returned grads {shown(got)}: one number per weight is expected, in "
             "tables the shape of weights['mlp_fc1'] and weights['wte'].")
    return f"`{call}` with `x = {shown(wte[token])}`", h, fc1_grads, wte_grads


def _rows_zero(grid, rows):
    return all(close(v, 0) for j in rows for v in grid[j])


@check("relu passes d on only where it was on")
def _(code):
    seen, h, grads, _ = _run(code, WTE, FC1, TOKEN, DH)
    off = [j for j, hj in enumerate(h) if hj == 0]
    on = [j for j, hj in enumerate(h) if hj > 0]
    if _rows_zero(grads, off) and not any(_rows_zero(grads, [j]) for j in on):
        return "h[1] sits exactly at relu's corner and h[4] below it: both pass nothing on."
    if _rows_zero(grads, range(len(h))):
        fail(f"{seen} left every gradient of mlp_fc1 at 0. This check sees the gate through the "
             "weights' gradients, so write the line that adds d * xk into "
             "grads['mlp_fc1'][j][k] too.")
    text = (f"{seen}: h is {shown(h)}, so relu was off for h[{off[0]}] and h[{off[1]}] "
            f"(h[{off[0]}] exactly at 0). Their weights should get gradient 0, and every other "
            "weight's gradient should be d times its input")
    if not _rows_zero(grads, off) and not any(_rows_zero(grads, [j]) for j in on):
        fail(f"{text}, but the weights of h[{off[0]}] and h[{off[1]}] got "
             f"{shown(grads[off[0]])} and {shown(grads[off[1]])}. Your gate lets everything "
             "through. relu's output is never below 0, so `h[j] >= 0` (or `if True:`) is always "
             "true: relu's local grad is 1 only where h[j] > 0, and 0 where relu was off, also "
             "at exactly 0.")
    positive = [j for j in range(len(h)) if DH[j] > 0]
    if _rows_zero(grads, [j for j in range(len(h)) if j not in positive]) \
            and not any(_rows_zero(grads, [j]) for j in positive):
        fail(f"{text}, but yours passed d on exactly where d is above 0. The gate belongs to "
             "relu, not to d: it asks whether relu was on, `h[j] > 0`, whatever the sign of d.")
    fail(f"{text}, but got {shown(grads)}. Test relu's output: `if h[j] > 0:`.")


@check("each weight of mlp_fc1 gets d × its input")
def _(code):
    seen, h, grads, _ = _run(code, WTE, FC1, TOKEN, DH)
    x = WTE[TOKEN]
    want = [[DH[j] * xk if h[j] > 0 else 0.0 for xk in x] for j in range(len(h))]
    if all(close(g, w) for grow, wrow in zip(grads, want) for g, w in zip(grow, wrow)):
        return
    text = f"{seen} gave the weights of mlp_fc1 {shown(grads)}, but should give {shown(want)}"
    on = [j for j in range(len(h)) if h[j] > 0]

    def like(rate):
        return all(close(grads[j][k], DH[j] * rate(j, k)) for j in on for k in range(len(x)))

    if like(lambda j, k: FC1[j][k]):
        fail(f"{text}. You multiplied d by the weight itself. mul's row of the table: the local "
             "grad of one factor is the other factor. fc1[j][k] is multiplied by x[k], so its "
             "rate is xk.")
    if like(lambda j, k: h[j] * x[k]):
        fail(f"{text}. You multiplied by h[j], relu's output. relu's local grad is its slope, 1 "
             "where it was on, not its output: the gate already takes care of it, so the weight "
             "gets d * xk.")
    if like(lambda j, k: 1.0):
        fail(f"{text}. Each got only d. The chain has one more link: the weight moves its sum at "
             "the rate xk, so multiply d by xk.")
    fail(f"{text}. Under the gate, each weight fc1[j][k] gets d * xk.")


@check("x collects a share from every hidden number")
def _(code):
    seen, h, _, grads = _run(code, WTE, FC1, TOKEN, DH)
    x = WTE[TOKEN]
    on = [j for j in range(len(h)) if h[j] > 0]
    shares = [[DH[j] * FC1[j][k] for j in on] for k in range(len(x))]
    want = [sum(s) for s in shares]
    others = [r for r in range(len(WTE)) if r != TOKEN and not all(close(v, 0) for v in grads[r])]
    if others:
        fail(f"{seen} gave a gradient to row {others[0]} of wte, {shown(grads[others[0]])}, but "
             f"only the current token's row, {TOKEN}, was used, so only it can have gradients.")
    got = grads[TOKEN]
    if all(close(g, w) for g, w in zip(got, want)):
        return "x[0] collects 3 shares, one from each hidden number that was on: (-1) + 0.125 + 3."
    terms = "; ".join(f"x[{k}]: " + " + ".join(f"({number(s)})" if s < 0 else number(s)
                                               for s in shares[k]) + f" = {number(want[k])}"
                      for k in range(len(x)))
    text = (f"{seen} gave wte[{TOKEN}] the gradients {shown(got)}, but should give {shown(want)}: "
            f"x[k] is used by every hidden number that was on, and each adds d * fc1[j][k]: {terms}")
    if all(close(got[k], shares[k][-1]) for k in range(len(x))):
        fail(f"{text}. Yours kept only the last share: write `+=`, so that the shares of all the "
             "hidden numbers add up.")
    if all(close(got[k], sum(DH[j] * x[k] for j in on)) for k in range(len(x))):
        fail(f"{text}. You multiplied d by xk, which is the weight's rate. x[k]'s own local grad "
             "in the product fc1[j][k] * x[k] is the other factor, the weight fc1[j][k].")
    fail(f"{text}.")


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
    wte = [[0.3, -0.9, 0.6], [1.1, 0.4, -0.2], [-0.5, 0.8, 0.7], [0.2, 0.2, -1.3]]
    fc1 = [[0.5, -1.0, 2.0], [1.2, 0.3, -0.4], [-0.9, 0.6, 0.1], [0.4, 1.1, 0.9]]
    fc2 = [[0.7, -0.3, 0.5, 0.2], [-0.6, 0.9, 0.1, -0.4], [0.3, 0.2, -0.8, 0.6]]
    token, target = 1, 2

    def loss():
        h = _hidden(wte, fc1, token)
        return _softmax_loss([sum(w * v for w, v in zip(row, h)) for row in fc2], target)

    h = _hidden(wte, fc1, token)
    logits = [sum(w * v for w, v in zip(row, h)) for row in fc2]
    dlogits = [_slope(lambda: _softmax_loss(logits, target), logits, i) for i in range(3)]
    dh = [sum(d * fc2[i][j] for i, d in enumerate(dlogits)) for j in range(len(h))]
    _, _, fc1_grads, wte_grads = _run(code, wte, fc1, token, dh)
    for name, table, grads in (("mlp_fc1", fc1, fc1_grads), ("wte", wte, wte_grads)):
        for r, row in enumerate(table):
            for k in range(len(row)):
                measured = _slope(loss, row, k)
                if not close(grads[r][k], measured, rel=1e-5, abs_tol=1e-7):
                    fail(f"With train1.py's kind of loss (the hidden numbers through a last layer "
                         f"and -log of a softmax), nudging {name}[{r}][{k}] itself moves the loss "
                         f"at {number(measured)}, but fc1_backward gave it "
                         f"{number(grads[r][k])}.")
    return ("With a real -log p loss, all 12 weights of mlp_fc1 and the 3 of the token's row of "
            "wte agree with nudging, and the other rows of wte stay at 0.")
