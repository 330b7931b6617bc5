"""Checks for lesson 2.5: the whole of train0.py, one check per part, in the order they run.

The file runs at the top level, as train0.py does. The checks count the pairs of input.txt
themselves, shuffle the names with the same seed, and compare: the table, its probabilities,
the 1000 printed losses, and the 20 printed names (replayed with random.seed(42), so they must
be exactly train0's).
"""
import math
import random
import re

from linebyline.runtime import check, close, fail, number, printed

STEP = re.compile(r"^step\s+(\d+) / (\d+) \| loss (\S+)$", re.MULTILINE)
SAMPLE = re.compile(r"^sample\s+(\d+): (.*)$", re.MULTILINE)
_cache = {}


def _model():
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


def _label(i):
    model = _model()
    return "BOS" if i == model["bos"] else repr(model["chars"][i])


def _loss(doc, block_size):
    model = _model()
    ids = [model["bos"]] + [model["chars"].index(ch) for ch in doc] + [model["bos"]]
    n = min(block_size, len(ids) - 1)
    return sum(-math.log(model["probs"][ids[p]][ids[p + 1]]) for p in range(n)) / n


def _samples(block_size, row_of_bos=False):
    model = _model()
    bos, probs, chars = model["bos"], model["probs"], model["chars"]
    random.seed(42)
    random.shuffle(list(model["docs"]))
    names = []
    for _ in range(20):
        token, name = bos, []
        for _ in range(block_size):
            token = random.choices(range(bos + 1), weights=probs[bos if row_of_bos else token])[0]
            if token == bos:
                break
            name.append(chars[token])
        names.append(''.join(name))
    return names


@check("the table counts every pair")
def _(code):
    want, got = _model()["counts"], code.counts
    size = len(want)
    if got == want:
        return
    if all(cell == 1 for row in got for cell in row):
        fail("Every cell of counts is still 1: nothing was counted. Inside the loop over the "
             "pairs, add 1 to counts[a][b].")
    if got == [list(column) for column in zip(*want)]:
        a, b = _model()["chars"].index('q'), _model()["chars"].index('u')
        fail(f"Rows and columns are swapped: counts[{a}][{b}] ('q' then 'u') is {got[a][b]} but "
             f"should be {want[a][b]}. The first index is the token that comes first: "
             f"counts[a][b] += 1.")
    wrong = [(a, b) for a in range(size) for b in range(size) if got[a][b] != want[a][b]]
    a, b = wrong[0]
    fail(f"counts[{a}][{b}] ({_label(a)} then {_label(b)}) is {got[a][b]} but counting "
         f"input.txt gives {want[a][b]} ({len(wrong)} cells are off). Each pair (a, b) of each "
         f"name adds 1 to counts[a][b].")


@check("each row of probs adds up to 1")
def _(code):
    counts, probs = code.counts, code.probs
    size = len(counts)
    if all(close(probs[a][b], counts[a][b] / sum(counts[a]), rel=1e-9)
           for a in range(size) for b in range(size)):
        return
    q = _model()["chars"].index('q')
    if all(close(p, 1 / size, rel=1e-9) for row in probs for p in row):
        fail(f"probs is still the placeholder: every token gets 1/{size} = "
             f"{number(1 / size)} after every token, as if nothing had been counted. Divide "
             f"each count by the total of its row.")
    grand = sum(map(sum, counts))
    if all(close(probs[a][b], counts[a][b] / grand, rel=1e-9)
           for a in range(size) for b in range(size)):
        fail(f"Each count was divided by {grand:,}, the total of the whole table, so row q adds "
             f"up to {number(sum(probs[q]))} instead of 1. Divide by the total of the row: "
             f"sum(row).")
    fail(f"probs[{q}][{q}] should be counts[{q}][{q}] / sum(counts[{q}]) = "
         f"{number(counts[q][q] / sum(counts[q]))}, but it is {number(probs[q][q])}. Each "
         f"count is divided by the total of its own row.")


@check("each step prints the name's mean surprise")
def _(code):
    model, block_size = _model(), code.block_size
    lines = STEP.findall(printed(code))
    if len(lines) != code.num_steps:
        fail(f"There should be {code.num_steps} lines `step ... | loss ...`, one per step, but "
             f"{len(lines)} were printed.")
    for step, (_, _, value) in enumerate(lines):
        doc = model["docs"][step % len(model["docs"])]
        want = _loss(doc, block_size)
        if value == f"{want:.4f}":
            continue
        seen = (f"Step {step + 1} scores the name {doc!r}: its loss should be {want:.4f}, but "
                f"your file printed {value}.")
        if value == f"{-want:.4f}":
            fail(f"{seen} The sign is wrong: the log of a probability is negative, and the "
                 f"minus in front, -math.log(...), turns it into a positive surprise.")
        if value == f"{0:.4f}":
            fail(f"{seen} `losses` stays empty: append one surprise per pair, "
                 f"-math.log(probs[tokens[pos]][tokens[pos + 1]]).")
        ids = [model["bos"]] + [model["chars"].index(ch) for ch in doc] + [model["bos"]]
        counts = model["counts"]
        of_counts = sum(-math.log(counts[ids[p]][ids[p + 1]]) for p in range(len(ids) - 1))
        if value == f"{of_counts / (len(ids) - 1):.4f}":
            fail(f"{seen} That is the log of the counts: the surprise is minus the log of the "
                 f"probability, read from probs, not from counts.")
        fail(f"{seen} The surprise of each pair is -math.log(probs[tokens[pos]][tokens[pos + "
             f"1]]), and the loss is their mean.")


@check("the 20 names of train0")
def _(code):
    got = [name for _, name in SAMPLE.findall(printed(code))]
    want = _samples(code.block_size)
    if got == want:
        return
    if len(got) != 20:
        fail(f"There should be 20 lines `sample ...: name`, but {len(got)} were printed.")
    if all(name == "" for name in got):
        fail("All 20 names are empty: the placeholder `token = BOS` ends each name at once. "
             "Draw the next token with random.choices, weighted by probs[token].")
    if got == _samples(code.block_size, row_of_bos=True):
        fail(f"The names ({got[0]!r}, {got[1]!r}, ...) are drawn from row BOS every time: "
             f"each letter ignores the one before it, and BOS almost never comes. Use "
             f"weights=probs[token], the row of the current token.")
    index = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
    fail(f"With random.seed(42), train0's sample {index + 1} is {want[index]!r}, but your file "
         f"printed {got[index]!r}. Draw each token with one call, "
         f"random.choices(range(vocab_size), weights=probs[token])[0].")
