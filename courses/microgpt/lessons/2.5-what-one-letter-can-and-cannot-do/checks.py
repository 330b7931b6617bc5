"""Checks for lesson 2.5: the whole of train0.py, one check per part, in the order they run.

The file runs at the top level, as train0.py does. The checks count the pairs of input.txt
themselves, shuffle the names with the same seed, and compare: the table, its probabilities,
the 1000 printed losses, and the 20 printed names (replayed with random.seed(42), so they must
be exactly train0's). The last check runs the file again on a names file of our own, with
another vocabulary and names longer than block_size, and compares all it prints with the
solution's.
"""
import math
import random
import re

from linebyline.runtime import check, close, fail, learner_line, number, printed, reference, rerun

STEP = re.compile(r"^step\s+(\d+) / (\d+) \| loss (\S+)$", re.MULTILINE)
SAMPLE = re.compile(r"^sample\s+(\d+): (.*)$", re.MULTILINE)
_cache = {}
COUNT_FIX = "In the loop over the pairs: `counts[a][b] += 1`."
PROBS_FIX = "`probs = [[c / sum(row) for c in row] for row in counts]`."
SURPRISE_FIX = "`losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))`."
DRAW_FIX = "`token = random.choices(range(vocab_size), weights=probs[token])[0]`."
ALL_FIX = ("The four lines, with vocab_size and BOS by their names: `counts[a][b] += 1`, "
           "`probs = [[c / sum(row) for c in row] for row in counts]`, "
           "`losses.append(-math.log(probs[tokens[pos]][tokens[pos + 1]]))` and "
           "`token = random.choices(range(vocab_size), weights=probs[token])[0]`.")
# Another vocabulary (a hyphen, most letters missing) and names longer than block_size.
OWN_NAMES = ("anne-marie\njean-luc\nmaximilian-alexander\nbo\nzoe\nlou\nchristopher-jonathan\n"
             "ida\nkai\nmia\neve\nnoor\nluca\n")


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


def _table_first(code, what):
    """Fail, without blaming the line this check is about, when probs is not train0's yet."""
    want, probs = _model()["probs"], code.probs
    size = len(want)
    right = (isinstance(probs, list) and len(probs) == size
             and all(isinstance(row, list) and len(row) == size for row in probs)
             and all(close(probs[a][b], want[a][b], rel=1e-9)
                     for a in range(size) for b in range(size)))
    if not right:
        fail(f"The {what} come from probs, and your probs is not yet the table train0 gets "
             "from input.txt (the checks above say where it differs): with another table, "
             f"other {what} are right. Once counts and probs pass, this check tells about your "
             f"{what} themselves.")


@check("the table counts every pair")
def _(code):
    want, got = _model()["counts"], code.counts
    size = len(want)
    if got == want:
        return
    if all(cell == 1 for row in got for cell in row):
        fail("Every cell of counts is still 1: nothing was counted. Inside the loop over the "
             "pairs, each pair adds 1 to its cell.", fix=COUNT_FIX)
    if got == [list(column) for column in zip(*want)]:
        a, b = _model()["chars"].index('q'), _model()["chars"].index('u')
        fail(f"Rows and columns are swapped: counts[{a}][{b}] ('q' then 'u') is {got[a][b]} but "
             f"should be {want[a][b]}. The first index is the token that comes first, a.",
             fix=COUNT_FIX)
    wrong = [(a, b) for a in range(size) for b in range(size) if got[a][b] != want[a][b]]
    a, b = wrong[0]
    fail(f"counts[{a}][{b}] ({_label(a)} then {_label(b)}) is {got[a][b]} but counting "
         f"input.txt gives {want[a][b]} ({len(wrong)} cells are off). Each pair (a, b) of each "
         f"name adds 1 to its cell: row a, column b.", fix=COUNT_FIX)


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
             f"{number(1 / size)} after every token, as if nothing had been counted. Each "
             f"count has to be divided by the total of its row.", fix=PROBS_FIX)
    grand = sum(map(sum, counts))
    if all(close(probs[a][b], counts[a][b] / grand, rel=1e-9)
           for a in range(size) for b in range(size)):
        fail(f"Each count was divided by {grand:,}, the total of the whole table, so row q adds "
             f"up to {number(sum(probs[q]))} instead of 1. Each row is divided by its own total.",
             fix=PROBS_FIX)
    fail(f"probs[{q}][{q}] should be {counts[q][q]} / {sum(counts[q])} = "
         f"{number(counts[q][q] / sum(counts[q]))}, but it is {number(probs[q][q])}. Each "
         f"count is divided by the total of its own row.", fix=PROBS_FIX)


@check("each step prints the name's mean surprise")
def _(code):
    model, block_size = _model(), code.block_size
    lines = STEP.findall(printed(code))
    _table_first(code, "losses")
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
            fail(f"{seen} The sign is wrong: the log of a probability is negative, and a minus "
                 f"in front of the log turns it into a positive surprise.", fix=SURPRISE_FIX)
        if value == f"{0:.4f}":
            fail(f"{seen} `losses` stays empty: each pair of the name needs its surprise "
                 f"appended, minus the log of its probability.", fix=SURPRISE_FIX)
        ids = [model["bos"]] + [model["chars"].index(ch) for ch in doc] + [model["bos"]]
        counts = model["counts"]
        of_counts = sum(-math.log(counts[ids[p]][ids[p + 1]]) for p in range(len(ids) - 1))
        if value == f"{of_counts / (len(ids) - 1):.4f}":
            fail(f"{seen} That is the log of the counts: the surprise is minus the log of the "
                 f"probability, read from probs, not from counts.", fix=SURPRISE_FIX)
        fail(f"{seen} The surprise of each pair is minus the log of the probability probs "
             f"gives it (row: the current token, column: the next), and the loss is their "
             f"mean.", fix=SURPRISE_FIX)


@check("the 20 names of train0")
def _(code):
    got = [name for _, name in SAMPLE.findall(printed(code))]
    want = _samples(code.block_size)
    if got == want:
        return
    _table_first(code, "names")
    if len(got) != 20:
        fail(f"There should be 20 lines `sample ...: name`, but {len(got)} were printed.")
    if all(name == "" for name in got):
        fail("All 20 names are empty: the placeholder `token = BOS` ends each name at once. "
             "The next token has to be drawn at random, weighted by the current token's row.",
             fix=DRAW_FIX)
    if got == _samples(code.block_size, row_of_bos=True):
        fail(f"The names ({got[0]!r}, {got[1]!r}, ...) are drawn from row BOS every time: "
             f"each letter ignores the one before it, and BOS almost never comes. The weights "
             f"are the row of the current token.", fix=DRAW_FIX)
    index = next(i for i, (a, b) in enumerate(zip(got, want)) if a != b)
    fail(f"With random.seed(42), train0's sample {index + 1} is {want[index]!r}, but your file "
         f"printed {got[index]!r}. Each token is one call of random.choices over every id, "
         f"weighted by the current token's row.", fix=DRAW_FIX)


@check("train0 on another names file")
def _(code):
    files = {"input.txt": OWN_NAMES}
    ours = rerun(reference(code), files)
    told = (f"With a names file of our own as input.txt ({', '.join(map(repr, OWN_NAMES.split()[:3]))}"
            f" and {len(OWN_NAMES.split()) - 3} more: {len(ours.chars)} different characters, so "
            f"vocab_size = {ours.vocab_size}, and names longer than block_size),")
    try:
        theirs = rerun(code, files)
    except Exception as error:  # noqa: BLE001 - every error of their file is told
        line = learner_line(error, code)
        at = f" on line {line}" if line is not None else ""
        stopped = f"{told} your file stopped{at} with {type(error).__name__}: {error}."
        if isinstance(error, ValueError) and "weights" in str(error):
            fail(f"{stopped} random.choices was given {ours.vocab_size} weights, the row of the "
                 "current token, and another number of ids to choose from: the ids to draw "
                 "from are those of this vocabulary, 0 to vocab_size - 1, whatever their "
                 "number.", fix=DRAW_FIX)
        fail(f"{stopped} Each of your four lines has to work for any names file: vocab_size and "
             "BOS follow the names.", fix=ALL_FIX)
    got, want = printed(theirs).splitlines(), printed(ours).splitlines()
    if got == want:
        return "Another names file gives its own table, losses and names, as train0 does."
    index = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b),
                 min(len(got), len(want)))
    mine = repr(got[index]) if index < len(got) else "nothing more"
    seen = f"{told} train0 prints {want[index]!r} as line {index + 1}, but your file printed {mine}."
    line = want[index] if index < len(want) else ""
    if SAMPLE.match(line) and SAMPLE.match(line).group(2) == "":
        fail(f"{seen} That name of train0 is empty: its very first draw, after BOS, was BOS. Your "
             "next_token did not give that BOS back: whatever the token before, the next one is "
             "one draw from its row, BOS included (a name can end before its first letter).",
             fix=DRAW_FIX)
    if SAMPLE.match(line):
        fail(f"{seen} Your table and losses agree with train0's on this file, but not the names. "
             "The next token is one draw among all vocab_size ids, weighted by the row of the "
             "current token.", fix=DRAW_FIX)
    if STEP.match(line):
        if theirs.counts != ours.counts:
            fail(f"{seen} Your counts differ from train0's on this file: each pair of each name "
                 "adds 1 to its cell, whatever the vocabulary.", fix=COUNT_FIX)
        if theirs.probs != ours.probs:
            fail(f"{seen} Your counts agree with train0's on this file, but not your probs: "
                 "each count is divided by the total of its own row.", fix=PROBS_FIX)
        fail(f"{seen} Your table agrees with train0's on this file, but not the loss: each "
             "pair's surprise is minus the log of its probability in probs, and the loss is "
             "their mean over the pairs block_size lets in.", fix=SURPRISE_FIX)
    fail(f"{seen} Each of your four lines has to work for any names file: vocab_size and BOS "
         "follow the names.", fix=ALL_FIX)
