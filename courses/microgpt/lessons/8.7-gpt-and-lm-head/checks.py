"""Checks for lesson 8.7: gpt() takes its cache from the caller, reads out 27 logits through
lm_head, and train3 trains with its own learning rate, step for step like the reference.

The read-out is watched through a stand-in linear (the learner's own, noting which matrix it
was given), so any spelling passes and the classic slips (x returned as it is, the embedding
table used to read out, probabilities returned instead of logits) are named from what came
back. The cache check calls gpt() twice without one: an error is fine, a second call that finds
the first one's key is not. Then gpt() is compared with ours on new names, and two real training
steps with the reference's.
"""
import math
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
    number,
    reference,
    replacing,
)


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _start(values):
    return "[" + ", ".join(number(round(v, 4)) for v in values[:3]) + ", ...]"


def _same(got, want):
    return len(got) == len(want) and all(close(a, b, 1e-9, 1e-12) for a, b in zip(got, want))


@check("gpt() takes its cache from the caller")
def _(code):
    scores = []
    real_softmax = code.softmax

    def softmax(logits):
        scores.append(len(logits))
        return real_softmax(logits)

    with replacing(code, "softmax", softmax):
        for attempt in range(2):
            scores.clear()
            try:
                code.gpt(code.BOS, 0)
            except TypeError:
                return "gpt() needs its cache: called without keys and values, it says so."
    if scores and scores[0] > 1:
        fail(f"gpt({code.BOS}, 0), called twice without a cache, worked both times, and the "
             f"second call scored {scores[0]} keys where a name's first position has one: the "
             f"first call's key was still in the cache. A default list is made once, when def "
             f"runs, and every call that leaves the argument out shares it. gpt() must take "
             f"keys and values from its caller, who makes a fresh cache for each name.",
             fix="def gpt(token, pos, keys, values):")
    keys, values = [], []
    with calling(f"gpt({code.BOS}, 0, keys, values)"):
        code.gpt(code.BOS, 0, keys, values)
    if len(keys) != 1 or len(values) != 1:
        fail(f"After gpt({code.BOS}, 0, keys, values) on two empty lists of ours, they hold "
             f"{len(keys)} keys and {len(values)} values: gpt() must add this position's k and v "
             f"to the lists it is given.")


@check("gpt() returns one logit per token, read out by lm_head")
def _(code):
    letter = "e" if "e" in code.chars else code.chars[0]
    token = code.chars.index(letter)
    calls = []
    real_linear = code.linear
    names = {id(mat): name for name, mat in code.weights.items()}

    def linear(x, w):
        out = real_linear(x, w)
        calls.append((names.get(id(w), "another matrix"), _data(x), _data(out)))
        return out

    with replacing(code, "linear", linear), calling(f"gpt({token}, 0, keys, values)"):
        logits = code.gpt(token, 0, [], [])
    what = f"gpt({token}, 0, [], []) ({letter!r} at position 0)"
    if not isinstance(logits, (list, tuple)):
        fail(f"{what} returned {type(logits).__name__}, but gpt() returns a list of logits.")
    got = _data(logits)
    lm_head = [c for c in calls if c[0] == "lm_head"]
    if len(got) != code.vocab_size:
        fail(f"{what} returned {len(got)} numbers, but it must return one logit per token: "
             f"vocab_size = {code.vocab_size}. x itself has n_embd = {code.n_embd} numbers; "
             f"lm_head, {code.vocab_size} rows of {code.n_embd}, turns it into one score per "
             f"token.", fix="return linear(x, weights['lm_head'])")
    if not lm_head:
        used = [name for name, _, out in calls if _same(got, out)]
        if used == ["wte"]:
            fail(f"{what} read its logits out with weights['wte'], the embedding table: each "
                 f"token's logit is the dot product of x with that token's row of wte. GPT-2 "
                 f"does that (tied weights), but train3 has a read-out matrix of its own, "
                 f"lm_head, drawn third (lesson 8.1), with its own {code.vocab_size} rows to "
                 f"learn.", fix="return linear(x, weights['lm_head'])")
        fail(f"{what} never called linear() with weights['lm_head']: the logits are x read out "
             f"through lm_head.")
    _, x, out = lm_head[-1]
    if _same(got, out):
        return (f"{what} returns {code.vocab_size} logits, x read out through lm_head "
                f"({code.vocab_size} rows of {code.n_embd}).")
    top = max(out)
    exps = [math.exp(v - top) for v in out]
    probs = [e / sum(exps) for e in exps]
    if _same(got, probs):
        fail(f"{what} returned numbers that add up to {number(round(sum(got), 6))}: softmax of "
             f"the logits, not the logits. Training and sampling apply softmax to what gpt() "
             f"returns, so a softmax inside gpt() would be applied twice, flattening every "
             f"distribution towards uniform. Return the logits themselves, which start "
             f"{_start(out)}.", fix="return linear(x, weights['lm_head'])")
    fail(f"{what} returned {_start(got)}, but lm_head's output, the logits, start {_start(out)}.")


@check("the learning rate is train3's 0.3")
def _(code):
    rate = code.learning_rate
    if isinstance(rate, bool) or not isinstance(rate, (int, float)):
        fail(f"learning_rate is {rate!r}, but it must be a number: train3 uses 0.3.")
    if close(rate, 0.3, 1e-12, 1e-12):
        return
    if close(rate, 1.0, 1e-12, 1e-12):
        fail("learning_rate is 1.0, train2's. train3 normalizes x with rmsnorm, so its vectors "
             "are about 1 in size where train2's embeddings were about 0.1, and its gradients "
             "are bigger: at 1.0 its loss blows up within the first few dozen steps (Watch "
             "measures when). train3 uses 0.3.", fix="learning_rate = 0.3")
    fail(f"learning_rate is {number(rate)}, but train3 uses 0.3: with another rate the losses "
         f"(and the names) are no longer train3's.", fix="learning_rate = 0.3")


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


@check("two training steps match train3's")
def _(code):
    ours = reference(code)
    got, want = [], []
    for step in range(2):
        with calling(f"train_step({step})"):
            got.append(code.train_step(step))
        want.append(ours.train_step(step))
    for step, (a, b) in enumerate(zip(got, want)):
        if not close(a, b, 1e-9, 1e-12):
            fail(f"train_step({step}) returned a loss of {number(a)}, but train3's step "
                 f"{step + 1} has {number(b)} (on the name {code.docs[step % len(code.docs)]!r}).")
    return (f"Steps 1 and 2: losses {got[0]:.4f} and {got[1]:.4f}, the same as train3.py prints.")


LENGTHS = (1, 5, 16, 22)


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
