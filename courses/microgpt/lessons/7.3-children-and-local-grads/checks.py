"""Checks for lesson 7.3, Children and local grads: softmax over Values builds a graph that
leads from every probability back to every logit.

The checks follow the graph themselves: `_slopes` walks it from an output down to the leaves,
multiplying local grads along the way and adding over paths (the chain rule), without calling
anything of the learner's but the operations that built it. The independent proof nudges each
logit's number and measures how the probabilities move.
"""
import math

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    cut_off,
    differ,
    fail,
    number,
    shown,
)

EXAMPLE = (1.0, 2.0, 3.0)
MAX_FIX = "`biggest = max(v.data for v in logits)`: the largest of the numbers, a plain number."
EXPS_FIX = "`exps = [(v - biggest).exp() for v in logits]`: each logit, shifted, through Value's exp."
BOTH_FIX = ("`biggest = max(v.data for v in logits)`, then "
            "`exps = [(v - biggest).exp() for v in logits]`.")


def _reference_probs(numbers):
    top = max(numbers)
    exps = [math.exp(x - top) for x in numbers]
    return [e / sum(exps) for e in exps]


def _show_numbers(values):
    return "[" + ", ".join(number(v) for v in values) + "]"


def _order(out):
    """Every node below `out` (itself included), each after all of its children."""
    order, seen, stack = [], set(), [(out, False)]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in getattr(node, "_children", ()))
    return order


def _slopes(out, leaves):
    """d(out)/d(leaf) for each leaf, by the chain rule over the recorded children and local
    grads (0 for a leaf out cannot reach)."""
    share = {id(out): 1.0}
    for node in reversed(_order(out)):
        mine = share.get(id(node), 0.0)
        for child, local in zip(node._children, node._local_grads):
            share[id(child)] = share.get(id(child), 0.0) + local * mine
    return [share.get(id(leaf), 0.0) for leaf in leaves]


def _softmax_of(code, numbers):
    V = code.Value
    logits = [V(x) for x in numbers]
    call = f"softmax([{', '.join(f'Value({number(x)})' for x in numbers)}])"
    try:
        with calling(call):
            probs = code.softmax(logits)
    except TypeError as error:
        if "'>'" in str(error) or "'<'" in str(error):
            fail(f"`{call}` raised TypeError: {error}. max() compares the logits with each "
                 "other, and a Value cannot be compared: Value defines +, *, ** and exp, but "
                 "no < or >. What softmax needs is the largest of the logits' numbers, a plain "
                 "number, which Python can compare.", fix=MAX_FIX)
        if "must be real number" in str(error):
            fail(f"`{call}` raised TypeError: {error}. math.exp works on plain numbers only, and "
                 "was handed a Value. Value has an exp of its own, which makes a node that "
                 "remembers its child.", fix=EXPS_FIX)
        raise
    except AttributeError as error:
        if "'float' object has no attribute 'exp'" in str(error):
            fail(f"`{call}` raised AttributeError: {error}. The number exp() was called on was "
                 "a plain float: reading .data from a logit (or subtracting from its .data) "
                 "leaves the graph. exp must be called on a Value: the logit minus biggest.",
                 fix=EXPS_FIX)
        raise
    _check_length(call, numbers, probs)
    return call, logits, probs


_returned = []  # how many probabilities each call of the learner's softmax gave, in order


def _check_length(call, numbers, probs):
    """One probability per logit, on every call: a list kept between calls grows."""
    count = len(probs) if isinstance(probs, list) else None
    earlier = list(_returned)
    _returned.append(count)
    if count is None or count == len(numbers):
        return
    before = (f" The first call of your softmax in these checks returned {earlier[0]}, for as "
              f"many logits: something made by an earlier call is still there and grew."
              if earlier and earlier[0] == len(numbers) else "")
    fail(f"`{call}` returned {count} Values for {len(numbers)} logits, but softmax gives "
         f"exactly one probability per logit.{before}")


@check("softmax gives Values that add up to 1")
def _(code):
    call, logits, probs = _softmax_of(code, EXAMPLE)
    want = _reference_probs(EXAMPLE)
    if not isinstance(probs, list):
        fail(f"`{call}` returned {shown(probs)}, but should return a list of "
             f"{len(EXAMPLE)} Values, one probability per logit.")
    plain = [p for p in probs if not isinstance(p, code.Value)]
    if plain:
        fail(f"`{call}` returned {shown(probs)}: plain numbers, not Values. A plain number has no "
             "children, so nothing leads from these probabilities back to the logits, and "
             "backward() could never tell a logit how it moves the loss. Every step from the "
             "logits to the probabilities must be an operation on Values.", fix=EXPS_FIX)
    got = [p.data for p in probs]
    if all(close(g, w) for g, w in zip(got, want)):
        return
    flipped = _reference_probs([-x for x in EXAMPLE])
    seen = (f"`{call}` gave the probabilities {_show_numbers(got)}, but they should be "
            f"{_show_numbers(want)}")
    if all(close(g, w) for g, w in zip(got, flipped)):
        fail(f"{seen}: yours are the probabilities of the negated logits, so they favour the "
             "smallest logit. e to the power (logit - biggest) is largest for the largest "
             "logit.", fix=EXPS_FIX)
    fail(f"{seen}: each should be e to the power (its logit - the biggest logit), divided by "
         "the sum of all of them.", fix=EXPS_FIX)


def _cut_at(call, logits, probs, i, j):
    """Fail: nothing below probs[i] leads back to logits[j] (and where the path stops)."""
    p = probs[i]
    below = _order(p)
    leaves = [n for n in below if n is not p and not n._children
              and not any(n is leaf for leaf in logits)]
    where = ""
    for held, what in ((math.exp(EXAMPLE[j] - max(EXAMPLE)), f"The exp of logits[{j}]"),
                       (EXAMPLE[j] - max(EXAMPLE), f"logits[{j}] minus the biggest"),
                       (EXAMPLE[j], f"A copy of logits[{j}]")):
        cut = next((n for n in leaves if held != 0 and close(n.data, held)), None)  # sum's 0
        if cut is not None:
            where = (f" {what} is there, holding {number(cut.data)}, but as a Value made from a "
                     "plain number: it has no children, so the path stops at it.")
            break
    fail(f"In `{call}`, nothing below probs[{i}] leads back to logits[{j}]: following the "
         f"children of probs[{i}] down, the {len(below)} nodes below it never reach that "
         f"logit.{where} backward() follows exactly these children, so logits[{j}] would get "
         "no gradient at all.", fix=EXPS_FIX)


@check("every probability leads back to its logit")
def _(code):
    call, logits, probs = _softmax_of(code, EXAMPLE)
    named = {f"logits[{j}]": logit for j, logit in enumerate(logits)}
    for i, p in enumerate(probs):  # every probability is computed from every logit (the total)
        cut = cut_off(p, named)
        if cut:
            _cut_at(call, logits, probs, i, list(named).index(cut[0]))
    p = probs[0]
    below = _order(p)
    exp_nodes = [n for n in below if len(n._children) == 1 and close(n.data, math.exp(-2.0))]
    for node in exp_nodes:
        local = node._local_grads[0]
        if not close(local, node.data):
            fail(f"In `{call}`, the exp node of logits[0] holds {number(node.data)} but records "
                 f"the local grad {number(local)}: e to the x is its own slope, so the two "
                 "must be the same number. (The exp operation of the starter was changed.)")


def _nudged(code, numbers, i, j, h=1e-6):
    """d(probs[i])/d(logits[j]), measured by nudging logit j's number up and down."""
    def prob(shift):
        moved = list(numbers)
        moved[j] += shift
        return code.softmax([code.Value(x) for x in moved])[i].data
    return (prob(h) - prob(-h)) / (2 * h)


@check("every slope through the graph matches nudging")
def _(code):
    call, logits, probs = _softmax_of(code, EXAMPLE)
    for i, p in enumerate(probs):
        through = _slopes(p, logits)
        with calling(f"{call} with one logit nudged at a time"):
            measured = [_nudged(code, EXAMPLE, i, j) for j in range(len(EXAMPLE))]
        for j, (g, m) in enumerate(zip(through, measured)):
            if not close(g, m, rel=1e-4, abs_tol=1e-7):
                fail(f"In `{call}`, multiplying the local grads along every path from probs[{i}] "
                     f"down to logits[{j}] (and adding over the paths) gives {number(g)}, but "
                     f"nudging logits[{j}] by a tiny step and measuring how probs[{i}] moves "
                     f"gives {number(m)}. The graph must carry the same slope as the numbers "
                     "do: every node on the way must be made by an operation on Values.",
                     fix=EXPS_FIX)
    return "Each of the 9 slopes from a probability to a logit agrees with nudging."


# --- softmax against ours, on new logits: longer lists, huge numbers, equal numbers -------

WEIGHTS = (1.5, -2.0, 0.75, 3.0)  # a made-up loss: each probability weighed, then summed


def _probs_and_slopes(space, args):
    """The probabilities, and how a weighed sum of them moves with each logit (through the
    graph, as backward() would see it)."""
    logits = args[0]
    numbers = [v.data for v in logits]
    try:
        probs = space.softmax(logits)
    except OverflowError as error:
        seen = f"`softmax` with the logits {_written(numbers)} raised OverflowError: {error}."
        fail(f"{seen} Some power of e was more than a float can hold (e to 709.78 is the largest "
             f"that fits). {_what_is_subtracted(space, numbers)}", fix=BOTH_FIX)
    if not all(hasattr(p, "_children") for p in probs):
        return {"probs": [getattr(p, "data", p) for p in probs], "slopes": "not Values"}
    loss = sum(p * WEIGHTS[i % len(WEIGHTS)] for i, p in enumerate(probs))
    return {"probs": [p.data for p in probs], "slopes": _slopes(loss, logits)}


PROBE = (0.5, 2.0, -1.0)  # the first, the largest and the smallest logit all differ


def _shift(space):
    """The number softmax subtracts from every logit before exp, read off the graph it builds
    for PROBE (each exp node's input is a logit minus it); None when that cannot be seen."""
    with calling(f"softmax({_show_numbers(PROBE)})"):
        probs = space.softmax([space.Value(x) for x in PROBE])
    inputs = set()
    for node in _order(probs[0]) if probs and hasattr(probs[0], "_children") else ():
        children = getattr(node, "_children", ())
        if (len(children) == 1 and len(node._local_grads) == 1
                and close(node._local_grads[0], node.data)
                and close(node.data, math.exp(children[0].data))):
            inputs.add(children[0].data)
    for given in inputs:
        shift = PROBE[0] - given
        if all(any(close(x - shift, i, abs_tol=1e-12) for i in inputs) for x in PROBE):
            return shift
    return None


def _what_is_subtracted(space, numbers):
    """Why a power overflowed, in terms of what this softmax subtracts (measured on PROBE)."""
    shift = _shift(space)
    fix = ("Subtracting the largest logit makes every power 0 or below, and none can overflow, "
           "however big the logits.")
    if shift is None:
        return ("With the largest logit subtracted first, every power is 0 or below, and none "
                "can overflow, however big the logits.")
    if close(shift, 0, abs_tol=1e-12):
        return ("Your softmax takes e to the power of each logit as it is, nothing subtracted: "
                "with the largest logit subtracted first, every power is 0 or below, and none "
                "can overflow, however big the logits.")
    if close(shift, max(PROBE)):
        return f"A power of e was taken of a number above 709.78 on the way. {fix}"
    named = {PROBE[0]: "the first logit's number", min(PROBE): "the smallest logit's number"}
    which = next((name for x, name in named.items() if close(shift, x)), None)
    said = which or f"the number {number(shift)}"
    return (f"Your softmax subtracts {said} from every logit, not the largest (on the logits "
            f"{_show_numbers(PROBE)} it subtracts {number(shift)}): any logit more than 709.78 "
            f"above {'it' if which else 'that number'} still overflows, as "
            f"{number(max(numbers))} does here. {fix}")


def _written(numbers):
    if len(numbers) <= 6:
        return _show_numbers(numbers)
    return f"a list of {len(numbers)} numbers starting {', '.join(number(x) for x in numbers[:3])}"


def _logit_lists(rng):
    """Ordinary logits of several lengths (one longer than the 27 letters and BOS), then logits
    so big that e to their power overflows, equal logits, and the largest far from the first."""
    for length in (1, 3, 5, 27, 40):
        numbers = [round(rng.uniform(-6.0, 6.0), 3) for _ in range(length)]
        yield _case(numbers)
    for numbers, note in (([710.0, 700.0, -5.0], "logits so big that e to their power overflows"),
                          ([2.0, 2.0, 2.0, 2.0], "equal logits"),
                          ([-750.0, 10.0, 0.0], "the largest not first, the first far below it")):
        yield _case(numbers, note)


def _case(numbers, note=""):
    """The logits as a list of the learner's (or our) Values, fresh for each side."""
    return Case(f"the logits {_written(numbers)}",
                lambda space: ([space.Value(x) for x in numbers],), note)


def _agree(got, want):
    return differ(got, want, rel=1e-7, abs_tol=1e-9)


agrees("softmax", _logit_lists, call=_probs_and_slopes, compare=_agree,
       name="softmax on new logits, twice each")
