"""Checks for lesson 9.1: n_head and head_dim, and the slice q[lo:hi] each head reads.

What a head read is measured, not read off the code: while gpt() runs, a stand-in for
`linear` notes q (the output of the attn_wq matrix) and a stand-in for `softmax` notes the
scores each head hands it. The keys are in the cache the check passes in. Every slice
q[lo:hi] that could have been read is then tried, and the one whose scores match is the slice
the head read: so any spelling of lo and hi passes, and a wrong one is told which numbers its
heads really read. The same is done with 2 and 8 heads, where `h * n_head` and `h * head_dim`
part ways (with 4 heads of 4 they are the same number).

head_dim itself is a top-level line, run once with microgpt's sizes, where 4 written out is as
right as the expression that makes it. So the file is run again from the top with n_embd = 24
and n_head = 3 held at those values (whatever the file assigns), up to the line that sets
head_dim: a head_dim that does not follow the sizes is told which one it ignores.
"""
import builtins
import gc
import io
import sys

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    fail,
    listing,
    number,
    replacing,
    shown,
)


class _Quick:
    """`with _Quick():` runs without Python's cycle collector, which would otherwise spend most
    of a check rescanning the thousands of Values every gpt() call makes (they hold no cycles,
    so reference counting frees them all the same). The collector is back on afterwards."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *error):
        if self.was:
            gc.enable()
        return False


SIZES = (2, 8)  # head counts beyond the bundled 4: head_dim 8 and 2


def _state(code):
    """The learner's sizes, after check 1 made sure they are whole numbers."""
    return code.n_embd, code.n_head, code.head_dim


def _run_heads(code, name="emma"):
    """Run gpt() over BOS + name; at the last position, return (q, keys, scores per head)."""
    layer0 = code.weights["layer0.attn_wq"]
    noted = {"q": None, "scores": []}
    real_linear, real_softmax = code.linear, code.softmax

    def linear(x, w):
        out = real_linear(x, w)
        if w is layer0:
            noted["q"] = [v.data for v in out]
        return out

    def softmax(logits):
        noted["scores"].append([s.data for s in logits])
        return real_softmax(logits)

    tokens = [code.BOS] + [code.chars.index(ch) for ch in name]
    keys, values = [[]], [[]]
    with replacing(code, "linear", linear), replacing(code, "softmax", softmax), _Quick():
        for pos, token in enumerate(tokens):
            noted["scores"] = []
            with calling(f"gpt() at position {pos} of {name!r}, with n_head = {code.n_head} "
                         f"and head_dim = {code.head_dim}"):
                code.gpt(token, pos, keys, values)
    return noted["q"], [[k.data for k in past] for past in keys[0]], noted["scores"]


def _scores(q, keys, lo, hi, head_dim):
    return [sum(a * b for a, b in zip(q[lo:hi], k[lo:hi])) / head_dim ** 0.5 for k in keys]


def _same(a, b):
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 * max(1.0, abs(y)) for x, y in zip(a, b))


def _slice_read(q, keys, scores, head_dim, n_embd):
    """The slice (lo, hi) whose scores are `scores`, or None if no slice gives them."""
    if all(s == 0 for s in scores):
        return (0, 0)
    for lo in range(n_embd):
        for hi in range(lo + 1, n_embd + 1):
            if _same(scores, _scores(q, keys, lo, hi, head_dim)):
                return (lo, hi)
    return None


def _written(span):
    lo, hi = span
    return "nothing (an empty slice)" if lo == hi else f"q[{lo}:{hi}]"


def _compare_heads(code, where):
    """Fail with what each head read, if any head read other than its own slice."""
    n_embd, n_head, head_dim = _state(code)
    q, keys, scores = _run_heads(code)
    if len(scores) != n_head:
        fail(f"{where}, gpt() called softmax {len(scores)} times at one position, but with "
             f"n_head = {n_head} each head needs its own softmax: {n_head} calls.")
    read = [_slice_read(q, keys, s, head_dim, n_embd) for s in scores]
    right = [(h * head_dim, (h + 1) * head_dim) for h in range(n_head)]
    if read == right:
        return
    wrong = [h for h in range(n_head) if read[h] != right[h]]
    said = "; ".join(f"head {h} read {_written(read[h])} but its slice is q[{right[h][0]}:"
                     f"{right[h][1]}]" if read[h] is not None else
                     f"head {h}'s scores match no slice of q at all" for h in wrong[:3])
    covered = sorted({i for span in read if span for i in range(*span)})
    missed = [i for i in range(n_embd) if i not in covered]
    overlap = sum(hi - lo for lo, hi in (s for s in read if s)) > len(covered)
    more = []
    if missed:
        more.append(f"no head ever reads number{'s' if len(missed) > 1 else ''} "
                    f"{_ranges(missed)} of q")
    if overlap:
        more.append("some numbers are read by two heads")
    steps = [read[h][0] - read[h - 1][0] for h in range(1, n_head) if read[h] and read[h - 1]]
    why = ""
    if n_head > 1 and steps and len(set(steps)) == 1 and steps[0] != head_dim:
        why = (f" Your slices start {steps[0]} apart, but each must start head_dim = "
               f"{head_dim} after the one before it.")
        if steps[0] == n_head:
            why += (f" {steps[0]} is n_head: with 4 heads of 4, n_head and head_dim are the "
                    "same number, so slices that step by n_head are right there and wrong "
                    "with any other number of heads.")
    elif read[0] is not None and read[0][0] == 0 and read[0][1] - read[0][0] != head_dim:
        why = (f" Head 0 read {read[0][1] - read[0][0]} numbers, but every head must read "
               f"head_dim = {head_dim}: hi is where the next slice starts, one past the last "
               "number read.")
    extra = f" ({'; '.join(more)})" if more else ""
    slices = [f"q[{lo}:{hi}]" for lo, hi in right[:4]] + (["..."] if n_head > 4 else [])
    fail(f"{where}, {said}{extra}.{why} The {n_head} slices must be {', '.join(slices)}: one "
         f"after another, head_dim = {head_dim} numbers each, so that together they read each "
         f"of the {n_embd} numbers exactly once.",
         fix="lo, hi = h * head_dim, (h + 1) * head_dim")


def _ranges(numbers):
    """[3, 7, 8, 9] -> '3 and 7 to 9'."""
    parts, start = [], numbers[0]
    for a, b in zip(numbers, numbers[1:] + [None]):
        if b != a + 1:
            parts.append(f"{start}" if start == a else f"{start} to {a}")
            start = b
    return listing(parts)


class _Stop(Exception):
    """Raised once the file run again has set head_dim: nothing after it is needed."""


class _Pinned(dict):
    """The namespace of the file run again: n_embd and n_head keep the values the check gave
    them, whatever the file assigns; head_dim is noted, and the run stops there."""

    def __init__(self, sizes):
        super().__init__(__name__="heads_and_slices_again", __builtins__=builtins, **sizes)
        self.sizes = sizes

    def __setitem__(self, name, value):
        if name in self.sizes:
            return
        super().__setitem__(name, value)
        if name == "head_dim":
            raise _Stop


def _head_dim_with(code, n_embd, n_head):
    """head_dim as the learner's own lines make it when n_embd and n_head are these: their file
    run again from the top, with those two sizes kept, up to the line that sets head_dim. None
    when that cannot be done (the file stops before head_dim, or is not there to run)."""
    program = getattr(getattr(code, "_program", None), "code", None)
    learner_random = code._namespace.get("random")
    if program is None or not hasattr(learner_random, "getstate"):
        return None
    space = _Pinned({"n_embd": n_embd, "n_head": n_head})
    state, out = learner_random.getstate(), sys.stdout
    sys.stdout = io.StringIO()  # its prints (documents: ...) are not the check's
    try:
        exec(program, space)
    except _Stop:
        return dict.get(space, "head_dim")
    except (Exception, SystemExit):
        return None
    finally:
        sys.stdout = out
        learner_random.setstate(state)
    return None


OTHER_SIZES = ((24, 3),)  # (n_embd, n_head): head_dim 8, where 4 heads or a width of 16 give 6 or 5


@check("n_head and head_dim")
def _(code):
    n_embd, n_head, head_dim = code.n_embd, code.n_head, code.head_dim
    if isinstance(n_head, bool) or not isinstance(n_head, int) or n_head != 4:
        fail(f"n_head is {number(n_head) if isinstance(n_head, (int, float)) else repr(n_head)}, "
             "but microgpt's attention has 4 heads per block.", fix="n_head = 4")
    if isinstance(head_dim, float):
        fail(f"head_dim is {head_dim!r}, a float: dividing with `/` always gives one, even "
             f"when n_embd = {n_embd} shares out evenly. head_dim cuts lists into slices and counts the "
             "numbers of a range(), and both need a whole number (q[0.0:4.0] raises a "
             f"TypeError): head_dim must come out as the int {n_embd // n_head}, not "
             f"{head_dim!r}.",
             fix="head_dim = n_embd // n_head")
    if isinstance(head_dim, bool) or not isinstance(head_dim, int):
        fail(f"head_dim is {head_dim!r}, but it must be a whole number: how many of the "
             f"n_embd = {n_embd} numbers each head gets.", fix="head_dim = n_embd // n_head")
    if head_dim * n_head != n_embd:
        fail(f"head_dim is {head_dim}, so the {n_head} heads of {head_dim} numbers get "
             f"{head_dim * n_head} numbers between them, but q has n_embd = {n_embd}: the "
             f"{n_head} heads must share all {n_embd} out, an equal part each, "
             f"{n_embd // n_head} numbers.",
             fix="head_dim = n_embd // n_head")
    made = [(e, h, _head_dim_with(code, e, h)) for e, h in OTHER_SIZES]
    wrong = [(e, h, got) for e, h, got in made if got is not None and got != e // h]
    if wrong:
        fail(_not_following(head_dim, n_embd, n_head, wrong[0], made),
             fix="head_dim = n_embd // n_head")


def _not_following(head_dim, n_embd, n_head, wrong, made):
    """What head_dim does when the sizes change, in words."""
    other_embd, other_heads, got = wrong
    told = (f"With microgpt's sizes head_dim is {head_dim}, as it should be, but your file run "
            f"again with n_embd = {other_embd} and n_head = {other_heads} (nothing else "
            f"changed) makes head_dim {shown(got)}, where {other_heads} heads sharing out "
            f"{other_embd} numbers get {other_embd // other_heads} each.")
    if all(g == head_dim for _, _, g in made):
        why = (f" Yours is {head_dim} whatever the sizes are: it must be worked out from n_embd "
               "and n_head, so that it stays right when either changes.")
    elif all(g == n_embd // h for _, h, g in made):
        why = (f" Yours changes with n_head but not with n_embd: it shares out {n_embd}, "
               "microgpt's width written as a number, instead of n_embd.")
    elif all(g == e // n_head for e, _, g in made):
        why = (f" Yours changes with n_embd but not with n_head: it shares n_embd out between "
               f"{n_head} heads, microgpt's number written out, instead of n_head.")
    else:
        why = " head_dim must be worked out from n_embd and n_head, whatever they are."
    return told + why


@check("each head reads its own slice")
def _(code):
    _compare_heads(code, "At the last position of 'emma', with 4 heads of 4")


@check("each head reads its own slice with 2 and 8 heads")
def _(code):
    n_embd = code.n_embd
    for heads in SIZES:
        head_dim = n_embd // heads
        with replacing(code, "n_head", heads), replacing(code, "head_dim", head_dim):
            _compare_heads(code, f"With n_head = {heads} (so head_dim = {head_dim}), at the "
                                 "last position of 'emma'")


# --- gpt() against ours, with 1, 2, 4, 8 and 16 heads -------------------------------------

PLANS = ((4, 1), (4, 3), (4, 6), (2, 4), (8, 5), (1, 3), (16, 7))  # (n_head, cache length)


def _cases(rng):
    for n_head, length in PLANS:
        token, pos = rng.randrange(27), length - 1
        rows = [[[round(rng.gauss(0, 1), 3) for _ in range(16)] for _ in range(length - 1)]
                for _ in range(2)]
        note = "" if n_head == 4 else f"{n_head} head{'s' if n_head > 1 else ''} of {16 // n_head}"
        text = (f"n_head = {n_head}, head_dim = {16 // n_head}: gpt({token}, {pos}, keys, values),"
                f" the cache holding {length - 1} earlier position{'s' if length != 2 else ''}"
                " of random keys and values")

        yield Case(text, lambda space, args=(n_head, token, pos, rows): args, note)


def _gpt_with_heads(space, args):
    """gpt() with n_head heads, on caches of Values made from the case's plain numbers (fresh
    for every call: the numbers themselves stay plain, so comparing them stays cheap)."""
    n_head, token, pos, rows = args
    keys, values = ([[[space.Value(x) for x in row] for row in part]] for part in rows)
    with replacing(space, "n_head", n_head), replacing(space, "head_dim", 16 // n_head), \
            _Quick():
        return space.gpt(token, pos, keys, values)


agrees("gpt()", _cases, call=_gpt_with_heads, name="gpt() with 1 to 16 heads, twice each")
