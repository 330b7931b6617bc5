"""Checks for lesson 5.1: matrix() draws rows × cols numbers from random.gauss(0, std), row by
row, and `weights` holds wte, mlp_fc1 and mlp_fc2 with their shapes, drawn in that order.

The numbers are compared with what Python's own random.gauss gives after the same seed, so any
way of writing matrix() that draws the same numbers in the same order passes (a comprehension, two
loops, appending); matrix() is called twice first, so a list of rows kept between calls shows.
The fourth check repeats train1.py's start on its own (seed 42, the shuffle, then every draw)
and finds every one of the learner's numbers where it belongs; the fifth runs the file again on
a names file of four letters, where a shape written as 27 instead of vocab_size shows; the
sixth runs it again with n_embd = 8 (every literal 16 of the file read as 8), where a hidden width
written as 64 instead of 4 * n_embd shows; the last compares
matrix() with ours on other shapes and spreads, after the same seed.
"""
import copy
import random

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    fail,
    number,
    reference,
    rerun,
    shown,
)

SEED = 1234  # the checks' own seed for small examples
FIX_MATRIX = ("The line: "
              "`return [[random.gauss(0, std) for _ in range(cols)] for _ in range(rows)]`.")
FIX_WEIGHTS = ("`weights = {'wte': matrix(vocab_size, n_embd), 'mlp_fc1': matrix(4 * n_embd, "
               "n_embd), 'mlp_fc2': matrix(vocab_size, 4 * n_embd)}`")


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _shape(m):
    """(rows, cols) of a list of equal-length lists of numbers, else None."""
    if not isinstance(m, (list, tuple)) or not m:
        return None
    if not all(isinstance(row, (list, tuple)) for row in m):
        return None
    widths = {len(row) for row in m}
    if len(widths) != 1 or not all(_is_number(v) for row in m for v in row):
        return None
    return len(m), widths.pop()


def _draws(seed, rows, cols, std, by_column=False):
    """What random.gauss(0, std) gives after random.seed(seed), filled row by row (or not)."""
    random.seed(seed)
    table = [[0.0] * cols for _ in range(rows)]
    cells = [(c, r) for c in range(cols) for r in range(rows)] if by_column else \
        [(c, r) for r in range(rows) for c in range(cols)]
    for c, r in cells:
        table[r][c] = random.gauss(0, std)
    return table


def _same(got, want):
    return _shape(got) == _shape(want) and all(
        g == w for g_row, w_row in zip(got, want) for g, w in zip(g_row, w_row))


def _row(values):
    return "[" + ", ".join(number(v) for v in values) + "]"


def _twice(code):
    """matrix(3, 5) called twice: the first answer, or fail if the second has other rows."""
    with calling("matrix(3, 5)"):
        m = code.matrix(3, 5)
    first = len(m) if isinstance(m, (list, tuple)) else None
    with calling("matrix(3, 5), a second time"):
        again = code.matrix(3, 5)
    second = len(again) if isinstance(again, (list, tuple)) else None
    if first is not None and (again is m or first != second):
        grew = f"{first} rows the first time and {second} the second" if first != second else (
            "the very same list both times")
        kept = (": the second call kept every row of the calls before it and added 3"
                if second == first + 3 else "")
        fail(f"Called twice, `matrix(3, 5)` returned {grew}{kept}. Something of your matrix() "
             "lives on from one call to the next, so wte, mlp_fc1 and mlp_fc2 cannot each be "
             "a matrix of their own. Every call must build a new list of rows.", fix=FIX_MATRIX)
    return m


@check("matrix(rows, cols) has rows lists of cols numbers")
def _(code):
    m = _twice(code)
    if m is None:
        fail("`matrix(3, 5)` returned None. Does the function end with `return`?")
    if isinstance(m, (list, tuple)) and not m:
        fail("`matrix(3, 5)` returned an empty list, but a matrix of 3 rows and 5 columns is "
             "a list of 3 rows, each a list of 5 numbers. Replace `return []` with your line.")
    if not isinstance(m, (list, tuple)):
        fail(f"`matrix(3, 5)` returned {shown(m)}, but a matrix is a list of rows: 3 lists, "
             "each holding 5 numbers.")
    if all(_is_number(v) for v in m):
        fail(f"`matrix(3, 5)` returned one flat list of {len(m)} numbers, but a matrix is a list "
             "of rows: 3 lists of 5 numbers. Put one list comprehension (a row) inside another "
             "(the list of rows).")
    if not all(isinstance(row, (list, tuple)) for row in m):
        fail(f"`matrix(3, 5)` returned {shown(m)}: every item of a matrix must be a row, a list "
             "of numbers.")
    shape = _shape(m)
    if shape is None:
        fail(f"`matrix(3, 5)` returned rows of lengths {[len(row) for row in m]} holding "
             f"{shown(m[0])}, ...: every row must hold 5 numbers.")
    if shape == (5, 3):
        fail("`matrix(3, 5)` returned 5 rows of 3 numbers, but should return 3 rows of 5 "
             "numbers: rows and columns are swapped. The inner brackets make one row, so their "
             "loop runs cols times; the outer loop makes the rows, so it runs rows times.",
             fix=FIX_MATRIX)
    if shape != (3, 5):
        fail(f"`matrix(3, 5)` returned {shape[0]} rows of {shape[1]} numbers, but should "
             "return 3 rows of 5 numbers: `rows` lists, each holding `cols` numbers.")


@check("the numbers are random.gauss(0, std), drawn row by row")
def _(code):
    call = f"random.seed({SEED}); matrix(3, 5)"
    with calling(call):
        random.seed(SEED)
        m = code.matrix(3, 5)
    want = _draws(SEED, 3, 5, 0.08)
    if _same(m, want):
        with calling(f"random.seed({SEED}); matrix(2, 3, std=0.5)"):
            random.seed(SEED)
            wide = code.matrix(2, 3, std=0.5)
        if _same(wide, _draws(SEED, 2, 3, 0.5)):
            return
        fail(f"With std=0.5, `matrix(2, 3, std=0.5)` after random.seed({SEED}) gave row 0 "
             f"{_row(wide[0])}, but random.gauss(0, 0.5) gives {_row(_draws(SEED, 2, 3, 0.5)[0])}. "
             "Your matrix() ignores its `std` argument: the spread of its numbers stays 0.08 "
             "whatever std it is given.", fix="Pass `std` to random.gauss: `random.gauss(0, std)`.")
    seen = f"After `random.seed({SEED})`, `matrix(3, 5)` gave row 0 {_row(m[0])}"
    if any(m[i] is m[j] for i in range(3) for j in range(i)) or _same(m, [want[0]] * 3):
        fail(f"{seen} and the very same numbers in rows 1 and 2: every row is one and the same "
             "list. Repeating a list with `* rows` copies the reference to one row instead of "
             "drawing a new one, so every token would get the same numbers.", fix=FIX_MATRIX)
    if _same(m, _draws(SEED, 3, 5, 0.08, by_column=True)):
        fail(f"{seen}: these are the right draws, but filled column by column. Position [0][1] "
             f"should hold the 2nd draw ({number(want[0][1])}), but holds the 4th. The seed "
             "fixes the order of the draws, not where you put them: fill row 0 first, then "
             "row 1.", fix=FIX_MATRIX)
    if _same(m, _draws(SEED, 3, 5, 1.0)):
        fail(f"{seen}, but random.gauss(0, 0.08) gives {_row(want[0])}: your numbers are "
             "12.5 times too big. They were drawn with a spread (std) of 1: the second "
             "argument of random.gauss is the spread, which must be `std`, 0.08 unless given.",
             fix="Pass `std` to random.gauss: `random.gauss(0, std)`.")
    if all(v == 0.08 for row in m for v in row):
        fail(f"{seen}: every number is 0.08. random.gauss(mu, sigma) takes the centre first "
             "and the spread second, so a centre of std and a spread of 0 always return std.",
             fix="Centre 0, spread std: `random.gauss(0, std)`.")
    if all(v == m[0][0] for row in m for v in row):
        fail(f"{seen}: every number is the same. Each number must be a fresh draw: call "
             "random.gauss(0, std) once per number.")
    fail(f"{seen}, but drawing random.gauss(0, 0.08) 15 times after the same seed gives "
         f"{_row(want[0])} for row 0. Every number must be random.gauss(0, std), drawn one "
         "after another, row 0 first.", fix=FIX_MATRIX)


VOCAB_SHAPES = ("wte", "mlp_fc1", "mlp_fc2")


_docs = []  # input.txt's names, read once for all the checks


def _names():
    if not _docs:
        _docs.extend(line.strip() for line in open('input.txt', encoding='utf-8') if line.strip())
    return list(_docs)


def _vocab_size():
    return len(set(''.join(_names()))) + 1


def _wanted_shapes(vocab_size, n_embd=16):
    return {"wte": (vocab_size, n_embd), "mlp_fc1": (4 * n_embd, n_embd),
            "mlp_fc2": (vocab_size, 4 * n_embd)}


WHY = {"wte": "one row per token, n_embd numbers each",
       "mlp_fc1": "4 * n_embd rows of n_embd numbers",
       "mlp_fc2": "one row per token, 4 * n_embd numbers each"}


@check("weights holds wte, mlp_fc1 and mlp_fc2 with their shapes")
def _(code):
    weights = code.weights
    if not isinstance(weights, dict):
        fail(f"`weights` is {shown(weights)}, but should be a dict from names to matrices: "
             "{'wte': ..., 'mlp_fc1': ..., 'mlp_fc2': ...}.")
    missing = [name for name in VOCAB_SHAPES if name not in weights]
    extra = [name for name in weights if name not in VOCAB_SHAPES]
    if missing:
        fail(f"`weights` has the keys {shown(list(weights))}, but needs 'wte', 'mlp_fc1' and "
             f"'mlp_fc2'; missing: {shown(missing)}. Later lessons look the matrices up by "
             "these exact names.")
    if extra:
        fail(f"`weights` has extra keys {shown(extra)}. train1.py's model has exactly three "
             "matrices: 'wte', 'mlp_fc1' and 'mlp_fc2'.")
    vocab_size = _vocab_size()
    for name, (rows, cols) in _wanted_shapes(vocab_size).items():
        shape = _shape(weights[name])
        if shape is None:
            fail(f"weights['{name}'] is {shown(weights[name])}, but should be a matrix: "
                 f"{rows} rows of {cols} numbers, made with matrix().")
        if shape == (cols, rows) and rows != cols:
            fail(f"weights['{name}'] has {shape[0]} rows of {shape[1]} numbers, but should have "
                 f"{rows} rows of {cols} numbers ({WHY[name]}): rows and columns are swapped. "
                 "matrix(rows, cols) takes the number of rows first.", fix=FIX_WEIGHTS)
        if shape != (rows, cols):
            fail(f"weights['{name}'] has {shape[0]} rows of {shape[1]} numbers, but should have "
                 f"{rows} rows of {cols} numbers ({WHY[name]}).", fix=FIX_WEIGHTS)


def _stream(vocab_size):
    """train1.py's start, redone here: seed 42, the shuffle, then every draw in order."""
    docs = _names()
    random.seed(42)
    random.shuffle(docs)
    count = sum(rows * cols for rows, cols in _wanted_shapes(vocab_size).values())
    return [random.gauss(0, 0.08) for _ in range(count)]


@check("all the numbers follow from random.seed(42)")
def _(code):
    vocab_size = _vocab_size()
    stream = _stream(vocab_size)
    weights = code.weights
    flat = {name: [v for row in weights[name] for v in row] for name in VOCAB_SHAPES}
    start = 0
    wrong = None
    for name in VOCAB_SHAPES:
        if flat[name] != stream[start:start + len(flat[name])]:
            wrong = (name, start)
            break
        start += len(flat[name])
    if wrong is None:
        return (f"All {len(stream)} numbers are the draws random.gauss(0, 0.08) makes after "
                "random.seed(42) and the shuffle, in order.")
    name, start = wrong
    # Where does each matrix sit in the stream of draws?
    where = {}
    for other in VOCAB_SHAPES:
        values = flat[other]
        for offset in range(len(stream) - len(values) + 1):
            if stream[offset] == values[0] and stream[offset:offset + len(values)] == values:
                where[other] = offset
                break
    if len(where) == 3:
        order = sorted(VOCAB_SHAPES, key=where.get)
        fail(f"weights['{name}'] should be draws {start + 1} to {start + len(flat[name])} after "
             f"the shuffle, but it is draws {where[name] + 1} to {where[name] + len(flat[name])}"
             f": the matrices were drawn in the order {', '.join(order)}. Each matrix takes the "
             "next numbers from the one stream the seed fixes, and Python builds a dict from "
             "left to right, so the first key written is the first matrix drawn.",
             fix="Write 'wte' first, then 'mlp_fc1', then 'mlp_fc2': " + FIX_WEIGHTS)
    if name in where:
        fail(f"weights['{name}'] is the right kind of numbers but shifted: it holds draws "
             f"{where[name] + 1} onwards instead of {start + 1} onwards. Something drew random "
             "numbers between the shuffle and this matrix. Make the three matrices right "
             "after the tokenizer, with nothing else drawing in between.")
    fail(f"weights['{name}'] starts {_row(flat[name][:3])}, but after random.seed(42) and the "
         f"shuffle, draws {start + 1} onwards of random.gauss(0, 0.08) are "
         f"{_row(stream[start:start + 3])}. Keep random.seed(42) and the shuffle as they are, "
         "and draw wte, mlp_fc1 and mlp_fc2 with matrix(), in that order.")


# A names file with only four letters (and so vocab_size 5): the shapes must follow it.
FEW_LETTERS = "abba\ncab\nbad\ndab\n"


@check("the shapes follow the names file")
def _(code):
    with calling("your file, run again on a names file with only the letters a, b, c and d"):
        theirs = rerun(code, {"input.txt": FEW_LETTERS})
    ours = rerun(reference(code), {"input.txt": FEW_LETTERS})
    for name in VOCAB_SHAPES:
        got, want = _shape(theirs.weights.get(name)), _shape(ours.weights[name])
        if got != want:
            fail(f"With a names file of only a, b, c and d, vocab_size is {ours.vocab_size}, so "
                 f"weights['{name}'] should have {want[0]} rows of {want[1]} numbers "
                 f"({WHY[name]}), but it has {shown(got[0]) if got else shown(theirs.weights.get(name))}"
                 + (f" rows of {got[1]}" if got else "") + ". With the course's names the two "
                 "agree, but the model must be built from vocab_size and n_embd, whatever "
                 "letters the names hold.", fix=FIX_WEIGHTS)
    return (f"With only the letters a to d, your weights are {ours.vocab_size} × 16, 64 × 16 and "
            f"{ours.vocab_size} × 64, as they should be.")


class _Resized:
    """The learner's file as rerun() runs it, with every literal 16 of its top level read as
    `width`: n_embd = 16 is the only 16 the given lines use for a size (block_size, also 16, is
    not read here), so the file runs again as a model of another width."""

    def __init__(self, code, width):
        program = copy.copy(code._program)
        consts = tuple(width if type(c) is int and c == 16 else c for c in program.code.co_consts)
        program.code = program.code.replace(co_consts=consts)
        self._program = program


@check("the shapes follow n_embd")
def _(code):
    with calling("your file, run again with n_embd = 8 (every 16 in it read as 8) on a names "
                 "file with only the letters a, b, c and d"):
        theirs = rerun(_Resized(code, 8), {"input.txt": FEW_LETTERS})
    if theirs.n_embd != 8:
        return None  # n_embd is not the given line's 16: nothing to compare
    vocab_size = theirs.vocab_size
    for name, (rows, cols) in _wanted_shapes(vocab_size, 8).items():
        got = _shape(theirs.weights.get(name))
        if got != (rows, cols):
            has = f"{got[0]} rows of {got[1]}" if got else shown(theirs.weights.get(name))
            fail(f"With n_embd = 8 (your file run again with every 16 in it read as 8, on a "
                 f"names file of only a, b, c and d), weights['{name}'] should have {rows} rows "
                 f"of {cols} numbers ({WHY[name]}), but it has {has}. With n_embd = 16 the two "
                 "agree, but a number written by hand stays the same when n_embd changes: the "
                 "shapes must be built from n_embd and vocab_size.", fix=FIX_WEIGHTS)
    return "With n_embd = 8, your weights are 5 × 8, 32 × 8 and 5 × 32, as they should be."


def _shapes(rng):
    """Small and real shapes, one of each kind, then shapes and spreads the model never uses."""
    for rows, cols, std, note in ((2, 3, 0.08, ""), (3, 1, 0.08, ""), (27, 16, 0.08, "wte's shape"),
                                  (1, 1, 0.08, ""), (4, 5, 2.0, "a spread of 2"),
                                  (40, 100, 0.5, "more rows and columns than the model has")):
        yield Case(f"{rows}, {cols}, {std}", lambda space, r=rows, c=cols, s=std: (r, c, s), note)


agrees("matrix", _shapes, draws=True)
