"""Checks for lesson 2.2: the shape of `probs`, rows that add up to 1, each cell, and input.txt.

`counts` is given in this lesson, so the first checks compare `probs` with the learner's own
counts; the last one counts the pairs of input.txt independently and compares again. Classic
mistakes are told apart by what the rows and columns add up to: dividing by the whole table's
total makes the whole table add up to 1, normalising columns makes each column add up to 1,
`//` makes every number 0, dividing by the number of cells makes each row add up to its mean.
The last check runs the file again on a names file of our own, with another vocabulary (so
another vocab_size), and compares its probabilities with the solution's.
"""
from linebyline.runtime import check, fail, learner_line, listing, number, reference, rerun, shown

_cache = {}
PROBS_FIX = "`probs = [[c / sum(row) for c in row] for row in counts]`: each count over its row's total."
# A names file whose vocabulary is not 'a' to 'z': a hyphen, most letters missing.
OWN_NAMES = ("anne-marie\njean-luc\nmary-kate\nbo\nzoe\nlou\nida\nkai\nmia\neve\nnoor\n"
             "luca\n")


def _token(i, size):
    if i == size - 1:
        return "BOS"
    return repr(_cache["chars"][i]) if "chars" in _cache else f"token {i}"


def _numbers(table, size):
    """True when `table` is a list of `size` rows of `size` numbers."""
    if not isinstance(table, (list, tuple)) or len(table) != size:
        return False
    return all(isinstance(row, (list, tuple)) and len(row) == size
               and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
               for row in table)


def _close(x, y):
    return abs(x - y) <= 1e-9 * max(1.0, abs(y))


def _row(code, size):
    """The row the messages talk about: 'q' when there is one, else the first letter."""
    chars = code.chars
    _cache["chars"] = chars
    return chars.index('q') if 'q' in chars else 0


@check("probs has 27 rows of 27 numbers")
def _(code):
    probs, size = code.probs, code.vocab_size
    _cache["chars"] = code.chars
    if not isinstance(probs, (list, tuple)):
        fail(f"probs should be a list of rows, like counts, but it is {shown(probs)}.",
             fix=PROBS_FIX)
    if len(probs) == 0:
        fail(f"probs is still empty: it needs {size} rows (one per token that can come "
             f"first), each a list of {size} probabilities.", fix=PROBS_FIX)
    if len(probs) != size:
        fail(f"probs has {len(probs)} rows, but needs {size}, one for each row of counts.",
             fix=PROBS_FIX)
    for a, row in enumerate(probs):
        if not isinstance(row, (list, tuple)) or len(row) != size:
            fail(f"Row {a} of probs ({_token(a, size)}) should be a list of {size} numbers, "
                 f"one per row of counts, but it is {shown(row)}.", fix=PROBS_FIX)
        for b, x in enumerate(row):
            if isinstance(x, bool) or not isinstance(x, (int, float)):
                fail(f"probs[{a}][{b}] should be a number, but it is {shown(x)}.", fix=PROBS_FIX)


@check("every row adds up to 1")
def _(code):
    probs, counts, size = code.probs, code.counts, code.vocab_size
    a = _row(code, size)
    sums = [sum(row) for row in probs]
    if all(_close(total, 1) for total in sums):
        return
    name = _token(a, size)
    seen = f"Row {a} of probs ({name}) adds up to {number(sums[a])}, not 1."
    top = max(counts[a])
    if all(x == 0 for row in probs for x in row):
        fail(f"Every number in probs is 0. `//` divides and rounds down to a whole number, and "
             f"a count divided by its row's total is always less than 1, so it rounds down to "
             f"0. `/` keeps the fraction: {top} / {sum(counts[a])} = "
             f"{number(top / sum(counts[a]))}.", fix=PROBS_FIX)
    grand = sum(sum(row) for row in counts)
    if _close(sum(sums), 1):
        fail(f"{seen} The whole table adds up to 1 instead: each count was divided by "
             f"{grand:,}, the total of all {size * size} cells. A row answers one question, "
             f"\"what comes after {name}?\", so its counts are divided by their own row's total "
             f"({sum(counts[a]):,} for row {name}) and the row adds up to 1.", fix=PROBS_FIX)
    columns = [sum(probs[r][b] for r in range(size)) for b in range(size)]
    if all(_close(total, 1) for total in columns):
        fail(f"{seen} The columns add up to 1 instead: each count was divided by the total of "
             f"its column, which is how often the second token comes after anything. Divide by "
             f"the total of the row, everything that came after {name}: then row {name} adds "
             f"up to 1.", fix=PROBS_FIX)
    if all(_close(sums[r], sum(counts[r]) / size) for r in range(size)):
        fail(f"{seen} Each count was divided by {size}, the number of cells in a row, not by "
             f"the row's total, {sum(counts[a]):,} for row {name} (what the counts add up to).",
             fix=PROBS_FIX)
    if probs == counts or all(_close(sums[r], sum(counts[r])) for r in range(size)):
        fail(f"{seen} probs holds the counts themselves: divide each count by the total of its "
             f"row.", fix=PROBS_FIX)
    off = [r for r in range(size) if not _close(sums[r], 1)]
    fail(f"{seen} In all, {len(off)} of the {size} rows do not add up to 1 (rows "
         f"{listing(_token(r, size) for r in off[:5])}{' and more' if len(off) > 5 else ''}). "
         f"Divide each count by the total of its own row.", fix=PROBS_FIX)


@check("each probability is its count over its row's total")
def _(code):
    probs, counts, size = code.probs, code.counts, code.vocab_size
    wrong = [(a, b) for a in range(size) for b in range(size)
             if not _close(probs[a][b], counts[a][b] / sum(counts[a]))]
    if not wrong:
        return
    if all(_close(x, 1 / size) for row in probs for x in row):
        fail(f"Every probability is 1/{size} = {number(1 / size)}: the rows add up to 1, but "
             f"the counts were left out. Each probability is its count divided by the total of "
             f"its row.", fix=PROBS_FIX)
    parts = [f"probs[{a}][{b}] ({_token(a, size)} then {_token(b, size)}) is "
             f"{number(probs[a][b])} but should be {counts[a][b]} / {sum(counts[a])} = "
             f"{number(counts[a][b] / sum(counts[a]))}" for a, b in wrong[:2]]
    fail(f"{listing(parts)}. Each probability is the count divided by the total of its own "
         f"row.", fix=PROBS_FIX)


@check("the probabilities of input.txt")
def _(code):
    docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    chars = sorted(set(''.join(docs)))
    bos, size = len(chars), len(chars) + 1
    index = {ch: i for i, ch in enumerate(chars)}
    table = [[1] * size for _ in range(size)]
    for doc in docs:
        ids = [bos] + [index[ch] for ch in doc] + [bos]
        for first, second in zip(ids, ids[1:]):
            table[first][second] += 1
    wrong = [(a, b) for a in range(size) for b in range(size)
             if not _close(code.probs[a][b], table[a][b] / sum(table[a]))]
    if wrong:
        a, b = wrong[0]
        why = ("Was `counts` changed? It must stay the table of 2.1, and probs is made from it."
               if code.counts != table else
               "Each probability is its count divided by the total of its own row.")
        fail(f"Counting the pairs of input.txt independently, probs[{a}][{b}] should be "
             f"{table[a][b]} / {sum(table[a])} = {number(table[a][b] / sum(table[a]))}, but it "
             f"is {number(code.probs[a][b])} ({len(wrong)} cells are off). {why}", fix=PROBS_FIX)


@check("the probabilities of another names file")
def _(code):
    files = {"input.txt": OWN_NAMES}
    ours = rerun(reference(code), files)
    size = ours.vocab_size
    told = (f"With a names file of our own as input.txt ({', '.join(map(repr, OWN_NAMES.split()[:3]))}"
            f" and {len(OWN_NAMES.split()) - 3} more), the names use {size - 1} different "
            f"characters, so counts has {size} rows of {size}:")
    try:
        theirs = rerun(code, files)
    except Exception as error:  # noqa: BLE001 - every error of their file is told
        line = learner_line(error, code)
        at = f" on line {line}" if line is not None else ""
        fail(f"{told} your file stopped{at} with {type(error).__name__}: {error}. probs is made "
             f"from counts, whatever its size: one row of probabilities per row of counts.",
             fix=PROBS_FIX)
    got, want = theirs.probs, ours.probs
    if _numbers(got, size) and all(_close(x, y) for row, other in zip(got, want)
                                   for x, y in zip(row, other)):
        return f"Another names file gets probabilities of its own, {size} rows that add up to 1."
    if not _numbers(got, size):
        rows = len(got) if isinstance(got, (list, tuple)) else None
        fail(f"{told} probs needs {size} rows of {size} numbers too, but yours has {rows} rows. "
             f"probs is made from counts, whatever its size: one row of probabilities per row "
             f"of counts.", fix=PROBS_FIX)
    a, b = next((a, b) for a in range(size) for b in range(size)
                if not _close(got[a][b], want[a][b]))
    fail(f"{told} probs[{a}][{b}] should be {number(want[a][b])}, but yours is "
         f"{number(got[a][b])}. Each probability is its count divided by the total of its own "
         f"row, whatever the names.", fix=PROBS_FIX)
