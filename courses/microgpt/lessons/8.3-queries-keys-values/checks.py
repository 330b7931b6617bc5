"""Checks for lesson 8.3: the four attention matrices, drawn in order, and q, k, v from x.

gpt() is watched, not re-read: stand-ins for linear and rmsnorm (the learner's own, with a note of
what each call was given and gave back) show which matrix made which vector from which x, and
the cache lists passed to gpt() show the k and v it kept. So any spelling passes (q, k, v in
one line or three, in any order), and each classic slip is named from what happened: the
stand-in left in, one matrix used twice, v made from k's matrix. The last check compares gpt()
with ours on new names, up to position block_size - 1, each run twice with fresh caches.
"""
import random

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    cut_counts,
    cut_off,
    cut_words,
    fail,
    number,
    reference,
    replacing,
)

ATTENTION = ("attn_wq", "attn_wk", "attn_wv", "attn_wo")
ROLE = {"attn_wq": "q", "attn_wk": "k", "attn_wv": "v", "attn_wo": "the output projection"}


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _short(values, count=3):
    shown = ", ".join(number(round(v, 4)) for v in values[:count])
    return f"[{shown}, ...]" if len(values) > count else f"[{shown}]"


def _same(got, want):
    return len(got) == len(want) and all(close(a, b, 1e-9, 1e-12) for a, b in zip(got, want))


@check("four attention matrices, n_embd x n_embd")
def _(code):
    weights = code.weights
    missing = [name for name in ATTENTION if name not in weights]
    if missing:
        fail(f"weights has no {', '.join(repr(n) for n in missing)}: it holds "
             f"{', '.join(repr(n) for n in weights)}. Attention needs four matrices, "
             f"{', '.join(repr(n) for n in ATTENTION)}, each with n_embd = {code.n_embd} rows of "
             f"n_embd numbers.")
    for name in ATTENTION:
        mat = weights[name]
        widths = sorted({len(row) for row in mat})
        if len(mat) != code.n_embd or widths != [code.n_embd]:
            fail(f"weights[{name!r}] has {len(mat)} rows of {', '.join(map(str, widths))} numbers, "
                 f"but each attention matrix takes x (n_embd = {code.n_embd} numbers) to a vector "
                 f"of the same size: {code.n_embd} rows of {code.n_embd}.")


@check("the weights are drawn in train3's order")
def _(code):
    ours = reference(code).weights
    theirs = code.weights
    numbers = {name: tuple(tuple(_data(row)) for row in mat) for name, mat in ours.items()}
    owner = {value: name for name, value in numbers.items()}
    order = [name for name in theirs if name in ATTENTION]
    if order != list(ATTENTION):
        fail(f"weights draws the attention matrices in the order {', '.join(order)}. Each "
             f"matrix takes the next numbers random.gauss hands out, so the order decides which "
             f"matrix gets which: train3 draws {', '.join(ATTENTION)}.")
    for name in ("wte", "wpe", "lm_head") + ATTENTION:
        mine = tuple(tuple(_data(row)) for row in theirs[name])
        if mine == numbers[name]:
            continue
        other = owner.get(mine)
        if other is not None:
            names = list(ours)
            later = names.index(other) - names.index(name)
            extra = (f" one {code.n_embd} x {code.n_embd} matrix too many was drawn before it. "
                     f"Is the starter's stand-in, which draws 'attn_wo' on its own, still there?"
                     if later == 1 else "")
            fail(f"weights[{name!r}] holds the numbers train3 draws for {other!r}:{extra or ' '}"
                 f"{'' if extra else 'the matrices are drawn in another order or number. '}"
                 f"train3 draws wte, wpe, lm_head, then {', '.join(ATTENTION)}, each once.")
        fail(f"weights[{name!r}] starts {_short(_data(theirs[name][0]))}, but train3's starts "
             f"{_short(_data(ours[name][0]))}: the draws before it differ.")


def _watch(code, tokens):
    """Run the learner's gpt() over the tokens with fresh caches; note, at the last position,
    every rmsnorm() output and the q that attention was given (through a stand-in for the given
    attention_weights, or else the output of linear() with attn_wq). Returns (rmsnorm outputs,
    q or None, keys, values)."""
    keys, values = [], []
    norms, seen = [], {}
    real_linear, real_norm = code.linear, code.rmsnorm
    real_weights = code._namespace.get("attention_weights")

    def linear(x, w):
        out = real_linear(x, w)
        if w is code.weights.get("attn_wq"):
            seen.setdefault("linear q", out)
        return out

    def rmsnorm(x):
        out = real_norm(x)
        norms.append(out)
        return out

    def attention_weights(q, keys):
        seen["q"] = q
        return real_weights(q, keys)

    for pos, token in enumerate(tokens):
        norms.clear()
        seen.clear()
        with replacing(code, "linear", linear), replacing(code, "rmsnorm", rmsnorm), \
                replacing(code, "attention_weights" if real_weights else "_unused", attention_weights), \
                calling(f"gpt({token}, {pos}, keys, values)"):
            code.gpt(token, pos, keys, values)
    return norms, seen.get("q", seen.get("linear q")), keys, values


def _times(matrix, x):
    """matrix times x, in plain numbers: what linear(x, matrix) gives."""
    return [sum(w.data * xi for w, xi in zip(row, x)) for row in matrix]


@check("q, k and v each come from x through their own matrix")
def _(code):
    word = "emma" if all(ch in code.chars for ch in "emma") else "".join(code.chars[:4])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    norms, q, keys, values = _watch(code, tokens)
    pos = len(tokens) - 1
    where = f"In gpt() for {word!r} at position {pos} ({word[-1]!r})"
    if len(norms) < 2:
        fail(f"{where}, rmsnorm ran {'once' if norms else 'never'}: the two given "
             "`x = rmsnorm(x)` lines must stay, so that q, k and v are made from the normalized x.")
    x = norms[1]
    if not keys or not values:
        fail(f"{where}, nothing was added to the cache: keys and values are still empty.")
    expect = {name: _times(code.weights[name], _data(x)) for name in ATTENTION[:3]}
    key, value = keys[-1], values[-1]
    if _same(_data(key), _data(x)) and _same(_data(value), _data(x)):
        fail(f"{where}, the key and the value this position keeps are both x itself (they "
             f"start {_short(_data(key))}), and no attention matrix was used: the stand-in "
             f"q = k = v = x is still there. q, k and v are three different views of x, each "
             f"through its own matrix: weights['attn_wq'], weights['attn_wk'] and "
             f"weights['attn_wv'].")
    made = {"attn_wk": ("key this position keeps in the cache", "k", key),
            "attn_wv": ("value this position keeps in the cache", "v", value),
            "attn_wq": ("query attention was given", "q", q)}
    for name, (what, role, vector) in made.items():
        if vector is None:
            fail(f"{where}, attention was never given a q, and linear() was never called with "
                 f"weights['attn_wq']: q, what this position is looking for, is x through "
                 f"weights['attn_wq'].")
        got = _data(vector)
        if _same(got, expect[name]):
            if cut_off(list(vector), {i: xi for i, xi in enumerate(x)}):
                fail(f"{where}, {role} has the right numbers, those of x through "
                     f"weights[{name!r}], but it is not computed from x's Values: between x and "
                     f"{role}, plain numbers (`.data`) were used, or new Values made from them, "
                     f"so the link back to x is gone. backward() stops there, and through {role} "
                     f"no gradient reaches anything before it (the rows of wte and wpe that "
                     f"made x).")
            continue
        source = next((other for other, numbers in expect.items() if _same(got, numbers)), None)
        if source is not None:
            fail(f"{where}, the {what} is x through weights[{source!r}], the matrix of "
                 f"{ROLE[source]}. {role} has a matrix of its own, weights[{name!r}]: with one "
                 f"matrix for both, {role} is a copy of {ROLE[source]}, and attention loses what "
                 f"makes them different.")
        fail(f"{where}, the {what} starts {_short(got)}, but {role} is x (after its second "
             f"rmsnorm, which starts {_short(_data(x))}) through weights[{name!r}], which "
             f"starts {_short(expect[name])}.")
    return (f"At position {pos}, q, k and v are three different vectors of {len(key)} numbers; "
            f"the cache holds {len(keys)} keys and {len(values)} values.")


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
