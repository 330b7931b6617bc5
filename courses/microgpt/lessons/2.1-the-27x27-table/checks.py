"""Checks for lesson 2.1: the shape of `counts`, its rows, its orientation, BOS, every count.

The learner's file counts the pairs of input.txt at its top level, as train0.py does; the checks
read the same file themselves, count its pairs independently, and compare. When the table is
wrong in a way a classic mistake explains (rows and columns swapped, cells starting at 0, BOS
left out, only the last name counted, one row shared 27 times), the message says so and says
what to change; otherwise it names the first cells that are off. The last check runs the file
again on a names file of our own, with another vocabulary (so another vocab_size), and compares
its table with the solution's.
"""
import random

from linebyline.runtime import calling, check, fail, listing, number, reference, rerun, shown

_cache = {}
COUNTS_FIX = ("A new row of ones for every token: "
              "`counts = [[1] * vocab_size for _ in range(vocab_size)]`.")
PAIRS_FIX = ("Under `tokens = ...`, inside the loop over the names: "
             "`for a, b in zip(tokens, tokens[1:]):` and, inside it, `counts[a][b] += 1`.")
# A names file whose vocabulary is not 'a' to 'z': a hyphen, most letters missing.
OWN_NAMES = ("anne-marie\njean-luc\nmary-kate\nbo\nzoe\nlou\nida\nkai\nmia\neve\nnoor\n"
             "luca\n")


def _data():
    """The names, shuffled as the learner's file shuffles them, and their tokenizer."""
    if "docs" not in _cache:
        docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
        random.seed(42)
        random.shuffle(docs)
        chars = sorted(set(''.join(docs)))
        _cache["docs"], _cache["chars"] = docs, chars
    return _cache["docs"], _cache["chars"]


def _count(names, with_bos=True, start=1):
    """The table of counts for `names`, counted independently of the learner's code."""
    docs, chars = _data()
    index = {ch: i for i, ch in enumerate(chars)}
    bos = len(chars)
    size = bos + 1
    table = [[start] * size for _ in range(size)]
    for name in names:
        ids = [index[ch] for ch in name]
        if with_bos:
            ids = [bos] + ids + [bos]
        for first, second in zip(ids, ids[1:]):
            table[first][second] += 1
    return table


def _expected():
    if "expected" not in _cache:
        _cache["expected"] = _count(_data()[0])
    return _cache["expected"]


def _token(i):
    chars = _data()[1]
    return "BOS" if i == len(chars) else repr(chars[i])


def _cell(table, a, b, expected=None):
    """"counts[4][12] ('e' then 'm') is 611" with ", but should be 610" when asked."""
    text = f"counts[{a}][{b}] ({_token(a)} then {_token(b)}) is {shown(table[a][b])}"
    if expected is not None:
        text += f" but should be {number(expected[a][b])}"
    return text


def _table(code):
    """The learner's counts as a list of lists of numbers, or None if it is not one (yet)."""
    counts = code.counts
    if not isinstance(counts, (list, tuple)):
        return None
    for row in counts:
        if not isinstance(row, (list, tuple)):
            return None
        for cell in row:
            if isinstance(cell, bool) or not isinstance(cell, (int, float)):
                return None
    return counts


def _differences(table, expected):
    return [(a, b) for a in range(len(expected)) for b in range(len(expected))
            if table[a][b] != expected[a][b]]


def _swapped(expected):
    return [list(column) for column in zip(*expected)]


def _distance(table, other):
    return sum(abs(x - y) for row, other_row in zip(table, other) for x, y in zip(row, other_row))


@check("counts has 27 rows of 27 numbers")
def _(code):
    counts = code.counts
    size = len(_data()[1]) + 1
    if not isinstance(counts, (list, tuple)):
        fail(f"counts should be a list of rows, but it is {shown(counts)}.", fix=COUNTS_FIX)
    if len(counts) == 0:
        fail(f"counts is still empty: it has no rows, but needs {size} (vocab_size), one for "
             f"each token that can come first.", fix=COUNTS_FIX)
    if len(counts) != size:
        fail(f"counts has {len(counts)} rows, but needs {size} (vocab_size): one row for each "
             f"token that can come first, the {size - 1} letters and BOS.", fix=COUNTS_FIX)
    for a, row in enumerate(counts):
        if not isinstance(row, (list, tuple)):
            fail(f"Row {a} of counts ({_token(a)}) should be a list of {size} numbers, but it is "
                 f"{shown(row)}.", fix=COUNTS_FIX)
        if len(row) != size:
            fail(f"Row {a} of counts ({_token(a)}) has {len(row)} numbers, but needs {size}: "
                 f"one for each token that can follow.", fix=COUNTS_FIX)
        for b, cell in enumerate(row):
            if isinstance(cell, bool) or not isinstance(cell, (int, float)):
                fail(f"counts[{a}][{b}] should be a number, but it is {shown(cell)}.")


@check("each row is a list of its own")
def _(code):
    counts = code.counts
    distinct = len({id(row) for row in counts})
    if distinct == 1:
        fail(f"All {len(counts)} rows of counts are one and the same list, so adding 1 to "
             f"one cell adds 1 to that column of every row at once. Multiplying a list of one "
             f"row repeats that row, it does not copy it: each token needs a row of its own, "
             f"built anew, for example by a list comprehension that makes one row per token.",
             fix=COUNTS_FIX)
    if distinct < len(counts):
        fail(f"Some rows of counts are the same list, used twice: counts has {len(counts)} "
             f"rows but only {distinct} different lists, so adding 1 to one of them adds it "
             f"to the others too. Build every row as a new list.", fix=COUNTS_FIX)


@check("the pairs are added up")
def _(code):
    table = _table(code)
    if len({cell for line in table for cell in line}) == 1:
        fail(f"Nothing was counted: every cell of counts is still {number(table[0][0])}. For "
             f"each name, walk through the neighbouring pairs of `tokens` and add 1 to the cell "
             f"in the row of the first token of the pair and the column of the one after it.",
             fix=PAIRS_FIX)


@check("row = first token, column = the token after it")
def _(code):
    table, expected = _table(code), _expected()
    swapped = _swapped(expected)
    if 4 * _distance(table, swapped) < _distance(table, expected):
        size = len(expected)
        a, b = max(((a, b) for a in range(size - 1) for b in range(size - 1)),
                   key=lambda pair: expected[pair[0]][pair[1]] - expected[pair[1]][pair[0]])
        fail(f"{_cell(table, a, b, expected)}, and {_cell(table, b, a, expected)}: rows and "
             f"columns are swapped. {_token(b)} follows {_token(a)} often in the names, so the "
             f"big number belongs in row {a} ({_token(a)}, the token that comes first), column "
             f"{b} ({_token(b)}, the one after it). The first token of the pair picks the row.",
             fix=PAIRS_FIX)


@check("BOS starts and ends every name")
def _(code):
    table, expected = _table(code), _expected()
    bos = len(expected) - 1
    row = [table[bos][b] for b in range(bos)]
    column = [table[a][bos] for a in range(bos)]
    if len(set(row)) == 1 and len(set(column)) == 1:
        first = max(range(bos), key=lambda b: expected[bos][b])
        last = max(range(bos), key=lambda a: expected[a][bos])
        fail(f"Nothing was counted in the BOS row or the BOS column: "
             f"{_cell(table, bos, first, expected)} (names that start with {_token(first)}), and "
             f"{_cell(table, last, bos, expected)} (names that end with {_token(last)}). Count "
             f"the pairs of `tokens`, which has BOS at both ends, not the letters of the name "
             f"alone: that is how the table learns how names start and how they end.",
             fix=PAIRS_FIX)


@check("every pair of every name is counted, from 1")
def _(code):
    table, expected = _table(code), _expected()
    wrong = _differences(table, expected)
    if not wrong:
        return
    docs = _data()[0]
    size = len(expected)
    if all(table[a][b] == expected[a][b] - 1 for a in range(size) for b in range(size)):
        never = [(a, b) for a in range(size) for b in range(size) if expected[a][b] == 1]
        a, b = never[0]
        fail(f"Every number in counts is 1 lower than it should be; for example "
             f"{_cell(table, a, b, expected)}. Start every cell at 1, not 0. "
             f"{len(never)} pairs never occur in the names, and starting at 0 the model would call "
             f"them impossible: it could never produce them, and a name that has one would "
             f"get probability 0.", fix=COUNTS_FIX)
    if table == _count(docs[-1:]):
        fail(f"Only the pairs of one name were counted: the last one, {docs[-1]!r} "
             f"({sum(map(sum, table)) - size * size} pairs added to the 1s), instead of the "
             f"{sum(len(doc) + 1 for doc in docs):,} pairs of all {len(docs):,} names. The loop over "
             f"the pairs must run inside `for doc in docs:`, once per name: indent it under "
             f"the line that makes `tokens`.", fix=PAIRS_FIX)
    shown_cells = [_cell(table, a, b, expected) for a, b in wrong[:3]]
    more = f" ({len(wrong)} cells are off in all)" if len(wrong) > 3 else ""
    fail(f"Counting the pairs of input.txt independently gives a different table: "
         f"{listing(shown_cells)}{more}. Every cell starts at 1, and each name adds 1 to the "
         f"cell of each of its pairs: BOS and its first letter, each letter and the next, "
         f"its last letter and BOS.")


@check("the table of another names file")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    ours = rerun(reference(code), files)
    got, want = theirs.counts, ours.counts
    if got == want:
        return f"Another names file gets a table of its own, {len(want)} × {len(want)}."
    size = len(want)
    told = (f"With a names file of our own as input.txt ({', '.join(map(repr, OWN_NAMES.split()[:3]))}"
            f" and {len(OWN_NAMES.split()) - 3} more), the names use {size - 1} different "
            f"characters, so vocab_size is {size}:")
    rows = len(got) if isinstance(got, (list, tuple)) else None
    if rows != size or any(not isinstance(row, (list, tuple)) or len(row) != size for row in got):
        width = len(got[0]) if rows and isinstance(got[0], (list, tuple)) else "?"
        fail(f"{told} counts needs {size} rows of {size} numbers, but yours has {rows} rows of "
             f"{width}. The table's size follows the names file: one row and one column per "
             f"token of its vocabulary, vocab_size of each.", fix=COUNTS_FIX)
    wrong = [(a, b) for a in range(size) for b in range(size) if got[a][b] != want[a][b]]
    a, b = wrong[0]
    fail(f"{told} counts[{a}][{b}] should be {want[a][b]}, but yours is {got[a][b]} "
         f"({len(wrong)} cells are off). Every cell starts at 1, and each name adds 1 to the "
         f"cell of each of its pairs, whatever the names.", fix=PAIRS_FIX)
