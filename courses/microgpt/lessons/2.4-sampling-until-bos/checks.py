"""Checks for lesson 2.4: twenty names printed, each ending at BOS, drawn row by row, as train0.

The sampling loop runs at the top level of the file, as in train0.py, so the checks read the
20 printed `sample k: name` lines. Because the file seeds `random` with 42 and shuffles the
names before sampling, the draws are reproducible: the checks replay train0's sampling
independently (reading input.txt, shuffling with the same seed, counting the pairs) and also
replay the classic wrong versions, to say which one a wrong set of names came from. The last
check runs the file again on a names file of our own, with other characters than 'a' to 'z' (so
another vocab_size and another BOS), and compares its names with the solution's.
"""
import math
import random
import re

from linebyline.runtime import check, fail, learner_line, listing, number, printed, reference, rerun

SAMPLE = re.compile(r"^sample\s+(\d+): (.*)$", re.MULTILINE)
_cache = {}
DRAW_FIX = "`token = random.choices(range(vocab_size), weights=probs[token])[0]`."
STOP_FIX = "Right after the draw: `if token == BOS:` and, under it, `break`."
START_FIX = "Before the loop over positions: `token, name = BOS, []`."
APPEND_FIX = "After the stop: `name.append(chars[token])`."
LOOP_FIX = ("The draw, `token = random.choices(range(vocab_size), weights=probs[token])[0]`, then "
            "the stop, `if token == BOS:` with `break` under it.")
# A names file whose vocabulary is not 'a' to 'z': other letters, a hyphen, so another BOS.
OWN_NAMES = ("anne-marie\njean-luc\nmary-kate\nbo\nzoe\nlou\nida\nkai\nmia\neve\nnoor\n"
             "luca\n")


# Two letters: row BOS gives BOS 1 chance in 6 (its count of 1 over 6), so train0 draws BOS
# first now and then: with random.seed(42), sample 11 is an empty name.
TWO_LETTERS = "ab\nba\nab\n"


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
    return [name for name, _ in _draws(block_size, how)]


def _draws(block_size, how="right", start=None):
    """Each of the 20 names with the tokens drawn for it (BOS included), drawn as `how` says,
    each name from the token `start` (BOS if None)."""
    model = _model()
    chars, bos, probs = model["chars"], model["bos"], model["probs"]
    size = bos + 1
    random.seed(42)
    random.shuffle(list(model["docs"]))
    names = []
    for _ in range(20):
        token, name, drawn = bos if start is None else start, [], []
        for _ in range(block_size):
            if how == "greedy":
                token = probs[token].index(max(probs[token]))
            elif how == "uniform":
                token = random.choices(range(size))[0]
            elif how == "start row":
                token = random.choices(range(size), weights=probs[bos])[0]
            else:
                token = random.choices(range(size), weights=probs[token])[0]
            drawn.append(token)
            if token == bos:
                if how == "continue":
                    continue
                break
            name.append(chars[token])
        names.append((''.join(name), drawn))
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


def _went_on(block_size):
    """What `continue` instead of `break` did to the first name that drew BOS on the way."""
    right, went_on = _draws(block_size), _draws(block_size, "continue")
    bos = _model()["bos"]
    index = next(i for i, (name, drawn) in enumerate(went_on) if bos in drawn)
    name, drawn = went_on[index]
    stop = drawn.index(bos) + 1
    skipped = drawn.count(bos)
    return (f"Sample {index + 1} is {name!r}, {len(name)} letters, but train0 ends it at "
            f"{right[index][0]!r}: draw {stop} of that name was BOS, and your loop went on "
            f"drawing instead of ending the name there. It made all {len(drawn)} draws "
            f"(block_size = {block_size}) and left out the {skipped} BOS among them, so every "
            f"name runs to the end of the loop. BOS means the name is finished: no draw comes "
            f"after it.")


@check("20 names are printed")
def _(code):
    names = _printed(code)
    if len(names) != 20:
        fail(f"The file should print 20 lines `sample  1: ...` to `sample 20: ...`, but "
             f"{len(names)} were printed. Keep the print line at the end of the `for sample` "
             f"loop.")
    if all(name == "" for name in names):
        fail("All 20 names are empty: nothing was added to `name`. After each draw that is "
             "not BOS, the letter of the token drawn joins the name.", fix=APPEND_FIX)
    letters = set(_model()["chars"])
    odd = [name for name in names if set(name) - letters]
    if odd:
        fail(f"Sample {names.index(odd[0]) + 1} is {odd[0]!r}, which is not made of the letters "
             f"of the names: the name must get the letter of each token drawn, the character "
             f"whose id it is, not the id itself.", fix=APPEND_FIX)


@check("a name ends at the first BOS")
def _(code):
    names, block_size = _printed(code), code.block_size
    too_long = [name for name in names if len(name) > block_size]
    if too_long:
        fail(f"{too_long[0]!r} has {len(too_long[0])} letters, more than block_size = "
             f"{block_size}: the loop over positions must stop after block_size draws.")
    if names == _names(block_size, "continue"):
        fail(_went_on(block_size), fix=STOP_FIX)
    _bos_first(code)


def _bos_first(code):
    """On a names file of two letters, row BOS gives BOS 1 chance in 5, so train0 prints an
    empty name now and then: the very first draw was BOS. A loop that treats that draw apart
    prints something else there."""
    files = {"input.txt": TWO_LETTERS}
    ours = rerun(reference(code), files)
    want = _printed(ours)
    try:
        got = _printed(rerun(code, files))
    except Exception:  # noqa: BLE001 - the check on another vocabulary tells its errors
        return
    index = _first_difference(got, want)
    if index is None or want[index] != "":
        return
    fail(f"With a names file of our own as input.txt ({', '.join(map(repr, TWO_LETTERS.split()))}"
         f": two letters, so row BOS gives BOS 1 chance in {_odds(ours)}), train0 prints sample "
         f"{index + 1} "
         f"as '', an empty name: its very first draw was BOS. Your file printed "
         f"{got[index]!r} there (the {index} names before it agree): your loop did not end the "
         "name at that BOS. A BOS drawn first ends the name before it has a letter, as at any "
         "other position; the bundled names almost never show it (row BOS gives BOS 1 chance "
         f"in {_odds(reference(code))}).", fix=STOP_FIX)


def _odds(space):
    """Row BOS's chance of BOS, as "1 chance in N"'s N."""
    return f"{round(1 / space.probs[space.BOS][space.BOS]):,}"


@check("each draw uses the row of the token before")
def _(code):
    names, block_size = _printed(code), code.block_size
    if names == _names(block_size, "greedy"):
        fail(f"All 20 names are {names[0]!r}. Your code takes the likeliest token every time, "
             f"so the same row always gives the same token: BOS is followed by "
             f"{names[0][:1]!r} and then by BOS. The draw must be at random, weighted by the "
             f"row: likely tokens come often, unlikely ones sometimes.", fix=DRAW_FIX)
    if names == _names(block_size, "start row"):
        fail(f"The names ({listing(repr(name) for name in names[:3])}, ...) are letters drawn "
             f"from row BOS every time, so each letter is a likely first letter and ignores "
             f"the letter before it, and as row BOS almost never draws BOS, every name runs to "
             f"{block_size} letters. Each draw must use the row of the token drawn just before "
             f"it, and the draw must be stored back in `token` so that the next draw uses its "
             f"row.", fix=DRAW_FIX)
    if names == _names(block_size, "uniform"):
        fail(f"The names ({listing(repr(name) for name in names[:3])}, ...) are random letters: "
             f"every token was equally likely. The row's probabilities must go to "
             f"random.choices as its weights, so that likely pairs come often.", fix=DRAW_FIX)
    surprise = _mean_surprise(names, block_size)
    size = _model()["bos"] + 1
    if surprise > math.log(size):
        fail(f"The names ({listing(repr(name) for name in names[:3])}, ...) surprise the table "
             f"by {number(surprise)} per token on average, more than log({size}) = "
             f"{number(math.log(size))}, the surprise of a table that gives every token the same "
             "chance: names drawn from the table's own rows surprise it less than that. The "
             "draws ignore the probabilities of the current token's row.", fix=DRAW_FIX)


@check("the same 20 names as train0")
def _(code):
    names, block_size = _printed(code), code.block_size
    want = _names(block_size)
    index = _first_difference(names, want)
    if index is not None:
        _started_elsewhere(names, want, block_size)
        agree = f" (the {index} before it agree)" if index else ""
        fail(f"With random.seed(42), train0 samples {want[index]!r} as sample {index + 1}, but "
             f"your file printed {names[index]!r}{agree}. Each letter must be one weighted "
             f"draw of random.choices over every id, with the current token's row as the "
             f"weights; then the same seed gives the same names.", fix=DRAW_FIX)


def _started_elsewhere(names, want, block_size):
    """Fail when the names are train0's draws with each name started from a letter's row."""
    bos = _model()["bos"]
    for start in range(bos):
        if names == [name for name, _ in _draws(block_size, start=start)]:
            index = _first_difference(names, want)
            fail(f"With random.seed(42), train0 samples {want[index]!r} as sample {index + 1}, "
                 f"but your file printed {names[index]!r}. Your 20 names are exactly what "
                 f"train0 draws when each name starts from the token {start}, "
                 f"{_model()['chars'][start]!r}, instead of BOS: the first letter was drawn "
                 f"from row {_model()['chars'][start]!r}, the letters that follow "
                 f"{_model()['chars'][start]!r}, where it must come from row BOS, the letters "
                 "that start a name.", fix=START_FIX)


@check("the names of another vocabulary")
def _(code):
    files = {"input.txt": OWN_NAMES}
    ours = rerun(reference(code), files)
    told = (f"With a names file of our own as input.txt ({', '.join(map(repr, OWN_NAMES.split()[:3]))}"
            f" and {len(OWN_NAMES.split()) - 3} more, {len(ours.chars)} different characters, so "
            f"BOS = {ours.BOS} and vocab_size = {ours.vocab_size} instead of {code.BOS} and "
            f"{code.vocab_size}),")
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
        if isinstance(error, IndexError):
            fail(f"{stopped} A token drawn had no letter in chars, as BOS ({ours.BOS} here) has "
                 "none: the name must end when the token drawn is BOS, whatever its value.",
                 fix=STOP_FIX)
        fail(f"{stopped} Every line of the sampling loop has to work for any vocabulary: draw "
             "among the ids 0 to vocab_size - 1, stop when the token is BOS, whatever their "
             "values.", fix=LOOP_FIX)
    got, want = _printed(theirs), _printed(ours)
    if got == want:
        return "Another names file gives its own names, drawn from its own table."
    index = _first_difference(got, want)
    index = min(len(got), len(want)) if index is None else index
    mine = repr(got[index]) if index < len(got) else "no name"
    fail(f"{told} sample {index + 1} should be {want[index]!r}, but your file printed {mine}. "
         f"Every line of the sampling loop has to work for any vocabulary: draw among the ids 0 "
         f"to vocab_size - 1, stop when the token is BOS, whatever their values.", fix=LOOP_FIX)
