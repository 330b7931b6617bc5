"""Checks for lesson 9.2: each head's scores, what goes into attn_wo, and each head's blend.

Everything is measured while gpt() runs on 'emma': stand-ins for `linear` and `softmax` note
q, the scores and the attention of every head, and the list that goes into attn_wo (a stand-in
hands each call on to the learner's own function). The keys and values are in the caches the
check passes in. Expected numbers are worked out from those, so a mistake in one line is told
on its own and not through the lines after it. A wrong score is matched against the usual
slips (another scale, the whole of q and k, an unsliced key); a wrong blend against every slice
of the values, so the message says which numbers a head really blended.
"""
import gc

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    cut_off,
    fail,
    listing,
    matrix_leaves,
    number,
    replacing,
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


NAME = "emma"
SCORES_FIX = ("scores = [sum(qi * ki for qi, ki in zip(q[lo:hi], past_k[lo:hi])) / head_dim ** 0.5 "
              "for past_k in keys[layer]]")
HEADS_FIX = ("heads += [sum(a * past_v[i] for a, past_v in zip(attn, values[layer])) "
             "for i in range(lo, hi)]")


class _Root:
    """One node whose children are the given Values: the graph behind all of them is walked once
    (cut_off walks a list's graphs one by one, and theirs overlap)."""

    def __init__(self, values):
        self._children = tuple(values)


def _data(x):
    return getattr(x, "data", x)


_WATCHED = {}  # one run of gpt() per checked file, shared by the checks


def _watch(code):
    if id(code) not in _WATCHED:
        _WATCHED.clear()
        _WATCHED[id(code)] = (code, _run(code))
    return _WATCHED[id(code)][1]


def _run(code, name=NAME, scored=False):
    """gpt() over BOS + name; at the last position: q, keys, values, every head's scores and
    attention, the list handed to attn_wo and the matrices linear() was called with, in order.
    `error` is what gpt() raised at that position (after attn_wo got its input, or, with
    `scored`, after a head's scores reached softmax), or None."""
    weights = code.weights
    names = {id(mat): key.split(".")[-1] for key, mat in weights.items()}
    wq, wo = weights["layer0.attn_wq"], weights["layer0.attn_wo"]
    real_linear, real_softmax = code.linear, code.softmax
    seen = {}

    def linear(x, w):
        seen["calls"].append(names.get(id(w), "another matrix"))
        if w is wo:
            seen["into_wo"] = list(x)
        out = real_linear(x, w)
        if w is wq:
            seen["q"] = [_data(v) for v in out]
            seen["normed"] = [_data(v) for v in x]  # what q, k and v were made from
        return out

    def softmax(logits):
        seen["raw_scores"].append(list(logits))
        seen["scores"].append([_data(s) for s in logits])
        probs = real_softmax(logits)
        seen["attn"].append([_data(p) for p in probs])
        return probs

    tokens = [code.BOS] + [code.chars.index(ch) for ch in name]
    labels = ["BOS"] + [f"its {ch!r}" for ch in name]
    keys, values = [[]], [[]]
    with replacing(code, "linear", linear), replacing(code, "softmax", softmax), _Quick():
        for pos, token in enumerate(tokens):
            seen.update(calls=[], scores=[], raw_scores=[], attn=[], into_wo=None, q=None,
                        normed=None, logits=None, error=None,
                        where=f"At position {pos} of {name!r} ({labels[pos]})")
            with calling(f"gpt() at position {pos} of {name!r}"):
                try:
                    seen["logits"] = code.gpt(token, pos, keys, values)
                except Exception as error:
                    if seen["into_wo"] is None and not (scored and seen["scores"]):
                        raise
                    # after attn_wo got its input (or, when `scored`, after a head's scores
                    # reached softmax): a check can tell why, or leave it to the next ones
                    seen["error"] = error
                    break
    seen["keys"] = [[_data(v) for v in key] for key in keys[0]]
    seen["values"] = [[_data(v) for v in value] for value in values[0]]
    return seen


def _dot(q, k, lo, hi, klo=None):
    klo = lo if klo is None else klo
    return sum(a * b for a, b in zip(q[lo:hi], k[klo:klo + hi - lo]))


def _same(a, b, rel=1e-9):
    return len(a) == len(b) and all(abs(x - y) <= rel * max(1.0, abs(y)) for x, y in zip(a, b))


def _shown(numbers):
    return "[" + ", ".join(number(round(x, 4)) for x in numbers) + "]"


def _scale(got, dots):
    """The one number every score was divided by, if there is one."""
    ratios = [d / g for g, d in zip(got, dots) if abs(g) > 1e-12]
    if ratios and all(abs(r - ratios[0]) <= 1e-6 * abs(ratios[0]) for r in ratios):
        return ratios[0]
    return None


def _scores_problem(seen, n_head, head_dim, n_embd):
    """What is wrong with the heads' scores at the last position, in words, or ''."""
    q, keys, scores = seen["q"], seen["keys"], seen["scores"]
    where = f"{seen['where']}, with {len(keys)} positions in the cache"
    if len(scores) != n_head:
        return (f"{where}, softmax was called {len(scores)} time{'s' if len(scores) != 1 else ''}"
                f", but each of the n_head = {n_head} heads needs one softmax of its own: "
                f"{n_head} calls.")
    for h, got in enumerate(scores):
        lo, hi = h * head_dim, (h + 1) * head_dim
        dots = [_dot(q, k, lo, hi) for k in keys]
        want = [d / head_dim ** 0.5 for d in dots]
        if _same(got, want):
            continue
        told = f"{where}, head {h}'s scores are {_shown(got)}, but they should be {_shown(want)}"
        if len(got) != len(keys):
            return (f"{told}: one score per key in keys[layer], {len(keys)} of them (this "
                    f"position's own key included), but there are {len(got)}.")
        whole = [_dot(q, k, 0, n_embd) for k in keys]
        for slices, said in ((dots, f"the dot products of q[{lo}:{hi}] with the same slice of "
                                    "each key"),
                             (whole, "the dot products of the whole of q with the whole of "
                                     "each key, the same for every head"),
                             ([_dot(q, k, lo, hi, 0) for k in keys],
                              f"the dot products of q[{lo}:{hi}] with the first {head_dim} "
                              f"numbers of each key, k[0:{head_dim}], not k[{lo}:{hi}]")):
            scale = _scale(got, slices)
            if scale is None:
                continue
            root = number(round(head_dim ** 0.5, 6))
            if abs(scale - head_dim ** 0.5) <= 1e-9:
                return (f"{told}: yours are {said}, divided by √head_dim. Each head must "
                        f"compare its own slice of q, q[{lo}:{hi}], with the same slice of each "
                        f"key, k[{lo}:{hi}].")
            if abs(scale - 1) <= 1e-9:
                by = "not divided by anything"
            else:
                names = [name for name, value in (("√n_embd", n_embd ** 0.5),
                                                  ("head_dim", head_dim))
                         if abs(value - scale) <= 1e-9]
                by = f"divided by {number(round(scale, 6))}" + (
                    f", which is {listing(names)}" if names else "")
            same = said.startswith(f"the dot products of q[{lo}:{hi}] with the same")
            return (f"{told}: yours are {said}, {by}. A head's dot product adds up head_dim = "
                    f"{head_dim} products, so it is divided by √head_dim = {root}"
                    + ("" if same else f", and it pairs q[{lo}:{hi}] with the same slice of "
                       f"each key, k[{lo}:{hi}]") + ".")
        return (f"{told}: each is q[{lo}:{hi}] · past_k[{lo}:{hi}], one score per key in "
                f"keys[layer], divided by √head_dim = {number(round(head_dim ** 0.5, 6))}.")
    return ""


def _cut_words(cut, total, matrices):
    """'20 of the 512 numbers of attn_wq and attn_wk (attn_wq[0][0], ... and 17 more)'."""
    named = ", ".join(cut[:3]) + (f" and {len(cut) - 3} more" if len(cut) > 3 else "")
    return f"{len(cut)} of the {total} numbers of {matrices} ({named})"


def _sizes(code):
    return code.n_head, code.head_dim, code.n_embd


@check("each head scores its own slice")
def _(code):
    n_head, head_dim, n_embd = _sizes(code)
    seen = _watch(code)
    problem = _scores_problem(seen, n_head, head_dim, n_embd)
    if problem:
        fail(problem, fix=SCORES_FIX)
    leaves = {**matrix_leaves("attn_wq", code.weights["layer0.attn_wq"]),
              **matrix_leaves("attn_wk", code.weights["layer0.attn_wk"])}
    cut = cut_off(_Root([s for head in seen["raw_scores"] for s in head]), leaves)
    if cut:
        fail(f"{seen['where']}, every head's scores have the right numbers, but "
             f"{_cut_words(cut, len(leaves), 'attn_wq and attn_wk')} the scores are computed "
             "from are not in their graph: no gradient can reach them from the loss, so "
             "training would never change them. Your scores are new Values made from plain "
             "numbers (`.data`), not computed from the Values of q and of each key, and a new "
             "Value made from a number forgets where the number came from.", fix=SCORES_FIX)


@check("each head scores its own slice with 2 and 8 heads")
def _(code):
    n_embd = code.n_embd
    for heads in (2, 8):
        head_dim = n_embd // heads
        with replacing(code, "n_head", heads), replacing(code, "head_dim", head_dim):
            seen = _run(code, "ava", scored=True)
        # gpt() may have stopped after some heads' scores, in a line after them (the heads'
        # outputs, told by the checks after this one): judge the scores it made
        done = len(seen["scores"]) if seen["error"] is not None else heads
        problem = _scores_problem(seen, done, head_dim, n_embd)
        if problem:
            fail(f"With n_head = {heads} (so head_dim = {head_dim}): "
                 f"{problem[0].lower()}{problem[1:]}", fix=SCORES_FIX)


@check("the heads go through attn_wo")
def _(code):
    n_head, head_dim, n_embd = _sizes(code)
    seen = _watch(code)
    calls, into = seen["calls"], seen["into_wo"]
    where = seen["where"]
    if into is None:
        fail(f"{where}, gpt() called linear() with {listing(calls)}, in that order, but never "
             f"with attn_wo. After the heads, x must be heads mixed by this layer's output "
             "projection, attn_wo.", fix="x = linear(heads, w('attn_wo'))")
    if seen["normed"] is not None and _same([_data(v) for v in into], seen["normed"]):
        start = _shown([_data(v) for v in into[:4]])[:-1]
        fail(f"{where}, attn_wo was handed {len(into)} numbers, {start}, ...]: x after "
             "rmsnorm, the very numbers q, k and v were made from, not heads. What "
             "attn_wo mixes is what the heads found: their outputs, side by side in heads, "
             "once the loop over the heads is done.", fix="x = linear(heads, w('attn_wo'))")
    if any(isinstance(item, (list, tuple)) for item in into):
        fail(f"{where}, attn_wo was handed a list of {len(into)} items, each a list of "
             f"{len(into[0]) if isinstance(into[0], (list, tuple)) else '?'} numbers: one list "
             f"per head. heads must be one flat list of n_embd = {n_embd} numbers, each head's "
             f"{head_dim} added to the end one by one (`+=` with a list does that; append adds "
             "the whole list as one item).", fix=HEADS_FIX)
    if len(into) != n_embd:
        last = seen["attn"][-1] if seen["attn"] else None
        blend = ([sum(a * v[i] for a, v in zip(last, seen["values"]))
                  for i in range((n_head - 1) * head_dim, n_head * head_dim)] if last else None)
        mine = blend is not None and _same([_data(x) for x in into], blend)
        fail(f"{where}, attn_wo was handed {len(into)} numbers, but heads must hold all "
             f"n_head × head_dim = {n_embd}: every head's {head_dim} numbers, one head after "
             "another."
             + (f" The {len(into)} it got are the last head's alone: each head's numbers "
                "replaced the ones before instead of joining them." if mine else ""),
             fix=HEADS_FIX)
    if seen["error"] is not None:
        raise seen["error"]
    leaves = matrix_leaves("attn_wo", code.weights["layer0.attn_wo"])
    cut = cut_off(_Root(seen["logits"]), leaves) if isinstance(seen["logits"], list) else []
    if cut:
        fail(f"{where}, gpt()'s logits have the right numbers, but "
             f"{_cut_words(cut, len(leaves), 'attn_wo')} are not in their graph: no gradient "
             "can reach them from the loss. x after attn_wo was made anew from plain numbers "
             "(`.data`) instead of computed from the Values linear() gives.",
             fix="x = linear(heads, w('attn_wo'))")


def _blend(attn, values, lo, hi):
    return [sum(a * v[i] for a, v in zip(attn, values)) for i in range(lo, hi)]


@check("each head blends its own slice of the values")
def _(code):
    n_head, head_dim, n_embd = _sizes(code)
    seen = _watch(code)
    if seen["into_wo"] is None or seen["error"] is not None or len(seen["into_wo"]) != n_embd:
        fail("heads did not reach attn_wo as one list of n_embd numbers (the check before this "
             "one says what it got), so what each head blended cannot be read from it yet.")
    got = [_data(x) for x in seen["into_wo"]]
    attn, values, scores = seen["attn"], seen["values"], seen["scores"]
    for h in range(n_head):
        lo, hi = h * head_dim, (h + 1) * head_dim
        want = _blend(attn[h], values, lo, hi)
        mine = got[lo:hi]
        if _same(mine, want):
            continue
        told = (f"{seen['where']}, head {h}'s part of heads, heads[{lo}:{hi}], is "
                f"{_shown(mine)}, but it should be {_shown(want)}")
        for start in range(0, n_embd - head_dim + 1):
            if start != lo and _same(mine, _blend(attn[h], values, start, start + head_dim)):
                fail(f"{told}: yours is the blend of numbers {start} to "
                     f"{start + head_dim - 1} of every value, but head {h}'s slice is "
                     f"{lo} to {hi - 1}, the same numbers its scores were made from.", fix=HEADS_FIX)
        if _same(mine, _blend(scores[h], values, lo, hi)):
            fail(f"{told}: yours weights the values by the scores, before the softmax. The "
                 "weights are attn, the softmax of the scores: positive, adding up to 1.", fix=HEADS_FIX)
        if h > 0 and _same(mine, _blend(attn[0], values, lo, hi)):
            fail(f"{told}: yours weights the values by head 0's attention. Each head weights "
                 "them by its own attn.", fix=HEADS_FIX)
        fail(f"{told}: number i of it is number i of every value in values[layer], each "
             f"weighted by head {h}'s attn and added up, for i from {lo} to {hi - 1}.", fix=HEADS_FIX)
    leaves = {name: leaf for matrix in ("attn_wv", "attn_wq", "attn_wk")
              for name, leaf in matrix_leaves(matrix, code.weights[f"layer0.{matrix}"]).items()}
    cut = cut_off(_Root(seen["into_wo"]), leaves)
    if cut:
        wv = [name for name in cut if name.startswith("attn_wv")]
        fail(f"{seen['where']}, every head's part of heads has the right numbers, but "
             f"{_cut_words(cut, len(leaves), 'attn_wv, attn_wq and attn_wk')} it is computed "
             "from are not in its graph: no gradient can reach them from the loss, so training "
             "would never change them. Each head's numbers are new Values made from plain "
             "numbers (`.data`), not computed from the Values of attn and of the "
             + ("values" if wv else "attention weights")
             + ", and a new Value made from a number forgets where the number came from.",
             fix=HEADS_FIX)


# --- gpt() against ours, on new caches and with other numbers of heads ---------------------

PLANS = ((4, 1, 1.0), (4, 3, 1.0), (4, 9, 1.0), (4, 16, 3.0), (2, 5, 1.0), (8, 6, 1.0))


def _cases(rng):
    """(n_head, cache length, spread): the cache holds random keys and values, the last case
    with numbers three times bigger than gpt() makes (sharper attention), then 2 and 8 heads."""
    for n_head, length, spread in PLANS:
        token, pos = rng.randrange(26), length - 1
        rows = [[[round(rng.gauss(0, spread), 3) for _ in range(16)] for _ in range(length - 1)]
                for _ in range(2)]
        notes = []
        if n_head != 4:
            notes.append(f"{n_head} heads of {16 // n_head}")
        if spread != 1.0:
            notes.append("keys and values bigger than the model's own")
        if length == 16:
            notes.append("the last position, 16 in the cache")
        text = (f"n_head = {n_head}, head_dim = {16 // n_head}: gpt({token}, {pos}, keys, "
                f"values) with {length - 1} earlier position{'s' if length != 2 else ''} of "
                "random keys and values in the cache")
        yield Case(text, lambda space, args=(n_head, token, pos, rows): args, "; ".join(notes))


def _gpt_with_heads(space, args):
    """gpt() with n_head heads, on caches of Values made fresh from the case's numbers."""
    n_head, token, pos, rows = args
    keys, values = ([[[space.Value(x) for x in row] for row in part]] for part in rows)
    with replacing(space, "n_head", n_head), replacing(space, "head_dim", 16 // n_head), \
            _Quick():
        return space.gpt(token, pos, keys, values)


agrees("gpt()", _cases, call=_gpt_with_heads, name="gpt() on new caches, with 2, 4 and 8 heads")
