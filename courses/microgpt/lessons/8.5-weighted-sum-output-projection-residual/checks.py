"""Checks for lesson 8.5: the residual kept, x normalized again, the blend of the values, the
output projection, and the residual added back.

gpt() is watched through stand-ins for rmsnorm, linear and softmax (the learner's own, with a
note of every call): the first rmsnorm's output is what the residual must hold, the second's is
what q, k and v must read, softmax's output and the cache give the blend that must reach
attn_wo, and what reaches lm_head (the starter's given read_out, run here with the watched
linear) must be attn_wo's output plus the residual. Expectations are worked out here from
those, so any spelling passes; each classic slip is named from the numbers. The last check
compares gpt() with ours on new names, each run twice with fresh caches.
"""
import random

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    cut_counts,
    cut_words,
    fail,
    learner_line,
    number,
    replacing,
)

WORD = "emma"


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _list(values, digits=4):
    return "[" + ", ".join(number(round(v, digits)) for v in values) + "]"


def _start(values):
    return _list(values[:3])[:-1] + ", ...]"


def _same(got, want, rel=1e-9):
    return (got is not None and len(got) == len(want)
            and all(close(a, b, rel, 1e-12) for a, b in zip(got, want)))


def _add(a, b):
    return [x + y for x, y in zip(a, b)]


def _size(vector):
    return (sum(v * v for v in vector) / len(vector)) ** 0.5


def _watch(code, pos_wanted):
    """Run gpt() over BOS + the word with fresh caches, noting every call at position
    pos_wanted: rmsnorm's inputs and outputs, linear's (matrix name, input, output), softmax's
    output, and the values in the cache after the call."""
    word = WORD if all(ch in code.chars for ch in WORD) else "".join(code.chars[:4])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    names = {id(mat): name for name, mat in code.weights.items()}
    keys, values = [], []
    note = {"norms": [], "linears": [], "softmax": []}
    real_norm, real_linear, real_softmax = code.rmsnorm, code.linear, code.softmax

    def rmsnorm(x):
        out = real_norm(x)
        note["norms"].append((x, out))
        return out

    def linear(x, w):
        out = real_linear(x, w)
        note["linears"].append((names.get(id(w), "another matrix"), x, out))
        return out

    def softmax(logits):
        out = real_softmax(logits)
        note["softmax"].append(_data(out))
        return out

    def read_out(x, weights):
        """The starter's given read-out (from the course's library), through the watched linear."""
        return linear(x, weights["lm_head"])

    for pos, token in enumerate(tokens[:pos_wanted + 1]):
        for kept in note.values():
            kept.clear()
        note["cache before"] = [_data(v) for v in values]
        with replacing(code, "rmsnorm", rmsnorm), replacing(code, "linear", linear), \
                replacing(code, "softmax", softmax), replacing(code, "read_out", read_out), \
                calling(f"gpt({token}, {pos}, keys, values) for {word!r}"):
            code.gpt(token, pos, keys, values)
    note["values"] = [_data(v) for v in values]
    note["keys"] = [_data(k) for k in keys]
    where = f"In gpt() for {word!r} at position {pos_wanted} ({word[pos_wanted - 1]!r})"
    return where, note


def _used(note, name):
    """(input, output) of the first linear() call with weights[name], as numbers, or None."""
    for used, given, out in note["linears"]:
        if used == name:
            return _data(given), _data(out)
    return None


POS = 3  # the second 'm' of 'emma': four keys and values in the cache


@check("the residual is kept, and x normalized again for attention")
def _(code):
    where, note = _watch(code, POS)
    norms = note["norms"]
    if len(norms) < 2:
        ran = "once" if len(norms) == 1 else "never"
        fail(f"{where}, rmsnorm ran {ran}, but twice is right: once on x = letter + place "
             f"(given), and once more on the x attention reads, after it is kept in `residual`.")
    first_out, second_in, second_out = norms[0][1], norms[1][0], norms[1][1]
    if second_in is not first_out and not _same(_data(second_in), _data(first_out)):
        fail(f"{where}, the second rmsnorm was given a vector that starts "
             f"{_start(_data(second_in))}, not x as the first rmsnorm left it (which starts "
             f"{_start(_data(first_out))}).")
    q = _used(note, "attn_wq")
    if q is None or not _same(q[0], _data(second_out)):
        fail(f"{where}, q was not made from the x the second rmsnorm returned: keep the given "
             "q, k and v lines right after it.")


@check("x is the blend of the values, weighted by attention")
def _(code):
    where, note = _watch(code, POS)
    weights, values = note["softmax"][0], note["values"]
    for index, (before, after) in enumerate(zip(note["cache before"], values)):
        if not _same(after, before):
            fail(f"{where}, the value that position {index} left in the cache changed during the "
                 f"call: it started {_start(before)} and ended {_start(after)}. Every later "
                 f"position blends the values in the cache again, so they must stay as they were "
                 f"made: build the blend as a new list, without writing into the values.")
    width = len(values[0])
    want = [sum(a * v[i] for a, v in zip(weights, values)) for i in range(width)]
    projected = _used(note, "attn_wo")
    read_out = _used(note, "lm_head")
    if projected is None:
        own = values[-1]
        if read_out is not None and _same(read_out[0], own):
            fail(f"{where}, x is this position's own value, {_start(own)}, and nothing else: the "
                 f"stand-in is still there. The blend takes some of every value in the cache, as "
                 f"much as attention says: with weights {_list(weights, 3)} it starts "
                 f"{_start(want)}.")
        residual = _data(note["norms"][0][1])
        if read_out is not None and _same(read_out[0], _add(want, residual)):
            fail(f"{where}, the blend of the values (which starts {_start(want)}) was added to "
                 f"the residual, but linear() was never called with weights['attn_wo']: the "
                 f"blend never went through the output projection, which turns what attention "
                 f"gathered into something to add to x.", fix="x = linear(x, weights['attn_wo'])")
        fail(f"{where}, linear() was never called with weights['attn_wo']: the blend of the "
             f"values must go through the output projection.")
    blend = projected[0]
    residual = _data(note["norms"][0][1])
    if _same(blend, _add(want, residual)):
        fail(f"{where}, what reaches attn_wo is the blend of the values plus the residual: the "
             f"residual was added before the output projection, so attn_wo mixes it in too. "
             f"The residual skips the whole attention block, projection included: the blend "
             f"goes through attn_wo, and the residual is added to what comes out.")
    if _same(blend, want):
        _blend_at_other_width(code)
        return (f"At position {POS}, x is the blend of {len(values)} values with weights "
                f"{_list(weights, 3)}, and as wide as the values at another width too.")
    seen = f"{where}, the blend that reaches attn_wo starts {_start(blend)}"
    should = (f"with attention's weights {_list(weights, 3)} over the {len(values)} values in the "
              f"cache, it should start {_start(want)}")
    if _same(blend, [sum(a * k[i] for a, k in zip(weights, note["keys"])) for i in range(width)]):
        fail(f"{seen}: the keys were blended, not the values. Keys only decide the weights; what "
             f"each position hands over is its value: {should}.")
    if _same(blend, [sum(v[i] for v in values) for i in range(width)]):
        fail(f"{seen}: the values were added up without their weights, so every position counts "
             f"the same, and the more positions, the bigger x: {should}.")
    if len(blend) != width:
        fail(f"{seen}, {len(blend)} numbers where there should be n_embd = {width}: one sum for "
             f"each number i of the values, i in range(n_embd): {should}.")
    fail(f"{seen}, but {should}.")


def _blend_at_other_width(code):
    """The blend again with weights 8 numbers wide: a width of 16 written in shows only here."""
    try:
        with _Width(code, OTHER_WIDTH):
            where, note = _watch(code, POS)
    except IndexError as error:
        _too_wide(error, code, f"gpt() for {WORD!r}")
    weights, values = note["softmax"][0], note["values"]
    want = [sum(a * v[i] for a, v in zip(weights, values)) for i in range(len(values[0]))]
    projected = _used(note, "attn_wo")
    if projected is not None and not _same(projected[0], want):
        fail(f"{WIDE}, {where[0].lower()}{where[1:]}, the blend that reaches attn_wo holds "
             f"{len(projected[0])} numbers and starts {_start(projected[0])}, but it should hold "
             f"{len(want)}, one per number of a value, starting {_start(want)}. With n_embd = 16 "
             f"the blend was right, so its line is written for the width 16 where it should "
             f"follow n_embd.")


@check("the blend goes through attn_wo, then the residual is added")
def _(code):
    where, note = _watch(code, POS)
    projected = _used(note, "attn_wo")
    read_out = _used(note, "lm_head")
    if read_out is None:
        fail(f"{where}, linear() was never called with weights['lm_head']: keep the given return "
             "line.")
    residual = _data(note["norms"][0][1])
    normed = _data(note["norms"][1][1])
    blend, out = projected
    got = read_out[0]
    want = _add(out, residual)
    if _same(got, want):
        return (f"At position {POS}, attention adds a vector of size {_size(out):.3f} (root mean "
                f"square) to a residual of size {_size(residual):.3f}.")
    seen = f"{where}, x at the end (what lm_head reads) starts {_start(got)}"
    should = (f"it should be attn_wo's output plus the residual, which starts {_start(want)}")
    if _same(got, out):
        fail(f"{seen}: attn_wo's output alone, without the residual. x before attention (size "
             f"{_size(residual):.3f}) is lost, and all the block passes on is what attention "
             f"found (size {_size(out):.3f}): {should}.",
             fix="x = [a + b for a, b in zip(x, residual)]")
    if _same(got, _add(out, normed)):
        gap = max(abs(a - b) for a, b in zip(residual, normed))
        fail(f"{seen}: attn_wo's output plus x after the second rmsnorm, not before it. Here the "
             f"two differ by at most {gap:.6f} (x was normalized once already), but the residual "
             f"is x as the block found it, kept before anything is done to it: {should}.")
    fail(f"{seen}, but {should}.")


# --- weights drawn here: another width, and gpt() compared with ours without touching weights ---

def _drawn(space, width):
    """train3's seven matrices at the given width, drawn here from a seed of our own, as Values
    of ``space``: the learner's gpt() and ours read the very same numbers, and the weights of
    both programs are left as they are (nothing is shared, nothing moved)."""
    rows = {"wte": space.vocab_size, "wpe": space.block_size, "lm_head": space.vocab_size,
            "attn_wq": width, "attn_wk": width, "attn_wv": width, "attn_wo": width}
    key = (width, tuple(rows.values()))
    if key not in _NUMBERS:
        rng = random.Random(f"train3 weights, width {width}")
        _NUMBERS[key] = {name: [[rng.gauss(0, 0.08) for _ in range(width)] for _ in range(count)]
                         for name, count in rows.items()}
    return {name: [[space.Value(n) for n in row] for row in mat]
            for name, mat in _NUMBERS[key].items()}


_NUMBERS = {}  # the numbers drawn for each width, drawn once: each call makes Values of its own


class _Width:
    """``with _Width(space, 8):`` gpt() reads weights drawn here, 8 numbers wide, and
    n_embd = 8; both are put back when the block ends."""

    def __init__(self, space, width):
        self.parts = [replacing(space, "weights", _drawn(space, width)),
                      replacing(space, "n_embd", width)]

    def __enter__(self):
        for part in self.parts:
            part.__enter__()

    def __exit__(self, *error):
        for part in reversed(self.parts):
            part.__exit__(*error)
        return False


OTHER_WIDTH = 8
WIDE = (f"With another width, n_embd = {OTHER_WIDTH} (weights of {OTHER_WIDTH} numbers per row, "
        f"drawn by the check)")


def _too_wide(error, code, what):
    """The message for an IndexError met at the other width: a width of 16 written in."""
    line = learner_line(error, code)
    at = f" at line {line} of your code" if line is not None else ""
    fail(f"{WIDE}, {what} raised IndexError{at}: it read past the end of a vector of "
         f"{OTHER_WIDTH} numbers. With n_embd = 16 it ran, so something there counts to 16, the "
         f"bundled width, where it should count to n_embd (or to the vector's own length).")


_READ = ("wte", "wpe", "attn_wq", "attn_wk", "attn_wv", "attn_wo", "lm_head")  # what gpt() reads


def _graph_gaps(code, word):
    """gpt()'s logits at every position of BOS + word (fresh cache), and the entries of the
    weights they read that are not in their graph, counted per matrix: {name: (cut, total)}."""
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    keys, values, logits = [], [], []
    for pos, token in enumerate(tokens):
        with calling(f"gpt({token}, {pos}, keys, values) for {word!r}"):
            logits.extend(code.gpt(token, pos, keys, values))
    weights = code.weights
    rows = {"wte": sorted(set(tokens)), "wpe": range(len(tokens))}
    gaps = cut_counts(logits, {name: weights[name] for name in _READ}, rows)
    letters = ["BOS" if t == code.BOS else repr(code.chars[t]) for t in rows["wte"]]
    label = {"wte": f"wte's rows for {', '.join(letters[:-1])} and {letters[-1]}",
             "wpe": f"wpe's rows for positions 0 to {len(tokens) - 1}"}
    return {label.get(name, name): counts for name, counts in gaps.items()}


_WHY = [
    ({"wte", "wpe"}, "The two rows reach the logits only through x = wte[token] + wpe[pos]: x "
     "was made from their plain numbers (`.data`), a new Value with no link back to them."),
    ({"wte"}, "The letter's row reaches the logits only through x = wte[token] + wpe[pos]: its "
     "plain numbers (`.data`) were used there instead of the Values."),
    ({"wpe"}, "The place's row reaches the logits only through x = wte[token] + wpe[pos]: its "
     "plain numbers (`.data`) were used there instead of the Values."),
    ({"attn_wq", "attn_wk"}, "q and k reach the logits only through the scores and attention's "
     "weights (attn): one of them was computed from plain numbers (`.data`), so the link back to "
     "q and k is gone, though every number is right."),
    ({"attn_wq", "attn_wk", "attn_wv"}, "q, k and v reach the logits only through the blend of "
     "the values: it was computed from plain numbers (`.data`), so the link back to attention's "
     "weights and to the values is gone, though every number is right."),
    ({"attn_wk"}, "k reaches the logits only through the keys in the cache: what keys holds, or "
     "what the scores read from it, is plain numbers (`.data`), not k's Values."),
    ({"attn_wv"}, "v reaches the logits only through the values in the cache and the blend: what "
     "values holds, or what the blend reads from it, is plain numbers (`.data`), not v's Values."),
    ({"attn_wq"}, "q reaches the logits only through the scores: they were computed from q's "
     "plain numbers (`.data`)."),
    ({"attn_wo"}, "attn_wo reaches the logits only through the output projection and the "
     "residual sum: one of them was computed from plain numbers (`.data`)."),
]


def _gap_message(word, gaps):
    names = {name.split("'")[0] for name in gaps}
    why = next((text for group, text in _WHY if names == group), None)
    if why is None and "lm_head" in names:
        why = ("Not even lm_head, the last matrix before them, is linked: the logits themselves "
               "were made anew from plain numbers (`.data`).")
    if why is None and "lm_head" not in names and len(names) >= 5:
        why = ("Only lm_head is still linked: x was made anew from plain numbers (`.data`) after "
               "attention, where the residual is added back or just before the read-out.")
    why = why or ("Somewhere between these weights and the logits, a Value's plain number "
                  "(`.data`) was used to compute with, where the Value itself must flow.")
    return (f"gpt()'s logits for {word!r} (at all {len(word) + 1} positions) are computed from "
            f"the weights, but {cut_words(gaps)} are not in their graph: backward() from the "
            f"loss can never reach them, so training would never change them. {why}")


@check("a gradient reaches every weight gpt() reads")
def _(code):
    word = "emma" if all(ch in code.chars for ch in "emma") else "".join(code.chars[:4])
    gaps = _graph_gaps(code, word)
    if gaps:
        fail(_gap_message(word, gaps))
    return (f"Every number of attn_wq, attn_wk, attn_wv, attn_wo and lm_head, and of the rows of "
            f"wte and wpe that {word!r} reads, is in the graph of gpt()'s logits.")


LENGTHS = (1, 4, 16, 21)


def _name_cases(rng):
    for length in LENGTHS:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = f"a {length}-letter name: positions up to block_size - 1" if length >= 16 else ""
        yield Case(f"the name {word!r}", lambda space, word=word: (
            [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS], 16), note)
    word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))
    yield Case(f"the name {word!r}, with n_embd = {OTHER_WIDTH}", lambda space, word=word: (
        [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS], OTHER_WIDTH),
        f"another width: weights of {OTHER_WIDTH} numbers per row, drawn by the check")


class _Run:
    """gpt()'s logits at every position of a name. Messages show its ``data``: a short note,
    or, once a comparison has found where two runs part, the logits at that position."""

    def __init__(self, labels, logits):
        self.labels, self.logits = labels, logits
        self.data = f"logits at {len(logits)} positions"


def _run_name(space, args):
    """gpt() at every position of the name (at most block_size), with a fresh cache, on weights
    drawn here at the case's width (each program gets its own copy of the same numbers)."""
    tokens, width = args
    keys, values = [], []
    with _Width(space, width):
        logits = [[logit.data for logit in space.gpt(tokens[pos], pos, keys, values)]
                  for pos in range(min(space.block_size, len(tokens) - 1))]
    return _Run(["BOS" if t == space.BOS else space.chars[t] for t in tokens], logits)


def _parts(got, want):
    """Where two runs part: the first position whose logits differ, or ""."""
    if len(got.logits) != len(want.logits):
        return f"{len(got.logits)} positions were read, but there should be {len(want.logits)}"
    for pos, (mine, ours) in enumerate(zip(got.logits, want.logits)):
        if len(mine) != len(ours):
            return f"at position {pos} there are {len(mine)} logits, but there should be {len(ours)}"
        for index, (a, b) in enumerate(zip(mine, ours)):
            if not close(a, b, 1e-9, 1e-12):
                got.data, want.data = mine, ours
                agree = f"; positions 0 to {pos - 1} agree" if pos else ""
                return (f"at position {pos} ({want.labels[pos]!r}), logit {index} is {number(a)} "
                        f"but should be {number(b)}{agree}")
    return ""


agrees("gpt()", _name_cases, call=_run_name, compare=_parts,
       name="gpt() on new names, twice each")
