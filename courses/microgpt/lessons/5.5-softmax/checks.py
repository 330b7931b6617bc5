"""Checks for lesson 5.5: softmax(logits) gives probabilities that add up to 1, safely.

Expectations are worked out here with math.exp after subtracting the max, and compared with
`close`, so any correct way of writing the four lines passes (loops, math.fsum, a generator).
The second check feeds large logits, where exp() without the max overflows; the last one
compares the model's probabilities for every token, and checks that shifting all logits by the
same amount changes nothing.
"""
import math

from linebyline.runtime import calling, check, close, fail, number, shown


def _name(code):
    """The checks' example name: 'emma', or four letters the names file does have."""
    chars = list(code.chars)
    return "emma" if all(ch in chars for ch in "emma") else "".join(chars[:4])


def _softmax(logits):
    biggest = max(logits)
    exps = [math.exp(v - biggest) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _same(got, want, rel=1e-9):
    return (isinstance(got, (list, tuple)) and len(got) == len(want)
            and all(_is_number(g) and close(g, w, rel, 1e-12) for g, w in zip(got, want)))


def _list(values):
    return "[" + ", ".join(number(v) for v in values) + "]"


def _code(values):
    """A list of floats as Python code writes it: [1000.0, 999.0]."""
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def _call(code, logits):
    """softmax(logits) as a list, or fail saying what came back instead."""
    call = f"softmax({_code(logits)})"
    with calling(call):
        out = code.softmax(list(logits))
    if out is not None and not isinstance(out, (list, tuple)) and hasattr(out, "__next__"):
        fail(f"`{call}` returned a generator, not a list. Round brackets around a comprehension "
             "make a generator, which can be read only once; use square brackets.")
    if not isinstance(out, (list, tuple)) or not all(_is_number(p) for p in out):
        fail(f"`{call}` returned {shown(out)}, but should return a list of "
             f"{len(logits)} probabilities, one per logit.")
    return call, list(out)


SMALL = [1.0, 2.0, 3.0]


@check("softmax([1.0, 2.0, 3.0]), by hand")
def _(code):
    call, out = _call(code, SMALL)
    want = _softmax(SMALL)
    if _same(out, want):
        return
    seen = f"`{call}` returned {_list(out)}"
    if len(out) != len(SMALL):
        fail(f"{seen}: {len(out)} numbers, but there should be one probability per logit, "
             f"{len(SMALL)}: {_list(want)}.")
    if _same(out, [1 / len(SMALL)] * len(SMALL)):
        fail(f"{seen}: every logit gets the same share, still the placeholder. Bigger logits "
             f"must get bigger probabilities: {_list(want)}.")
    exps = [math.exp(v - max(SMALL)) for v in SMALL]
    if _same(out, [e / sum(SMALL) for e in exps]):
        fail(f"{seen}, which adds up to {number(sum(out))}, not 1: each exp was divided by the "
             f"sum of the logits ({number(sum(SMALL))}). Divide by the sum of the exps, "
             f"{number(sum(exps))}: then the probabilities add up to 1, {_list(want)}.")
    if _same(out, [e / max(exps) for e in exps]):
        fail(f"{seen}: the biggest logit gets probability 1 and the total is {number(sum(out))}. "
             "Each exp was divided by the largest exp; divide by the sum of all the exps, so "
             f"that they add up to 1: {_list(want)}.")
    shifted = [v - max(SMALL) for v in SMALL]
    if _same(out, [s / sum(shifted) for s in shifted]):
        fail(f"{seen}: the logits minus the biggest were divided by their sum, with no exp. "
             "exp() is what makes every number positive and lets a bigger logit win by a "
             f"lot: exps is math.exp(v - biggest) for each logit v. Expected {_list(want)}.")
    if not close(sum(out), 1.0, 1e-9, 1e-9):
        fail(f"{seen}, which adds up to {number(sum(out))}. Probabilities must add up to 1: "
             f"divide each exp by the sum of all the exps. Expected {_list(want)}.")
    fail(f"{seen}, but should return {_list(want)}: e raised to each logit (minus the biggest), "
         "each divided by the sum of them all.")


@check("large logits do not overflow")
def _(code):
    for logits in ([1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1002.0], [0.0, 800.0]):
        call = f"softmax({_code(logits)})"
        try:
            call, out = _call(code, logits)
        except OverflowError:
            if logits[0] == 0.0:
                fail(f"`{call}` raised OverflowError: math range error. math.exp(800.0) is far "
                     "above the largest float (about 1.8e308; exp overflows past 709.78). Your "
                     "softmax subtracts the smallest logit, which leaves 800 here. Subtract the "
                     "biggest: then every exponent is 0 or below and exp() lands between 0 and 1.")
            fail(f"`{call}` raised OverflowError: math range error. math.exp(1000.0) is far above "
                 "the largest float Python has (about 1.8e308; exp overflows past 709.78). "
                 "Subtract the biggest logit from every logit before exp(): the largest exponent "
                 "becomes 0, exp(0) = 1, and the probabilities stay the same.")
        except ZeroDivisionError:
            fail(f"`{call}` raised ZeroDivisionError: every math.exp(v) was so small that it "
                 "rounded to 0.0, and so did their sum. Subtract the biggest logit first: the "
                 "biggest then gives exp(0) = 1, so the sum is at least 1.")
        want = _softmax(logits)
        if not _same(out, want):
            fail(f"`{call}` returned {_list(out)}, but should return {_list(want)}, the same as "
                 f"softmax({_code([v - max(logits) for v in logits])}): adding the same number to "
                 "every logit does not change the probabilities.")
    return "softmax([1000.0, 999.0, 998.0]) gives the same probabilities as softmax([2.0, 1.0, 0.0])."


@check("the model's probabilities")
def _(code):
    weights = code.weights
    total_loss, count = 0.0, 0
    name = _name(code)
    tokens = [code.BOS] + [code.chars.index(ch) for ch in name] + [code.BOS]
    for token in range(len(weights['wte'])):
        with calling(f"mlp({token})"):
            logits = list(code.mlp(token)[2])
        with calling(f"softmax(the {len(logits)} logits of mlp({token}))"):
            probs = code.softmax(list(logits))
            shifted = code.softmax([v + 100.0 for v in logits])
        want = _softmax(logits)
        if not _same(probs, want, 1e-7):
            fail(f"For token {token}, softmax of the model's {len(logits)} logits does not match "
                 "math.exp of each logit minus the biggest, divided by their sum.")
        if not _same(shifted, want, 1e-7):
            fail(f"For token {token}, adding 100 to every logit changed what softmax returned. "
                 "Subtracting the biggest logit makes softmax ignore such a shift.")
        if not close(sum(probs), 1.0, 1e-9, 1e-9):
            fail(f"For token {token}, the probabilities add up to {number(sum(probs))}, not 1.")
    for a, b in zip(tokens, tokens[1:]):
        total_loss += -math.log(_softmax(list(code.mlp(a)[2]))[b])
        count += 1
    vocab = len(weights['wte'])
    return (f"All {vocab} tokens get {vocab} probabilities that add up to 1. At the start the "
            f"average loss over {name!r} is {total_loss / count:.4f}, about that of a uniform "
            f"guess, -log(1/{vocab}) = {-math.log(1 / vocab):.4f}.")
