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

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
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


def _name_cases(rng):
    for length in (1, 5, 16, 22):
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
        if len(mine) != len(ours):
            return f"at position {pos} there are {len(mine)} logits, but there should be {len(ours)}"
        for index, (a, b) in enumerate(zip(mine, ours)):
            if not close(a, b, 1e-9, 1e-12):
                got.data, want.data = mine, ours
                agree = f"; positions 0 to {pos - 1} agree" if pos else ""
                return (f"at position {pos} ({want.labels[pos]!r}), logit {index} is {number(a)} "
                        f"but should be {number(b)}{agree}")
    return ""


agrees("gpt()", _name_cases, call=_run_name, compare=_parts, share=("weights",),
       name="gpt() on new names, twice each")
