"""Checks for lesson 6.3: backprop from dlogits through mlp_fc2, the ReLU gate, mlp_fc1 and wte.

Every expected gradient is worked out here by a separate backward pass written below (on the
learner's weights), and the last check measures gradients by nudging weights, independently of
any formula. Each check empties `grads` first, calls position_loss, and reads what it added.
"""
import math

from linebyline.runtime import calling, check, close, fail, number

INDEX_HELP = ("An index ran past the end of a list. mlp_fc2 has one row per logit i and one "
              "column per hidden unit j, so the weight joining h[j] to logits[i] is "
              "weights['mlp_fc2'][i][j]; mlp_fc1 has one row per unit j and one column per "
              "input k, so it is weights['mlp_fc1'][j][k].")


def _zero(code):
    for mat in code.grads.values():
        for row in mat:
            for k in range(len(row)):
                row[k] = 0.0


def _backward(code, token, target, n):
    """Everything one position contributes, worked out independently."""
    w = code.weights
    x = w['wte'][token]
    h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
    logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    probs = [e / sum(exps) for e in exps]
    dl = [(p - (i == target)) / n for i, p in enumerate(probs)]
    units = range(len(h))
    dh = [sum(dl[i] * w['mlp_fc2'][i][j] for i in range(len(dl))) for j in units]
    gated = [dh[j] if h[j] > 0 else 0.0 for j in units]
    return {
        "x": x, "h": h, "dl": dl, "dh": dh, "gated": gated,
        "fc2": [[d * hj for hj in h] for d in dl],
        "fc1": [[gated[j] * xk for xk in x] for j in units],
        "wte": [sum(gated[j] * w['mlp_fc1'][j][k] for j in units) for k in range(len(x))],
        "fc1_ungated": [[dh[j] * xk for xk in x] for j in units],
        "wte_ungated": [sum(dh[j] * w['mlp_fc1'][j][k] for j in units) for k in range(len(x))],
        "dh_last": [dl[-1] * w['mlp_fc2'][-1][j] for j in units],
        "dh_with_h": [sum(dl) * h[j] for j in units],
    }


def _same(got, want):
    return all(close(g, v, rel=1e-7, abs_tol=1e-12) for g, v in zip(got, want))


def _same_rows(got, want):
    return len(got) == len(want) and all(_same(g, v) for g, v in zip(got, want))


def _one_position(code):
    """Empty grads, run position_loss once for a position of a short name; return what to expect."""
    doc = next((d for d in code.docs[:300] if 3 <= len(d) <= 6), code.docs[0])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]
    token, target, n = tokens[1], tokens[2], len(tokens) - 1
    want = _backward(code, token, target, n)
    _zero(code)
    call = f"position_loss({token}, {target}, {n})"
    try:
        with calling(call):
            code.position_loss(token, target, n)
    except IndexError:
        fail(f"`{call}` raised IndexError. {INDEX_HELP}")
    where = (f"After `{call}` (reading {code.chars[token]!r} in {doc!r}, target "
             f"{code.chars[target]!r}, one of {n} positions), starting from empty grads")
    return where, token, want


def _first_off(got_rows, want_rows, label):
    for i, (got, want) in enumerate(zip(got_rows, want_rows)):
        for j, (g, v) in enumerate(zip(got, want)):
            if not close(g, v, rel=1e-7, abs_tol=1e-12):
                return f"{label}[{i}][{j}] is {number(g)} but should be {number(v)}"
    return ""


@check("fc2's gradient is dlogits times h")
def _(code):
    where, _token, want = _one_position(code)
    got = code.grads['mlp_fc2']
    if _same_rows(got, want["fc2"]):
        return
    off = _first_off(got, want["fc2"], "grads['mlp_fc2']")
    if all(not any(row) for row in got):
        fail(f"{where}, grads['mlp_fc2'] is still all 0. For each logit i and unit j, add "
             "d * hj (the logit's gradient times the unit's value) into grads['mlp_fc2'][i][j].")
    with_weights = [[d * wij for wij in row] for d, row in zip(want["dl"], code.weights['mlp_fc2'])]
    if _same_rows(got, with_weights):
        fail(f"{where}: {off}. Each entry holds d times the weight itself. logits[i] grows by "
             "h[j] for each unit the weight fc2[i][j] grows, so its gradient is d * hj.")
    fail(f"{where}: {off}. logits[i] = sum over j of fc2[i][j] * h[j], so the gradient of "
         "fc2[i][j] is dlogits[i] * h[j]: add d * hj.")


@check("dh collects every logit's share")
def _(code):
    where, _token, want = _one_position(code)
    got = code.grads['mlp_fc1']
    on = [j for j, hj in enumerate(want["h"]) if hj > 0]
    if all(_same(got[j], want["fc1"][j]) for j in on):
        return
    j = next(j for j in on if not _same(got[j], want["fc1"][j]))
    seen = (f"{where}, hidden unit {j} is on (h[{j}] = {number(want['h'][j])}), so "
            f"grads['mlp_fc1'][{j}] should be dh[{j}] times x, with dh[{j}] = "
            f"{number(want['dh'][j])}; but grads['mlp_fc1'][{j}][0] is {number(got[j][0])} "
            f"instead of {number(want['fc1'][j][0])}.")
    if all(not any(got[j]) for j in on):
        fail(f"{seen} Nothing reached grads['mlp_fc1']: inside `for k, xk in enumerate(x)`, add "
             "d * xk into grads['mlp_fc1'][j][k] (here d is dh[j]).")
    if all(_same(got[j], [want["dh_last"][j] * xk for xk in want["x"]]) for j in on):
        fail(f"{seen} dh[{j}] holds only the last logit's share: `dh[j] = ...` replaces what the "
             "other 26 logits put there. h[j] feeds every logit, so its gradient is the sum of "
             "all their shares: write `dh[j] += d * weights['mlp_fc2'][i][j]`.")
    if all(_same(got[j], [want["dh_with_h"][j] * xk for xk in want["x"]]) for j in on):
        fail(f"{seen} dh[{j}] was built from h[j] instead of the weight. How fast logits[i] "
             "moves when h[j] moves is the weight fc2[i][j], so add d * weights['mlp_fc2'][i][j].")
    positive = [j for j in on if want["dh"][j] > 0]
    if all(_same(got[j], want["fc1"][j] if j in positive else [0.0] * len(got[j])) for j in on):
        fail(f"{seen} The gate looks at the gradient, letting only positive dh[j] through. "
             "ReLU's slope depends on what it did going forward: 1 where the unit is on "
             "(h[j] > 0), whatever the sign of dh[j].")
    fail(f"{seen} dh[j] must add up d * weights['mlp_fc2'][i][j] over every logit i, and the "
         "fc1 line must add d * xk into grads['mlp_fc1'][j][k].")


@check("the ReLU gate blocks units that are off")
def _(code):
    where, _token, want = _one_position(code)
    got = code.grads['mlp_fc1']
    off = [j for j, hj in enumerate(want["h"]) if hj <= 0]
    leaked = [j for j in off if any(got[j])]
    if not leaked:
        return
    j = leaked[0]
    seen = (f"{where}, hidden unit {j} is off (its input was below 0, so h[{j}] = 0), yet "
            f"grads['mlp_fc1'][{j}][0] is {number(got[j][0])} instead of 0; {len(leaked)} of "
            f"the {len(off)} units that are off got a gradient.")
    if all(_same(got[j], want["fc1_ungated"][j]) for j in off):
        fail(f"{seen} The ReLU gate is missing. A unit that is off gave 0 whatever its input "
             "did, so its slope is 0 and nothing may flow back through it: wrap the inner loop "
             "in `if h[j] > 0:`.")
    fail(f"{seen} Let the gradient through only where h[j] > 0.")


@check("the embedding row gets its share")
def _(code):
    where, token, want = _one_position(code)
    got = code.grads['wte']
    if _same(got[token], want["wte"]) and all(not any(row) for i, row in enumerate(got) if i != token):
        return
    if _same(got[token], want["wte"]):
        other = next(i for i, row in enumerate(got) if i != token and any(row))
        fail(f"{where}, grads['wte'][{other}] changed too, but the model read only row {token} "
             f"of wte ({code.chars[token]!r}). Only grads['wte'][token] may grow.")
    moved = next((i for i, row in enumerate(got) if i != token and _same(row, want["wte"])), None)
    if moved is not None:
        fail(f"{where}, the embedding gradient went into grads['wte'][{moved}], not into the "
             f"row of the token read, {token}: x is weights['wte'][token], so its gradient "
             "belongs in grads['wte'][token].")
    seen = (f"{where}, grads['wte'][{token}][0] is {number(got[token][0])} but should be "
            f"{number(want['wte'][0])}: the sum over the units that are on of dh[j] times "
            f"weights['mlp_fc1'][j][0].")
    if not any(got[token]):
        fail(f"{seen} Nothing reached it: inside `for k, xk in enumerate(x)`, add "
             "d * weights['mlp_fc1'][j][k] into grads['wte'][token][k].")
    if _same(got[token], want["wte_ungated"]):
        fail(f"{seen} It includes units that are off: put this line under the ReLU gate too.")
    last = max(j for j, hj in enumerate(want["h"]) if hj > 0)
    only_last = [want["gated"][last] * w for w in code.weights['mlp_fc1'][last]]
    if _same(got[token], only_last):
        fail(f"{seen} It holds only the last unit's share: `=` replaced what the other units put "
             "there. x[k] feeds every unit of the hidden layer, so their shares add up: write "
             "`grads['wte'][token][k] += ...`.")
    fail(f"{seen} x[k] reaches unit j through the weight fc1[j][k], so add "
         "d * weights['mlp_fc1'][j][k].")


def _name(code):
    doc = next((d for d in code.docs[:300] if 4 <= len(d) <= 6), code.docs[0])
    return doc, [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]


@check("the positions' shares add up")
def _(code):
    doc, tokens = _name(code)
    n = len(tokens) - 1
    totals = {name: [[0.0] * len(row) for row in mat] for name, mat in code.weights.items()}
    last = None
    for pos in range(n):
        part = _backward(code, tokens[pos], tokens[pos + 1], n)
        for name, key in (("mlp_fc2", "fc2"), ("mlp_fc1", "fc1")):
            for row, add in zip(totals[name], part[key]):
                for k, value in enumerate(add):
                    row[k] += value
        for k, value in enumerate(part["wte"]):
            totals['wte'][tokens[pos]][k] += value
        last = part
    _zero(code)
    with calling(f"position_loss for each of the {n} positions of {doc!r}"):
        for pos in range(n):
            code.position_loss(tokens[pos], tokens[pos + 1], n)
    for name in ("mlp_fc2", "mlp_fc1", "wte"):
        off = _first_off(code.grads[name], totals[name], f"grads[{name!r}]")
        if not off:
            continue
        seen = (f"After position_loss ran for each of the {n} positions of {doc!r}, starting "
                f"from empty grads: {off}.")
        if name == "mlp_fc2" and _same_rows(code.grads[name], last["fc2"]):
            fail(f"{seen} grads['mlp_fc2'] holds only the last position's share: `=` replaced "
                 "the shares the earlier positions had put there. Every position uses the same "
                 "weights, so their shares must add up: write `+=`.")
        if name == "mlp_fc1" and _same_rows(code.grads[name], last["fc1"]):
            fail(f"{seen} grads['mlp_fc1'] holds only the last position's share: write `+=` so "
                 "the shares of all positions add up.")
        fail(f"{seen} Each position must add its share to grads, on top of the others' (`+=`).")


@check("every gradient matches nudging")
def _(code):
    doc, tokens = _name(code)
    n = len(tokens) - 1
    _zero(code)
    with calling(f"position_loss for each of the {n} positions of {doc!r}"):
        for pos in range(n):
            code.position_loss(tokens[pos], tokens[pos + 1], n)

    def loss():
        total = 0.0
        w = code.weights
        for pos in range(n):
            x = w['wte'][tokens[pos]]
            h = [max(0.0, sum(a * b for a, b in zip(row, x))) for row in w['mlp_fc1']]
            logits = [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]
            top = max(logits)
            exps = [math.exp(v - top) for v in logits]
            total -= math.log(exps[tokens[pos + 1]] / sum(exps))
        return total / n

    first = _backward(code, tokens[0], tokens[1], n)
    on = next(j for j, hj in enumerate(first["h"]) if hj > 0)
    picked = [('wte', code.BOS, 0), ('wte', code.BOS, 5), ('wte', tokens[1], 3),
              ('mlp_fc1', on, 0), ('mlp_fc1', on, 7), ('mlp_fc1', 63, 2),
              ('mlp_fc2', tokens[1], on), ('mlp_fc2', code.BOS, 10), ('mlp_fc2', 0, 30)]
    step = 1e-5
    for name, i, k in picked:
        row = code.weights[name][i]
        old = row[k]
        try:
            row[k] = old + step
            up = loss()
            row[k] = old - step
            down = loss()
        finally:
            row[k] = old
        measured = (up - down) / (2 * step)
        got = code.grads[name][i][k]
        if not close(got, measured, rel=1e-4, abs_tol=1e-9):
            fail(f"For {doc!r}, backprop gave grads[{name!r}][{i}][{k}] = {number(got)}, but "
                 f"nudging weights[{name!r}][{i}][{k}] by ±{step:g} moves the name's loss at "
                 f"{number(measured)}. Backprop and nudging must agree on every weight.")
    return f"{len(picked)} gradients of {doc!r}, across all three matrices, agree with nudging."
