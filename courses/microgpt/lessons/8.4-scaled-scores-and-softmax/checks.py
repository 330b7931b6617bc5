"""Checks for lesson 8.4: one score per key so far, q · k / sqrt(n_embd), and softmax of them.

gpt() is watched through stand-ins for linear and softmax (the learner's own, with a note of
every call): q is what linear() made with attn_wq, the keys and values are the cache lists
passed in, softmax's first call is attention's, and what reaches attn_wo is the blend the
weights made (the starter's given attention_output, from the course's library, is run here
with the watched linear too). Every expectation is worked out here from those, so any spelling
passes, and each classic slip (no division, a division by n_embd, only the current key, the values scored
instead of the keys, no softmax) is named from the numbers. The last check compares gpt() with
ours on new names, up to position block_size - 1, each run twice with fresh caches.
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
    learner_line,
    number,
    replacing,
)

WORD = "emma"


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _list(values, digits=4):
    return "[" + ", ".join(number(round(v, digits)) for v in values) + "]"


def _same(got, want, rel=1e-9):
    return len(got) == len(want) and all(close(a, b, rel, 1e-12) for a, b in zip(got, want))


def _softmax(scores):
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def _dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def _word(code):
    return WORD if all(ch in code.chars for ch in WORD) else "".join(code.chars[:4])


def _watch(code):
    """Run gpt() over BOS + the word with fresh caches; for each position, what it did:
    q, the keys and values so far, the first softmax call (scores, weights) and the blend."""
    word = _word(code)
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    keys, values = [], []
    seen = []
    real_linear, real_softmax = code.linear, code.softmax
    for pos, token in enumerate(tokens):
        note = {"q": None, "blend": None, "softmax": []}

        def linear(x, w, note=note):
            out = real_linear(x, w)
            if w is code.weights["attn_wq"]:
                note["q"] = _data(out)
            if w is code.weights["attn_wo"]:
                note["blend"] = _data(x)
            return out

        def softmax(logits, note=note):
            out = real_softmax(logits)
            note["softmax"].append((_data(logits), _data(out)))
            return out

        def attention_output(attn, values, residual, weights, linear=linear):
            """The starter's given attention_output (the blend, attn_wo, the residual), with
            its linear watched as well."""
            width = len(values[0])
            x = [sum(a * past_v[i] for a, past_v in zip(attn, values)) for i in range(width)]
            return [a + b for a, b in zip(linear(x, weights["attn_wo"]), residual)]

        with replacing(code, "linear", linear), replacing(code, "softmax", softmax), \
                replacing(code, "attention_output", attention_output), \
                calling(f"gpt({token}, {pos}, keys, values) for {word!r}"):
            code.gpt(token, pos, keys, values)
        note["keys"] = [_data(k) for k in keys]
        note["values"] = [_data(v) for v in values]
        seen.append(note)
    return word, seen


def _label(word, pos):
    return "BOS" if pos == 0 else repr(word[pos - 1])


@check("one score for every key so far")
def _(code):
    word, seen = _watch(code)
    root = code.n_embd ** 0.5
    for pos, note in enumerate(seen):
        where = f"In gpt() for {word!r} at position {pos} ({_label(word, pos)})"
        if not note["softmax"]:
            _no_softmax(word, seen, root)
        scores = note["softmax"][0][0]
        if len(scores) > pos + 1 and pos:
            earlier = [score for before in seen[:pos] for score in before["softmax"][0][0]]
            if _same(scores[:len(earlier)], earlier):
                those = ("the first is the score of position 0" if len(earlier) == 1 else
                         f"the first {len(earlier)} are the scores of the earlier positions")
                fail(f"{where}, softmax got {len(scores)} scores, but there are only {pos + 1} "
                     f"keys so far: {those}, still in the list. The list of scores must start empty at "
                     f"every call of gpt(): one score per key, for this query only.")
        if len(scores) != pos + 1:
            what = ("1 score, only for this position's own key, not for the keys in the cache"
                    if len(scores) == 1 else f"{len(scores)} scores")
            fail(f"{where}, softmax got {what}, but there are {pos + 1} keys so far (the cache "
                 f"holds one per position, this one's included), and each needs its score: one "
                 f"per past_k in keys.")
    return f"At position {len(seen) - 1}, {len(seen)} scores: one per key so far."


def _no_softmax(word, seen, root):
    """softmax was never called: say what weighted the values instead, from the blend."""
    pos = len(seen) - 1
    note = seen[pos]
    where = f"In gpt() for {word!r} at position {pos} ({_label(word, pos)})"
    blend, values = note["blend"], note["values"]
    if blend is not None and note["q"] is not None:
        scores = [_dot(note["q"], k) / root for k in note["keys"]]
        by_scores = [sum(s * v[i] for s, v in zip(scores, values)) for i in range(len(blend))]
        if _same(blend, by_scores, 1e-7):
            fail(f"{where}, softmax was never called, and the values were weighted by the scores "
                 f"themselves, {_list(scores)}: they add up to {number(round(sum(scores), 4))} and "
                 f"some are negative. attn is softmax of the scores, "
                 f"{_list(_softmax(scores))}: shares that are never negative and add up to 1.",
                 fix="attn = softmax(scores)")
        share = 1 / len(values)
        if _same(blend, [sum(share * v[i] for v in values) for i in range(len(blend))], 1e-7):
            fail(f"{where}, softmax was never called, and every position got the same weight, "
                 f"1/{len(values)}: the stand-in is still there, so what q and the keys say "
                 f"changes nothing. Score q against every key, then take the softmax of the "
                 f"scores.")
        weights = _softmax(scores)
        if _same(blend, [sum(w * v[i] for w, v in zip(weights, values)) for i in range(len(blend))],
                 1e-7):
            fail(f"{where}, the values were weighted by {_list(weights)}, the softmax of the "
                 f"scores, which is right, but the file's softmax() was never called: these checks "
                 f"read the scores from the call to softmax(), so turn the scores into weights "
                 f"with it rather than with a softmax of your own.", fix="attn = softmax(scores)")
    if blend is None or note["q"] is None:
        fail(f"{where}, softmax was never called: attn must be softmax of the scores, one score "
             f"per key so far.")
    fail(f"{where}, softmax was never called, and the blend of the values that reaches attn_wo "
         f"starts {_list(blend[:3])}: it is not weighted by softmax of the scores, nor by the "
         f"scores themselves, nor equally. attn must be softmax of the scores, one score per key "
         f"so far.")


@check("each score is q · k / sqrt(n_embd)")
def _(code):
    word, seen = _watch(code)
    _judge_scores(code, word, seen, "In")
    with _Width(code, OTHER_WIDTH):
        word, seen = _watch(code)
        _judge_scores(code, word, seen, f"{WIDE}, in")
    return (f"Each score is q · k / {number(16 ** 0.5)} (and / {number(OTHER_WIDTH ** 0.5)} at "
            f"n_embd = {OTHER_WIDTH}): the dot product, divided by the root of the width.")


def _judge_scores(code, word, seen, opening):
    """Fails unless every score of every position (after the first) is q · k / sqrt(n_embd)."""
    root = code.n_embd ** 0.5
    for pos, note in enumerate(seen):
        if pos == 0:
            continue
        where = f"{opening} gpt() for {word!r} at position {pos} ({_label(word, pos)})"
        scores = note["softmax"][0][0]
        q = note["q"]
        if q is None:
            fail(f"{where}, q was never made with weights['attn_wq']: keep the given q line.")
        raw = [_dot(q, k) for k in note["keys"]]
        want = [r / root for r in raw]
        if _same(scores, want):
            continue
        seen_text = f"{where}, the scores are {_list(scores)}"
        should = f"q · k / {number(root)} for each key gives {_list(want)}"
        if _same(scores, raw):
            fail(f"{seen_text}: q · k, not divided. They should be {number(root)} times smaller: "
                 f"{should}. A dot product of n_embd = {code.n_embd} pairs grows with the width "
                 f"(about like its square root), and softmax of big scores piles almost all the "
                 f"weight on one position.", fix="scores = [sum(qi * ki for qi, ki in zip(q, "
                 "past_k)) / n_embd ** 0.5 for past_k in keys]")
        if _same(scores, [r / code.n_embd for r in raw]):
            fail(f"{seen_text}: q · k divided by {code.n_embd}, n_embd itself, not by its square "
                 f"root {number(root)}: {should}. Dividing by the width shrinks the scores more "
                 f"and more as the width grows, until softmax can only give every position the "
                 f"same weight.", fix="scores = [sum(qi * ki for qi, ki in zip(q, past_k)) / "
                 "n_embd ** 0.5 for past_k in keys]")
        if code.n_embd != 16 and _same(scores, [r / 4 for r in raw]):
            fail(f"{seen_text}: q · k divided by 4, the root of 16, but n_embd is "
                 f"{code.n_embd} here, and the root of the width is {number(root)}: {should}. "
                 f"With n_embd = 16 the scores were right, so the 4 is written into the line "
                 f"where it should follow n_embd.")
        if _same(scores, [r * root for r in raw]):
            fail(f"{seen_text}: q · k multiplied by {number(root)} instead of divided: {should}.")
        if _same(scores, [_dot(q, v) / root for v in note["values"]]):
            fail(f"{seen_text}: q scored against the values, not the keys. A position is found by "
                 f"its key; its value is what it hands over once found: {should}.")
        if _same(scores, [_dot(note["keys"][-1], k) / root for k in note["keys"]]):
            fail(f"{seen_text}: this position's key scored against every key, not its query: "
                 f"{should}.")
        fail(f"{seen_text}, but {should}.")


@check("attn is softmax of the scores")
def _(code):
    word, seen = _watch(code)
    for pos, note in enumerate(seen):
        if pos == 0:
            continue
        where = f"In gpt() for {word!r} at position {pos} ({_label(word, pos)})"
        scores, given_back = note["softmax"][0]
        weights = _softmax(scores)
        blend = note["blend"]
        if blend is None:
            fail(f"{where}, linear() was never called with weights['attn_wo']: keep the given "
                 "lines after attn.")
        want = [sum(a * v[i] for a, v in zip(weights, note["values"])) for i in range(len(blend))]
        if _same(blend, want, 1e-7):
            continue
        by_scores = [sum(s * v[i] for s, v in zip(scores, note["values"]))
                     for i in range(len(blend))]
        if _same(blend, by_scores, 1e-7):
            fail(f"{where}, the values were weighted by the scores themselves, {_list(scores)}, "
                 f"which add up to {number(round(sum(scores), 4))} and can be negative. attn is "
                 f"softmax of the scores, {_list(weights)}: shares that are never negative and "
                 f"add up to 1.")
        fail(f"{where}, the blend of the values starts {_list(blend[:3])}, but with attn = "
             f"softmax of the scores, {_list(weights)}, it starts {_list(want[:3])}.")
    last = _softmax(seen[-1]["softmax"][0][0])
    return (f"At position {len(seen) - 1} of {word!r}, attention gives {_list(last, 3)}: shares "
            f"that add up to 1.")


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
