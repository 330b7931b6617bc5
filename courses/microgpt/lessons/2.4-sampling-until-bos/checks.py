"""Checks for lesson 2.4: twenty names printed, each ending at BOS, drawn row by row, as train0.

The sampling loop runs at the top level of the file, as in train0.py, so the checks read the
20 printed `sample k: name` lines. Because the file seeds `random` with 42 and shuffles the
names before sampling, the draws are reproducible: the checks replay train0's sampling
independently (reading input.txt, shuffling with the same seed, counting the pairs) and also
replay the classic wrong versions, to say which one a wrong set of names came from.
"""
import math
import random
import re

from linebyline.runtime import check, fail, listing, number, printed

SAMPLE = re.compile(r"^sample\s+(\d+): (.*)$", re.MULTILINE)
_cache = {}


def _model():
    if "probs" not in _cache:
        docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
        chars = sorted(set(''.join(docs)))
        bos = len(chars)
        counts = [[1] * (bos + 1) for _ in range(bos + 1)]
        index = {ch: i for i, ch in enumerate(chars)}
        for doc in docs:
            ids = [bos] + [index[ch] for ch in doc] + [bos]
            for first, second in zip(ids, ids[1:]):
                counts[first][second] += 1
        _cache.update(docs=docs, chars=chars, bos=bos,
                      probs=[[c / sum(row) for c in row] for row in counts])
    return _cache


def _names(block_size, how="right"):
    """The 20 names train0 prints after seeding and shuffling, drawn the way `how` says."""
    model = _model()
    chars, bos, probs = model["chars"], model["bos"], model["probs"]
    size = bos + 1
    random.seed(42)
    random.shuffle(list(model["docs"]))
    names = []
    for _ in range(20):
        token, name = bos, []
        for _ in range(block_size):
            if how == "greedy":
                token = probs[token].index(max(probs[token]))
            elif how == "uniform":
                token = random.choices(range(size))[0]
            elif how == "start row":
                token = random.choices(range(size), weights=probs[bos])[0]
            else:
                token = random.choices(range(size), weights=probs[token])[0]
            if token == bos:
                if how == "continue":
                    continue
                break
            name.append(chars[token])
        names.append(''.join(name))
    return names


def _mean_surprise(names, block_size):
    """The table's mean surprise per token over the printed names (BOS at the end if it came)."""
    model = _model()
    chars, bos, probs = model["chars"], model["bos"], model["probs"]
    total, count = 0.0, 0
    for name in names:
        ids = [bos] + [chars.index(ch) for ch in name] + ([bos] if len(name) < block_size else [])
        for first, second in zip(ids, ids[1:]):
            total -= math.log(probs[first][second])
            count += 1
    return total / count


def _printed(code):
    return [name for _, name in SAMPLE.findall(printed(code))]


def _first_difference(got, want):
    for index, (mine, theirs) in enumerate(zip(got, want)):
        if mine != theirs:
            return index
    return None


@check("20 names are printed")
def _(code):
    names = _printed(code)
    if len(names) != 20:
        fail(f"The file should print 20 lines `sample  1: ...` to `sample 20: ...`, but "
             f"{len(names)} were printed. Keep the print line at the end of the `for sample` "
             f"loop.")
    if all(name == "" for name in names):
        fail("All 20 names are empty: nothing was added to `name`. After each draw that is "
             "not BOS, append the letter of the token drawn, chars[token].")
    letters = set(_model()["chars"])
    odd = [name for name in names if set(name) - letters]
    if odd:
        fail(f"Sample {names.index(odd[0]) + 1} is {odd[0]!r}, which is not made of the letters "
             f"of the names. Append chars[token], the letter of the token, not the token id.")


@check("a name ends at the first BOS")
def _(code):
    names, block_size = _printed(code), code.block_size
    too_long = [name for name in names if len(name) > block_size]
    if too_long:
        fail(f"{too_long[0]!r} has {len(too_long[0])} letters, more than block_size = "
             f"{block_size}: the loop over positions must stop after block_size draws.")
    if names == _names(block_size, "continue"):
        fail(f"Every name is {block_size} letters long (sample 1 is {names[0]!r}). When the "
             f"token drawn is BOS, the loop goes on instead of stopping: `continue` skips to "
             f"the next draw. BOS means the name is finished, so leave the loop with `break`.")


@check("each draw uses the row of the token before")
def _(code):
    names, block_size = _printed(code), code.block_size
    if names == _names(block_size, "greedy"):
        fail(f"All 20 names are {names[0]!r}. Your code takes the likeliest token every time, "
             f"so the same row always gives the same token: BOS is followed by "
             f"{names[0][:1]!r} and then by BOS. Draw at random with random.choices, weighted "
             f"by the row: likely tokens come often, unlikely ones sometimes.")
    if names == _names(block_size, "start row"):
        fail(f"The names ({listing(repr(name) for name in names[:3])}, ...) are letters drawn "
             f"from row BOS every time, so each letter is a likely first letter and ignores "
             f"the letter before it, and as row BOS almost never draws BOS, every name runs to "
             f"{block_size} letters. Draw from probs[token], the row of the token drawn just "
             f"before, and store the draw back in `token` so the next draw uses its row.")
    if names == _names(block_size, "uniform"):
        fail(f"The names ({listing(repr(name) for name in names[:3])}, ...) are random letters: "
             f"every token was equally likely. Pass the row's probabilities to random.choices "
             f"as its weights, `weights=probs[token]`, so that likely pairs come often.")
    surprise = _mean_surprise(names, block_size)
    size = _model()["bos"] + 1
    if surprise > math.log(size):
        fail(f"The names ({listing(repr(name) for name in names[:3])}, ...) surprise the table "
             f"more than random letters would: {number(surprise)} per token on average, above "
             f"log({size}) = {number(math.log(size))}. The draws ignore the probabilities: use "
             f"random.choices(range(vocab_size), weights=probs[token]).")


@check("the same 20 names as train0")
def _(code):
    names, block_size = _printed(code), code.block_size
    want = _names(block_size)
    index = _first_difference(names, want)
    if index is not None:
        agree = f" (the {index} before it agree)" if index else ""
        fail(f"With random.seed(42), train0 samples {want[index]!r} as sample {index + 1}, but "
             f"your file printed {names[index]!r}{agree}. Each "
             f"letter must be one call of random.choices over range(vocab_size), weighted by "
             f"probs[token]; then the same seed gives the same names.")
