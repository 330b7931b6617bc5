"""Checks for lesson 5.5: softmax(logits) gives probabilities that add up to 1, safely.

Expectations are worked out here with math.exp after subtracting the max, and compared with
`close`, so any correct way of writing the four lines passes (loops, math.fsum, a generator).
The second check feeds large logits, where exp() without the max overflows; when it does, a
stand-in for math.exp notes the numbers the learner's softmax handed it, so the message says
what was subtracted from the logits (measured, never guessed). The third compares the model's
probabilities for every token, and the last compares softmax with ours on new lists: longer
than the vocabulary, huge, equal, each called twice, the list looked at after the call.
"""
import math

from linebyline.runtime import (
    agrees,
    calling,
    check,
    close,
    fail,
    number,
    number_lists,
    replacing,
    shown,
)

FIX_EXPS = "Each exp is e to the logit minus the biggest: `exps = [math.exp(v - biggest) for v in logits]`."
FIX_TOTAL = "Divide by the sum of the exps: `total = sum(exps)`."
FIX_MAX = "Subtract the biggest logit: `biggest = max(logits)`, then `math.exp(v - biggest)`."
# A list whose first, last, smallest and biggest logits are four different numbers: what a
# softmax subtracts from it says which of them it took.
PROBE = [3.0, 1.0, 2.0, 5.0, 4.0]


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
    given = list(logits)
    with calling(call):
        out = code.softmax(given)
    if given != list(logits):
        fail(f"`{call}` changed the list of logits it was given: afterwards it held "
             f"{_list(given) if all(_is_number(v) for v in given) else shown(given)}. softmax "
             "only reads the logits: the list belongs to the code that called it, which may "
             "still need it afterwards. The probabilities go into a new list.",
             fix="Build new lists: `exps = [math.exp(v - biggest) for v in logits]`, then "
             "`return [e / total for e in exps]`.")
    if out is not None and not isinstance(out, (list, tuple)) and hasattr(out, "__next__"):
        fail(f"`{call}` returned a generator, not a list. Round brackets around a comprehension "
             "make a generator, which can be read only once; square brackets make a list.")
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
        _, again = _call(code, SMALL)
        if _same(again, want):
            return
        fail(f"Called once, `{call}` returned the right probabilities, {_list(out)}. Called a "
             f"second time on the same logits, it returned {shown(again)}: "
             f"{len(again)} numbers for {len(SMALL)} logits. Something of your softmax lives on "
             "from one call to the next, so every call after the first gives wrong "
             "probabilities. Everything softmax builds has to be made inside it, afresh on "
             "every call.", fix="Make a new list on every call, inside softmax: "
             "`exps = [math.exp(v - biggest) for v in logits]`.")
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
             f"{number(sum(exps))}: then the probabilities add up to 1, {_list(want)}.",
             fix=FIX_TOTAL)
    if _same(out, [e / max(exps) for e in exps]):
        fail(f"{seen}: the biggest logit gets probability 1 and the total is {number(sum(out))}. "
             "Each exp was divided by the largest exp; divide by the sum of all the exps, so "
             f"that they add up to 1: {_list(want)}.", fix=FIX_TOTAL)
    shifted = [v - max(SMALL) for v in SMALL]
    if _same(out, [s / sum(shifted) for s in shifted]):
        fail(f"{seen}: the logits minus the biggest were divided by their sum, with no exp. "
             "exp() is what makes every number positive and lets a bigger logit win by a "
             f"lot. Expected {_list(want)}.", fix=FIX_EXPS)
    if not close(sum(out), 1.0, 1e-9, 1e-9):
        fail(f"{seen}, which adds up to {number(sum(out))}. Probabilities must add up to 1: "
             f"divide each exp by the sum of all the exps. Expected {_list(want)}.",
             fix=FIX_TOTAL)
    fail(f"{seen}, but should return {_list(want)}: e raised to each logit (minus the biggest), "
         "each divided by the sum of them all.")


def _subtracted(code, logits):
    """What the learner's softmax subtracted from each logit before exp(), measured with a
    stand-in for their math.exp: one number if it subtracted the same from every logit it
    reached, else None (exp not called through math.exp, or not as logit minus something)."""
    seen = []
    try:
        real = code.math.exp
    except Exception:  # noqa: BLE001 - no `math` in their file: nothing to watch
        return None

    def spy(value):
        seen.append(value)
        return real(value)

    try:
        with replacing(code.math, "exp", spy):
            code.softmax(list(logits))
    except (OverflowError, ZeroDivisionError):
        pass
    if not seen or len(seen) > len(logits) or not all(_is_number(v) for v in seen):
        return None
    taken = [v - a for v, a in zip(logits, seen)]
    return taken[0] if all(close(t, taken[0], 1e-9, 1e-9) for t in taken) else None


def _which(value, logits):
    """Which logits of `logits` `value` is, in words: 'the smallest and the first logit'."""
    roles = [word for word, index in (("biggest", logits.index(max(logits))),
                                      ("smallest", logits.index(min(logits))), ("first", 0),
                                      ("last", len(logits) - 1)) if value == logits[index]]
    if roles:
        return "the " + " and the ".join(roles) + " logit"
    return "none of the logits"


def _overflow(code, call, logits, error):
    """The message for softmax(logits) raising `error`: what it subtracted, measured."""
    biggest = max(logits)
    took = _subtracted(code, logits)
    if took is None:
        fail(f"`{call}` raised {error}. The biggest logit here is {number(biggest)}: subtracted "
             "from every logit before exp(), it leaves every exponent at 0 or below, so exp() "
             "lands between 0 and 1 and never overflows (exp overflows past 709.78), and the "
             "biggest gives exp(0) = 1, so the total is at least 1.", fix=FIX_MAX)
    left = [v - took for v in logits]
    if error.startswith("Overflow"):
        result = (f"exp({number(max(left))}), far above the largest float (about 1.8e308; exp "
                  "overflows past 709.78)")
    else:
        result = (f"exp({number(max(left))}) as the biggest exp, so small that every exp and "
                  "their sum rounded to 0")
    if took == 0 and 0 not in logits:
        did = "your softmax handed the logits to exp() unchanged"
    else:
        did = (f"your softmax subtracted {number(took)} from every logit "
               f"({_which(took, logits)} here)")
    seen = f"`{call}` raised {error}: {did}, which left {result}."
    probe = _subtracted(code, PROBE)
    told = ""
    if probe is not None and probe != max(PROBE) and not (probe == took == 0):
        what = ("nothing," if probe == 0 and 0 not in PROBE
                else f"{number(probe)}, {_which(probe, PROBE)},")
        told = f" On {_code(PROBE)} it subtracts {what} not the biggest, {number(max(PROBE))}."
    fail(f"{seen}{told} Subtract the biggest logit, {number(biggest)} here: then every exponent "
         "is 0 or below, exp() lands between 0 and 1, and the probabilities stay the same.",
         fix=FIX_MAX)


LARGE = ([1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1002.0], [0.0, 800.0], [800.0, 0.0],
         [0.0, 800.0, 400.0])


@check("large logits do not overflow")
def _(code):
    for logits in LARGE:
        call = f"softmax({_code(logits)})"
        try:
            call, out = _call(code, logits)
        except OverflowError as error:
            _overflow(code, call, logits, f"OverflowError: {error}")
        except ZeroDivisionError as error:
            _overflow(code, call, logits, f"ZeroDivisionError: {error}")
        want = _softmax(logits)
        if not _same(out, want):
            fail(f"`{call}` returned {_list(out)}, but should return {_list(want)}, the same as "
                 f"softmax({_code([v - max(logits) for v in logits])}): adding the same number to "
                 "every logit does not change the probabilities.")
    return "softmax([1000.0, 999.0, 998.0]) gives the same probabilities as softmax([2.0, 1.0, 0.0])."


def _name(code):
    """The checks' example name: 'emma', or four letters the names file does have."""
    chars = list(code.chars)
    return "emma" if all(ch in chars for ch in "emma") else "".join(chars[:4])


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
            where = (f"gave {shown(probs)}" if not isinstance(probs, (list, tuple))
                     or len(probs) != len(want) else next(
                         f"gave probability [{i}] = {shown(p)} where it should be {number(w)}"
                         for i, (p, w) in enumerate(zip(probs, want))
                         if not (_is_number(p) and close(p, w, 1e-7, 1e-12))))
            fail(f"For token {token}, softmax of the model's {len(logits)} logits {where}: "
                 "math.exp of each logit minus the biggest, divided by the sum of them all.")
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


# Lists of 3, 1, 5 and up to 100 logits (more than the 27 of the vocabulary), spread from -8 to 8; then
# logits whose exp() overflows, equal ones, and a biggest logit that is neither first nor last.
agrees("softmax", number_lists(lengths=(3, 1, 5, 27, 40, 100)))
