"""Checks for lesson 6.2: d(loss)/d(logits) = (probs - one_hot(target)) / n.

The expectations are worked out here: the logits come from the learner's mlp() (given code), the
probabilities from a softmax written again below, and the last check measures every gradient by
nudging the logits, independently of the formula. The examples come from the learner's own data.
The last compares position_loss with ours on models of their own: more tokens than the course
has, other widths, logits in the tens; each called twice.
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
    number,
    plain,
    replacing,
    shown,
)

FIX = "The line: `dlogits = [(p - (i == target)) / n for i, p in enumerate(probs)]`."


def _probs(logits):
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    return [e / sum(exps) for e in exps]


def _token_name(code, token):
    return "BOS" if token == code.BOS else repr(code.chars[token])


def _cases(code):
    """(token, target, n) triples: the first and last position of a short name, and a middle one."""
    doc = next((d for d in code.docs[:300] if 3 <= len(d) <= 6), code.docs[0])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS]
    n = len(tokens) - 1
    return doc, [(tokens[0], tokens[1], n), (tokens[2], tokens[3], n), (tokens[-2], tokens[-1], 3)]


def _call(code, token, target, n):
    """The learner's dlogits for one position, after making sure of its shape."""
    call = f"position_loss({token}, {target}, {n})"
    with calling(call):
        result = code.position_loss(token, target, n)
    if not (isinstance(result, tuple) and len(result) == 2):
        fail(f"`{call}` returned {shown(result)}, but it must return two things, the loss and "
             "dlogits, as the starter's last line does: `return -math.log(probs[target]), dlogits`.")
    dlogits = result[1]
    if not isinstance(dlogits, (list, tuple)):
        fail(f"`{call}` returned dlogits = {shown(dlogits)}, but dlogits must be a list with one "
             "number per logit.")
    if len(dlogits) != code.vocab_size:
        fail(f"`{call}` returned a dlogits with {len(dlogits)} numbers, but the model has "
             f"{code.vocab_size} logits (one per possible next token), so dlogits needs "
             f"{code.vocab_size}: one per logit, in the same order.")
    for d in dlogits:
        if isinstance(d, bool) or not isinstance(d, (int, float)):
            fail(f"`{call}` returned a dlogits holding {shown(d)}: every entry must be a number. "
                 "Subtracting a comparison like (i == target) from a float gives a number.")
    return call, list(dlogits)


def _where(code, token, target, n):
    return (f"(reading {_token_name(code, token)}, target {_token_name(code, target)}, "
            f"one of {n} positions)")


@check("one gradient per logit")
def _(code):
    _doc, cases = _cases(code)
    for token, target, n in cases:
        _call(code, token, target, n)


@check("the target's share is (p - 1) / n")
def _(code):
    _doc, cases = _cases(code)
    for token, target, n in cases:
        call, dlogits = _call(code, token, target, n)
        logits = code.mlp(token)[2]
        p = _probs(logits)[target]
        want = (p - 1) / n
        got = dlogits[target]
        if close(got, want, rel=1e-9, abs_tol=1e-12):
            continue
        seen = (f"`{call}` {_where(code, token, target, n)}: the target has p = {number(p)}, so "
                f"dlogits[{target}] should be (p - 1) / n = {number(want)}, but it is "
                f"{number(got)}.")
        if close(got, -want, rel=1e-9, abs_tol=1e-12):
            fail(f"{seen} The sign is flipped: that is one-hot minus probs. The target's logit "
                 "must get a negative gradient, so that stepping against it raises the target's "
                 "score; written the other way, every step of training would climb the loss.",
                 fix="`p - (i == target)`, not `(i == target) - p`. " + FIX)
        if close(got, p - 1, rel=1e-9, abs_tol=1e-12):
            fail(f"{seen} It is p - 1 without the / n. This position is one of n whose losses are "
                 "averaged, so its share of every gradient is 1/n as big.", fix=FIX)
        if close(got, p / n, rel=1e-9, abs_tol=1e-12):
            fail(f"{seen} That is p / n, as for any other token: the one-hot part is missing, "
                 "the 1 taken off at the target.", fix=FIX)
        if close(got, (logits[target] - 1) / n, rel=1e-9, abs_tol=1e-12):
            fail(f"{seen} It was computed from the logit ({number(logits[target])}), not the "
                 "probability: p comes from probs, the softmax of the logits.", fix=FIX)
        fail(f"{seen} For the target: its probability p, minus 1, over n.", fix=FIX)


@check("every other share is p / n")
def _(code):
    _doc, cases = _cases(code)
    for token, target, n in cases:
        call, dlogits = _call(code, token, target, n)
        probs = _probs(code.mlp(token)[2])
        for i, (p, got) in enumerate(zip(probs, dlogits)):
            if i == target or close(got, p / n, rel=1e-9, abs_tol=1e-12):
                continue
            seen = (f"`{call}` {_where(code, token, target, n)}: token {_token_name(code, i)} is "
                    f"not the target and has p = {number(p)}, so dlogits[{i}] should be p / n = "
                    f"{number(p / n)}, but it is {number(got)}.")
            if close(got, (p - 1) / n, rel=1e-9, abs_tol=1e-12):
                fail(f"{seen} 1 was subtracted from every token, not only from the target: the "
                     "one-hot vector is 1 at the target and 0 everywhere else. (With the one-hot right, the "
                     f"{len(dlogits)} numbers add up to 0; yours add up to "
                     f"{number(sum(dlogits))}.)", fix=FIX)
            fail(f"{seen} Every token other than the target gets its probability over n: raising "
                 "its logit raises its p, and so the loss, in proportion to p.", fix=FIX)


@check("dlogits matches nudging the logits")
def _(code):
    doc, cases = _cases(code)
    step = 1e-6
    for token, target, n in cases:
        call, dlogits = _call(code, token, target, n)
        logits = list(code.mlp(token)[2])

        def loss(z, target=target, n=n):
            return -math.log(_probs(z)[target]) / n

        for i in range(len(logits)):
            up, down = logits[:], logits[:]
            up[i] += step
            down[i] -= step
            measured = (loss(up) - loss(down)) / (2 * step)
            if not close(dlogits[i], measured, rel=1e-5, abs_tol=1e-8):
                fail(f"`{call}` {_where(code, token, target, n)}: nudging logits[{i}] by "
                     f"±{step:g} moves this position's share of the loss (-log p(target) / n) at "
                     f"a rate of {number(measured)}, but dlogits[{i}] is {number(dlogits[i])}. "
                     "The formula and the measured slope must agree for every logit.")
    return (f"All {len(cases) * code.vocab_size} gradients agree with nudging the logits "
            f"(positions of {doc!r}).")


# --- position_loss on models of its own -----------------------------------------------------

def _matrix(rng, rows, cols, scale):
    return [[round(rng.gauss(0, scale), 4) for _ in range(cols)] for _ in range(rows)]


def _models(rng):
    """(token, target, n) with weights of new numbers: the real shapes, then more tokens than
    the course's names give, another width, and weights big enough for logits in the tens."""
    for vocab, n_embd, hidden, scale, token, target, n, note in (
            (27, 16, 64, 0.08, 26, 4, 5, ""), (27, 16, 64, 0.08, 4, 26, 1, ""),
            (40, 8, 32, 0.5, 33, 38, 16, "40 tokens, more than the course's 27"),
            (5, 3, 12, 1.0, 2, 0, 3, "a model of 5 tokens"),
            (27, 16, 64, 1.5, 7, 12, 16, "weights big enough for logits in the tens")):
        weights = {'wte': _matrix(rng, vocab, n_embd, scale),
                   'mlp_fc1': _matrix(rng, hidden, n_embd, scale),
                   'mlp_fc2': _matrix(rng, vocab, hidden, scale)}
        text = (f"token {token}, target {target}, n = {n} and weights of new numbers: wte "
                f"{vocab} × {n_embd}, mlp_fc1 {hidden} × {n_embd}, mlp_fc2 {vocab} × {hidden}")
        yield Case(text, lambda space, args=(token, target, n), weights=weights: (
            args, {name: [list(row) for row in mat] for name, mat in weights.items()}), note)


def _on(space, args):
    """position_loss(*args[0]) with weights args[1] (and their sizes) in place of the file's."""
    (token, target, n), weights = args
    with replacing(space, "weights", weights), \
            replacing(space, "n_embd", len(weights['wte'][0])), \
            replacing(space, "vocab_size", len(weights['wte'])):
        return space.position_loss(token, target, n)


def _parts(got, want):
    """Where (loss, dlogits) parts from ours, named by part."""
    if not isinstance(got, (list, tuple)) or len(got) != 2:
        return f"it returned {shown(plain(got))}, not the two things loss and dlogits"
    for label, mine, ours in zip(("the loss", "dlogits"), got, want):
        problem = differ(plain(mine), plain(ours))
        if problem:
            return f"{label}: {problem}"
    return ""


agrees("position_loss", _models, call=_on, compare=_parts,
       name="position_loss on other models, twice each")
