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

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, replacing

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
    fail(f"{where}, softmax was never called: attn must be softmax of the scores, one score "
         f"per key so far.")


@check("each score is q · k / sqrt(n_embd)")
def _(code):
    word, seen = _watch(code)
    root = code.n_embd ** 0.5
    for pos, note in enumerate(seen):
        if pos == 0:
            continue
        where = f"In gpt() for {word!r} at position {pos} ({_label(word, pos)})"
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
        if _same(scores, [r * root for r in raw]):
            fail(f"{seen_text}: q · k multiplied by {number(root)} instead of divided: {should}.")
        if _same(scores, [_dot(q, v) / root for v in note["values"]]):
            fail(f"{seen_text}: q scored against the values, not the keys. A position is found by "
                 f"its key; its value is what it hands over once found: {should}.")
        if _same(scores, [_dot(note["keys"][-1], k) / root for k in note["keys"]]):
            fail(f"{seen_text}: this position's key scored against every key, not its query: "
                 f"{should}.")
        fail(f"{seen_text}, but {should}.")
    return f"Each score is q · k / {number(root)}: the dot product, divided by the root of the width."


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


def _name_cases(rng):
    for length in (1, 4, 16, 21):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = f"a {length}-letter name: positions up to block_size - 1" if length >= 16 else ""
        yield Case(f"the name {word!r}", lambda space, word=word: (
            [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS],), note)


class _Run:
    """gpt()'s logits at every position of a name. Messages show its ``data``: a short note,
    or, once a comparison has found where two runs part, the logits at that position."""

    def __init__(self, labels, logits):
        self.labels, self.logits = labels, logits
        self.data = f"logits at {len(logits)} positions"


def _run_name(space, args):
    """gpt() at every position of the name (at most block_size), with a fresh cache."""
    tokens = args[0]
    keys, values = [], []
    logits = [[logit.data for logit in space.gpt(tokens[pos], pos, keys, values)]
              for pos in range(min(space.block_size, len(tokens) - 1))]
    return _Run(["BOS" if t == space.BOS else space.chars[t] for t in tokens], logits)


def _parts(got, want):
    """Where two runs part: the first position whose logits differ, or ""."""
    if len(got.logits) != len(want.logits):
        return f"{len(got.logits)} positions were read, but there should be {len(want.logits)}"
    for pos, (mine, ours) in enumerate(zip(got.logits, want.logits)):
        for index, (a, b) in enumerate(zip(mine, ours)):
            if not close(a, b, 1e-9, 1e-12):
                got.data, want.data = mine, ours
                agree = f"; positions 0 to {pos - 1} agree" if pos else ""
                return (f"at position {pos} ({want.labels[pos]!r}), logit {index} is {number(a)} "
                        f"but should be {number(b)}{agree}")
    return ""


agrees("gpt()", _name_cases, call=_run_name, compare=_parts, share=("weights",),
       name="gpt() on new names, twice each")
