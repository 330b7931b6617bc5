"""Checks for lesson 2.3: n, the surprises of the last name, its mean, and every printed loss.

The learner's loop runs at the top level of the file, as in train0.py, so after it `doc`,
`tokens`, `n`, `losses` and `loss` hold the last step's name. The first checks judge those (the
first also explains an IndexError: a loop that reads one token past the end stops the file at
its first name, and `n` then tells why); the next one recomputes all 1000 losses independently
(reading input.txt, shuffling with the same seed, counting the pairs) and compares them with the
printed lines. No name of input.txt is longer than block_size, so the last check runs the file
again on a names file of our own with longer names: there the cap on n has to bite.
"""
import math
import random
import re

from linebyline.runtime import (
    calling,
    check,
    close,
    crashed,
    fail,
    number,
    printed,
    reference,
    rerun,
    shown,
)

_cache = {}
STEP = re.compile(r"^step\s+(\d+) / (\d+) \| loss (\S+)$", re.MULTILINE)
N_FIX = "`n = min(block_size, len(tokens) - 1)`: one pair per token but the last, at most block_size."
SURPRISE_FIX = ("`for pos in range(n):` and, inside it, "
                "`losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))`.")
MEAN_FIX = "`loss = (1 / n) * sum(losses)`: the sum of the n surprises, times 1 / n."
# Names longer than block_size = 16, which input.txt (14 letters at most) never has.
OWN_NAMES = "bo\nmaximilianalexander\nzoe\nchristopherjonathan\nkai\nevangelinerosemary\n"


def _model():
    """docs (shuffled as train0 shuffles them), chars, BOS and the table's probabilities."""
    if "probs" not in _cache:
        docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
        random.seed(42)
        random.shuffle(docs)
        chars = sorted(set(''.join(docs)))
        bos = len(chars)
        counts = [[1] * (bos + 1) for _ in range(bos + 1)]
        index = {ch: i for i, ch in enumerate(chars)}
        for doc in docs:
            ids = [bos] + [index[ch] for ch in doc] + [bos]
            for first, second in zip(ids, ids[1:]):
                counts[first][second] += 1
        _cache.update(docs=docs, chars=chars, bos=bos, counts=counts,
                      probs=[[c / sum(row) for c in row] for row in counts])
    return _cache


def _ids(doc):
    model = _model()
    return [model["bos"]] + [model["chars"].index(ch) for ch in doc] + [model["bos"]]


def _surprises(doc, block_size):
    ids, probs = _ids(doc), _model()["probs"]
    n = min(block_size, len(ids) - 1)
    return [-math.log(probs[ids[pos]][ids[pos + 1]]) for pos in range(n)]


def _pair(doc, pos):
    ids, chars, bos = _ids(doc), _model()["chars"], _model()["bos"]
    name = lambda i: "BOS" if i == bos else chars[i]  # noqa: E731
    return f"({name(ids[pos])}, {name(ids[pos + 1])})"


def _numbers(values):
    return isinstance(values, (list, tuple)) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in values)


@check("n is the number of pairs in the name", explains=(IndexError,))
def _(code):
    doc, n = code.doc, code.n
    want = min(code.block_size, len(doc) + 1)
    if n == want:
        return
    where = ("When your file stopped, at its first name," if crashed(code)
             else "After the loop, the last name is")
    seen = (f"{where} {doc!r}: BOS, {len(doc)} letters, BOS, so "
            f"{len(doc) + 2} tokens and {want} pairs: {', '.join(_pair(doc, p) for p in range(want))}. "
            f"n should be {want}, but it is {shown(n)}.")
    if n == want - 1:
        fail(f"{seen} The last pair, ({doc[-1]}, BOS), is left out: that is the pair that says "
             f"the name ends here, and without it the model is never asked how names end. "
             f"There is one pair per token except the last.", fix=N_FIX)
    if n == want + 1 and crashed(code):
        fail(f"{seen} n counts the tokens, not the pairs: with pos going up to n - 1 = {n - 1}, "
             f"the loop asks for tokens[pos + 1] = tokens[{n}], and the last token, "
             f"tokens[{n - 1}], has no token after it. There is one pair per token except the "
             f"last.", fix=N_FIX)
    if n == want + 1:
        fail(f"{seen} n counts the tokens, but the last token has no token after it, so there "
             f"is one pair fewer.", fix=N_FIX)
    fail(f"{seen} There is one pair per token except the last, and never more than "
         f"block_size.", fix=N_FIX)


@check("each surprise is −log p")
def _(code):
    doc, losses = code.doc, code.losses
    want = _surprises(doc, code.block_size)
    if not _numbers(losses):
        fail(f"After the loop, losses should be a list of numbers, one surprise per pair of "
             f"{doc!r}, but it is {shown(losses)}.", fix=SURPRISE_FIX)
    if len(losses) != len(want):
        fail(f"For the last name, {doc!r}, losses has {len(losses)} numbers, but it needs "
             f"{len(want)}: one surprise for each of its {len(want)} pairs, one for each "
             f"position from 0 to n - 1.", fix=SURPRISE_FIX)
    if all(close(x, y, rel=1e-9, abs_tol=1e-12) for x, y in zip(losses, want)):
        return
    ids, model = _ids(doc), _model()
    first = _pair(doc, 0)
    p = model["probs"][ids[0]][ids[1]]
    seen = (f"For the last name, {doc!r}, losses is {shown([round(x, 4) for x in losses])} "
            f"but should be {shown([round(x, 4) for x in want])}.")
    if all(close(x, -y, rel=1e-9, abs_tol=1e-12) for x, y in zip(losses, want)):
        fail(f"{seen} Every surprise has the wrong sign. A probability is at most 1, so its "
             f"log is 0 or negative: log({number(p)}) = {number(math.log(p))} for the pair "
             f"{first}. A minus in front of the log makes the surprise positive, and big when p "
             f"is small.", fix=SURPRISE_FIX)
    counts = model["counts"]
    if all(close(x, -math.log(counts[ids[pos]][ids[pos + 1]]), rel=1e-9, abs_tol=1e-12)
           for pos, x in enumerate(losses)):
        fail(f"{seen} These are logs of counts, not of probabilities: the pair {first} was seen "
             f"{counts[ids[0]][ids[1]] - 1} times (count {counts[ids[0]][ids[1]]}), but the "
             f"surprise is about its chance, probs[a][b] = {number(p)}. The number comes from "
             f"probs.", fix=SURPRISE_FIX)
    probs = model["probs"]
    if all(close(x, -math.log(probs[ids[pos + 1]][ids[pos]]), rel=1e-9, abs_tol=1e-12)
           for pos, x in enumerate(losses)):
        fail(f"{seen} The row and the column are swapped: the probability of the pair "
             f"(tokens[pos], tokens[pos + 1]) sits in the row of the current token, tokens[pos], "
             f"and the column of the next one.", fix=SURPRISE_FIX)
    ratios = [x / y for x, y in zip(losses, want) if y]
    if ratios and all(close(r, ratios[0], rel=1e-9) for r in ratios):
        base = {round(1 / math.log(10), 6): "math.log10", round(1 / math.log(2), 6): "math.log2"}
        which = base.get(round(ratios[0], 6), "another logarithm")
        fail(f"{seen} Each surprise is off by the same factor, {number(ratios[0])}: that is "
             f"{which}, not the natural log, math.log, the log that the rest of the course (and "
             f"microgpt's Value.log) uses.", fix=SURPRISE_FIX)
    fail(f"{seen} The surprise of the pair at pos is -log p, where p is the probability "
         f"that probs gives tokens[pos + 1] in the row of tokens[pos]; for the first pair, "
         f"{first}, p = {number(p)} and the surprise is {number(-math.log(p))}.",
         fix=SURPRISE_FIX)


@check("loss is the mean surprise")
def _(code):
    doc, losses, loss = code.doc, code.losses, code.loss
    if isinstance(loss, bool) or not isinstance(loss, (int, float)):
        fail(f"After the loop, loss should be a number, but it is {shown(loss)}.", fix=MEAN_FIX)
    n = len(losses)
    want = sum(losses) / n
    if close(loss, want, rel=1e-9, abs_tol=1e-12):
        return
    seen = (f"For the last name, {doc!r}, the {n} surprises add up to {number(sum(losses))}, "
            f"so loss should be their mean, {number(sum(losses))} / {n} = {number(want)}, but "
            f"it is {number(loss)}.")
    if close(loss, sum(losses), rel=1e-9):
        fail(f"{seen} That is the sum. A sum grows with every pair, so long names would get "
             f"big losses just for being long; the mean, sum times 1 / n, makes every name "
             f"count the same.", fix=MEAN_FIX)
    for divisor, what in ((len(code.tokens), "len(tokens), the number of tokens"),
                          (len(doc), "len(doc), the number of letters")):
        if close(loss, sum(losses) / divisor, rel=1e-9):
            fail(f"{seen} The sum was divided by {divisor}, {what}, but there are {n} "
                 f"surprises: the mean divides by n, the number of pairs.", fix=MEAN_FIX)
    if loss == 0:
        fail(f"{seen} loss is still 0.0, the value of the placeholder line. Did you replace the "
             f"placeholder `loss = 0.0`?", fix=MEAN_FIX)
    fail(f"{seen} The mean is the sum of the surprises times 1 / n.", fix=MEAN_FIX)


@check("every step's loss, as train0 prints it")
def _(code):
    model = _model()
    lines = STEP.findall(printed(code))
    total = code.num_steps
    if len(lines) != total:
        fail(f"The loop should print one `step ... | loss ...` line per step, {total} in all, "
             f"but {len(lines)} were printed. Keep the print line at the end of the loop.")
    for step, (shown_step, _, value) in enumerate(lines):
        doc = model["docs"][step % len(model["docs"])]
        surprises = _surprises(doc, code.block_size)
        want = f"{sum(surprises) / len(surprises):.4f}"
        if value != want:
            fail(f"Recomputing the table from input.txt, step {step + 1} (the name {doc!r}) "
                 f"should print loss {want}, but your file printed {value}. Each step scores "
                 f"one name: the mean of -log p over its pairs, BOS included at both ends.")


def _step_losses(code):
    return [value for _, _, value in STEP.findall(printed(code))]


@check("a name longer than block_size scores block_size pairs")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    ours = rerun(reference(code), files)
    got, want = _step_losses(theirs), _step_losses(ours)
    if got == want:
        return (f"Names longer than block_size = {code.block_size} are scored on their first "
                f"{code.block_size} pairs, as in microgpt.")
    docs, block_size = ours.docs, ours.block_size
    step = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    told = (f"With a names file of our own as input.txt ({', '.join(map(repr, OWN_NAMES.split()))}"
            f"), ")
    if step >= len(got) or step >= len(want):
        fail(f"{told}your file printed {len(got)} step lines, but train0 prints {len(want)}.",
             fix=N_FIX)
    doc = docs[step % len(docs)]
    ids = [ours.BOS] + [ours.chars.index(ch) for ch in doc] + [ours.BOS]
    surprises = [-math.log(ours.probs[a][b]) for a, b in zip(ids, ids[1:])]
    seen = (f"{told}step {step + 1} scores {doc!r}: {len(doc)} letters, so {len(ids) - 1} "
            f"pairs, more than block_size = {block_size}. Its loss should be {want[step]}, the "
            f"mean surprise of its first {block_size} pairs, but your file printed {got[step]}.")
    if got[step] == f"{sum(surprises) / len(surprises):.4f}":
        fail(f"{seen} That is the mean of all {len(surprises)} pairs: n was not capped at "
             f"block_size. The models to come look at no more than block_size positions, so a "
             f"longer name is scored on its first {block_size} pairs only. No name of input.txt "
             f"has more than {max(map(len, _model()['docs']))} letters, so the cap never showed "
             f"there.", fix=N_FIX)
    if got[step] == f"{sum(surprises) / block_size:.4f}":
        # n is capped, yet the loop walks every pair: the fix is the loop, not the n line.
        fail(f"{seen} That is all {len(surprises)} surprises added up and divided by block_size = "
             f"{block_size}: n is capped, but the loop still walks every pair of the name. The "
             f"loop must stop after n pairs too, so that the mean is over the pairs it adds.",
             fix=SURPRISE_FIX)
    fail(f"{seen} A name longer than block_size is scored on its first {block_size} pairs: n "
         f"is the number of pairs, but never more than block_size.", fix=N_FIX)
