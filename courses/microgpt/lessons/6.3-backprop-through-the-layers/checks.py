"""Checks for lesson 6.3: backprop from dlogits through mlp_fc2, the ReLU gate, mlp_fc1 and wte.

Every expected gradient is worked out here by a separate backward pass written below (on the
learner's weights), and the last check measures gradients by nudging weights, independently of
any formula. Each check empties `grads` first, calls position_loss, and reads what it added
(and makes sure the weights themselves were left alone). The last compares position_loss with
ours on models of their own (more tokens than the course has, other widths, bigger weights),
twice each, with empty grads each time.
"""
import math

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    differ,
    fail,
    learner_line,
    number,
    plain,
    replacing,
)

# Each fix holds only the line a message has found wrong, never a line that may be right.
FIX_FC2 = "In the first loop: `grads['mlp_fc2'][i][j] += d * hj`."
FIX_DH = "In the first loop: `dh[j] += d * weights['mlp_fc2'][i][j]`."
FIX_GATE = "The gate: `if h[j] > 0:`."
FIX_FC1 = "Under the gate: `grads['mlp_fc1'][j][k] += d * xk`."
FIX_WTE = "Under the gate: `grads['wte'][token][k] += d * weights['mlp_fc1'][j][k]`."
LINE_OF = {"mlp_fc2": FIX_FC2, "mlp_fc1": FIX_FC1, "wte": FIX_WTE}  # the line that fills grads[name]

INDEX_HELP = ("mlp_fc2 has one row per logit i and one column per hidden unit j, so the weight "
              "joining h[j] to logits[i] is weights['mlp_fc2'][i][j]; mlp_fc1 has one row per "
              "unit j and one column per input k, so it is weights['mlp_fc1'][j][k]. h and dh "
              "hold one number per unit j, x one per input k.")


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
    before = {name: [list(row) for row in mat] for name, mat in code.weights.items()}
    try:
        with calling(call):
            code.position_loss(token, target, n)
    except IndexError as error:
        line = learner_line(error, code)
        at = f" on line {line} of your code" if line is not None else ""
        fail(f"`{call}` raised IndexError{at}: an index ran past the end of a list. {INDEX_HELP}")
    where = (f"After `{call}` (reading {code.chars[token]!r} in {doc!r}, target "
             f"{code.chars[target]!r}, one of {n} positions), starting from empty grads")
    for name, mat in code.weights.items():
        for i, row in enumerate(mat):
            if list(row) != before[name][i]:
                k = next(k for k, (a, b) in enumerate(zip(row, before[name][i])) if a != b)
                moved = sum(1 for old, new in zip(before[name], mat) if list(new) != old)
                by = row[k] - before[name][i][k]
                for fixed, old in zip(mat, before[name]):
                    fixed[:] = old  # the other checks need the file's own weights
                # Only when grads[name] got nothing is its line surely the one that wrote here.
                empty = not any(v for grad_row in code.grads[name] for v in grad_row)
                fail(f"{where}, weights[{name!r}][{i}][{k}] had moved by "
                     f"{number(by)} ({moved} rows of "
                     f"weights[{name!r}] changed)"
                     + (f", and grads[{name!r}] got nothing" if empty else "")
                     + ". Backprop only works out the gradients: it adds "
                     "them into grads, and leaves the weights as they are. Moving the weights "
                     "is the step of 6.5, once the gradients of the whole name are known.",
                     fix=LINE_OF[name] if empty else "")
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
        fail(f"{where}, grads['mlp_fc2'] is still all 0. Each weight fc2[i][j] should get the "
             "logit's gradient d times the unit's value h[j].", fix=FIX_FC2)
    with_weights = [[d * wij for wij in row] for d, row in zip(want["dl"], code.weights['mlp_fc2'])]
    if _same_rows(got, with_weights):
        fail(f"{where}: {off}. Each entry holds d times the weight itself. logits[i] grows by "
             "h[j] for each unit the weight fc2[i][j] grows, so its gradient is d times h[j].",
             fix=FIX_FC2)
    fail(f"{where}: {off}. logits[i] = sum over j of fc2[i][j] * h[j], so the gradient of "
         "fc2[i][j] is dlogits[i] times h[j].", fix=FIX_FC2)


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
        fail(f"{seen} Nothing reached grads['mlp_fc1']: each weight fc1[j][k] should get dh[j] "
             "times its input x[k].", fix=FIX_FC1)
    if all(_same(got[j], [want["dh_last"][j] * xk for xk in want["x"]]) for j in on):
        fail(f"{seen} dh[{j}] holds only the last logit's share: each logit's share replaced "
             f"what the other {len(code.weights['mlp_fc2']) - 1} logits had put there. h[j] "
             "feeds every logit, so its gradient is the sum of all their shares.",
             fix="Add each share: `dh[j] += d * weights['mlp_fc2'][i][j]`.")
    if all(_same(got[j], [want["dh_with_h"][j] * xk for xk in want["x"]]) for j in on):
        fail(f"{seen} dh[{j}] was built from h[j] instead of the weight. How fast logits[i] "
             "moves when h[j] moves is the weight fc2[i][j].", fix=FIX_DH)
    positive = [j for j in on if want["dh"][j] > 0]
    if all(_same(got[j], want["fc1"][j] if j in positive else [0.0] * len(got[j])) for j in on):
        fail(f"{seen} The gate looks at the gradient, letting only positive dh[j] through. "
             "ReLU's slope depends on what it did going forward: 1 where the unit is on "
             "(h[j] > 0), whatever the sign of dh[j].", fix=FIX_GATE)
    ratio = _times_x(got[j], want["x"])
    if ratio is not None:
        fail(f"{seen} Your grads['mlp_fc1'][{j}] is x times {number(ratio)}, so the fc1 line "
             f"multiplies by x as it should, but your dh[{j}] came out as {number(ratio)}: dh[j] "
             "must add up every logit's share, its gradient d times the weight fc2[i][j] joining "
             "it to h[j].", fix=FIX_DH)
    fail(f"{seen} Your grads['mlp_fc1'][{j}] is not a multiple of x: each weight fc1[j][k] gets "
         "dh[j] times its own input x[k].", fix=FIX_FC1)


def _times_x(row, x):
    """c when row is c times x (numbers read off where x is biggest), else None."""
    k = max(range(len(x)), key=lambda i: abs(x[i]))
    if not x[k]:
        return None
    ratio = row[k] / x[k]
    return ratio if _same(row, [ratio * xk for xk in x]) else None


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
        if _zero_gets_through(code, off):
            fail(f"{seen} Every unit that is off passed its gradient back; yet with the h[j] of "
                 "those units made a hair below 0 (-1e-300 instead of 0), none did: your gate "
                 "lets h[j] = 0 through. ReLU makes the h[j] of a unit that is off exactly 0, "
                 "and its slope there is 0: only a unit with h[j] above 0 passes dh[j] on.",
                 fix=FIX_GATE)
        fail(f"{seen} The ReLU gate is missing. A unit that is off gave 0 whatever its input "
             "did, so its slope is 0 and nothing may flow back through it.", fix=FIX_GATE)
    fail(f"{seen} The gradient may pass only where the unit is on, h[j] above 0.",
         fix=FIX_GATE)


def _zero_gets_through(code, off):
    """Whether the leak stops when mlp() (given) hands back -1e-300 for the h[j] of the units
    that are off instead of 0: then the gate tests h[j] >= 0 (or the like), not h[j] > 0."""
    doc = next((d for d in code.docs[:300] if 3 <= len(d) <= 6), code.docs[0])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]
    real = code.mlp

    def below_zero(token):
        x, h, logits = real(token)
        return x, [v if v > 0 else -1e-300 for v in h], logits

    _zero(code)
    with replacing(code, "mlp", below_zero), calling(
            f"position_loss({tokens[1]}, {tokens[2]}, {len(tokens) - 1}), with h[j] a hair below "
            "0 for the units that are off"):
        code.position_loss(tokens[1], tokens[2], len(tokens) - 1)
    return not any(any(code.grads['mlp_fc1'][j]) for j in off)


@check("the embedding row gets its share")
def _(code):
    where, token, want = _one_position(code)
    got = code.grads['wte']
    if _same(got[token], want["wte"]) and all(not any(row) for i, row in enumerate(got) if i != token):
        return
    if _same(got[token], want["wte"]):
        other = next(i for i, row in enumerate(got) if i != token and any(row))
        fail(f"{where}, grads['wte'][{other}] changed too, but the model read only row {token} "
             f"of wte ({code.chars[token]!r}). Only the row of the token read may grow.",
             fix=FIX_WTE)
    moved = next((i for i, row in enumerate(got) if i != token and _same(row, want["wte"])), None)
    if moved is not None:
        fail(f"{where}, the embedding gradient went into grads['wte'][{moved}], not into the "
             f"row of the token read, {token}: x is that token's row of wte, so its gradient "
             "belongs in the same row of grads['wte'].", fix=FIX_WTE)
    seen = (f"{where}, grads['wte'][{token}][0] is {number(got[token][0])} but should be "
            f"{number(want['wte'][0])}: the sum over the units that are on of dh[j] times "
            f"weights['mlp_fc1'][j][0].")
    if not any(got[token]):
        fail(f"{seen} Nothing reached it: x[k] should get, from every unit j that is on, dh[j] "
             "times the weight fc1[j][k] joining them.", fix=FIX_WTE)
    if _same(got[token], want["wte_ungated"]):
        fail(f"{seen} It includes units that are off: the ReLU gate must stop their share to x "
             "too: the embedding line belongs under the gate, beside the fc1 line.", fix=FIX_WTE)
    last = max(j for j, hj in enumerate(want["h"]) if hj > 0)
    only_last = [want["gated"][last] * w for w in code.weights['mlp_fc1'][last]]
    if _same(got[token], only_last):
        fail(f"{seen} It holds only the last unit's share: each unit's share replaced what the "
             "other units had put there. x[k] feeds every unit of the hidden layer, so their "
             "shares add up.", fix="Add with `+=`, not `=`. " + FIX_WTE)
    fail(f"{seen} x[k] reaches unit j through the weight fc1[j][k], so its share is dh[j] "
         "times that weight.", fix=FIX_WTE)


def _name(code):
    doc = next((d for d in code.docs[:300] if 4 <= len(d) <= 6), code.docs[0])
    return doc, [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]


def _grads_now(code):
    return {name: [list(row) for row in mat] for name, mat in code.grads.items()}


def _replaced(together, alone, name):
    """Whether each entry of grads[name] holds only the share of the last position that wrote
    it: what `=` leaves where `+=` belongs."""
    if _same_rows(together[name], alone[-1][name]):
        return True
    latest = [[next((share[name][i][k] for share in reversed(alone) if share[name][i][k]), 0.0)
               for k in range(len(row))] for i, row in enumerate(together[name])]
    return _same_rows(together[name], latest)


def _own_shares_wrong(code, doc, tokens, n, alone):
    """Fail at the first position whose share, run alone, differs from the one worked out here."""
    for pos in range(n):
        part = _backward(code, tokens[pos], tokens[pos + 1], n)
        wte = [[0.0] * len(row) for row in code.weights['wte']]
        wte[tokens[pos]] = part["wte"]
        for name, want in (("mlp_fc2", part["fc2"]), ("mlp_fc1", part["fc1"]), ("wte", wte)):
            off = _first_off(alone[pos][name], want, f"grads[{name!r}]")
            if off:
                fail(f"Run alone from empty grads, `position_loss({tokens[pos]}, {tokens[pos + 1]}, "
                     f"{n})` (position {pos} of {doc!r}, reading "
                     f"{'BOS' if tokens[pos] == code.BOS else repr(code.chars[tokens[pos]])}) "
                     f"leaves {off}. Your positions add up as they should, but this position's "
                     "own share is wrong.")


@check("the positions' shares add up")
def _(code):
    doc, tokens = _name(code)
    n = len(tokens) - 1
    alone = []
    with calling(f"position_loss for each of the {n} positions of {doc!r}, one at a time from "
                 "empty grads"):
        for pos in range(n):
            _zero(code)
            code.position_loss(tokens[pos], tokens[pos + 1], n)
            alone.append(_grads_now(code))
    _zero(code)
    with calling(f"position_loss for each of the {n} positions of {doc!r}"):
        for pos in range(n):
            code.position_loss(tokens[pos], tokens[pos + 1], n)
    together = _grads_now(code)
    for name in ("mlp_fc2", "mlp_fc1", "wte"):
        summed = [[sum(share[name][i][k] for share in alone) for k in range(len(row))]
                  for i, row in enumerate(together[name])]
        off = _first_off(together[name], summed, f"grads[{name!r}]")
        if not off:
            continue
        seen = (f"After position_loss ran for each of the {n} positions of {doc!r}, starting "
                f"from empty grads, {off}: the sum of the shares the {n} positions give when "
                "each runs alone.")
        if _replaced(together, alone, name):
            fail(f"{seen} grads[{name!r}] holds only the last share each entry got: every "
                 "position's share replaced what the earlier positions had put there. Every "
                 "position uses the same weights, so their shares must add up.",
                 fix="Add with `+=`, not `=`. " + LINE_OF[name])
        fail(f"{seen} Run one after another, your calls do not add up to what each gives alone: "
             f"something carries over from one call to the next, or takes away what the calls "
             f"before put into grads[{name!r}]. Each call must only add its share on top.")
    _own_shares_wrong(code, doc, tokens, n, alone)


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


# --- position_loss on models of its own -----------------------------------------------------

def _matrix(rng, rows, cols, scale):
    return [[round(rng.gauss(0, scale), 4) for _ in range(cols)] for _ in range(rows)]


def _models(rng):
    """(token, target, n) with weights of new numbers: the real shapes, then more tokens than
    the course's names give, another width, and weights big enough for logits in the tens."""
    for vocab, n_embd, hidden, scale, token, target, n, note in (
            (27, 16, 64, 0.08, 26, 4, 5, ""), (27, 16, 64, 0.3, 4, 26, 1, ""),
            (40, 8, 32, 0.5, 33, 38, 16, "40 tokens, more than the course's 27"),
            (5, 3, 12, 1.0, 2, 0, 3, "a model of 5 tokens"),
            (27, 16, 64, 1.5, 7, 12, 16, "weights big enough for logits in the tens")):
        weights = {'wte': _matrix(rng, vocab, n_embd, scale),
                   'mlp_fc1': _matrix(rng, hidden, n_embd, scale),
                   'mlp_fc2': _matrix(rng, vocab, hidden, scale)}
        text = (f"token {token}, target {target}, n = {n}, empty grads and weights of new "
                f"numbers: wte {vocab} × {n_embd}, mlp_fc1 {hidden} × {n_embd}, mlp_fc2 "
                f"{vocab} × {hidden}")
        yield Case(text, lambda space, args=(token, target, n), weights=weights: (
            args, {name: [list(row) for row in mat] for name, mat in weights.items()}), note)


def _on(space, args):
    """position_loss(*args[0]) with weights args[1], and empty grads of their shapes, in place
    of the file's own; returns the loss and the grads it filled."""
    (token, target, n), weights = args
    grads = {name: [[0.0] * len(row) for row in mat] for name, mat in weights.items()}
    with replacing(space, "weights", weights), replacing(space, "grads", grads), \
            replacing(space, "n_embd", len(weights['wte'][0])), \
            replacing(space, "vocab_size", len(weights['wte'])):
        loss = space.position_loss(token, target, n)
    return loss, grads


def _parts(got, want):
    """Where (loss, grads) parts from ours, named by part."""
    for label, mine, ours in (("the loss", got[0], want[0]),
                              *((f"grads[{name!r}]", got[1][name], want[1][name])
                                for name in want[1])):
        problem = differ(plain(mine), plain(ours), rel=1e-7, abs_tol=1e-12)
        if problem:
            return f"{label}: {problem}"
    return ""


agrees("position_loss", _models, call=_on, compare=_parts,
       name="position_loss on other models, twice each")
