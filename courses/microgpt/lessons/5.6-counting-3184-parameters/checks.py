"""Checks for lesson 5.6: the file prints "parameters: N", with N the numbers in `weights`.

The count is read from what the file printed, so any way of counting passes (a generator, a loop
with a counter, rows times columns). Wrong counts are recognised by recomputing the classic
mistakes on the learner's own matrices: rows only, matrices only, one row per matrix, mlp_fc2
with the wrong shape. The third runs the file again on a names file of four letters, where a
count written from the course's shapes (27 tokens) no longer holds; the fourth runs it again
with n_embd = 8 (every literal 16 of the file read as 8), where a width written as 16 or 64 by
hand shows; the last works the count out
from the shapes and input.txt alone.
"""
import copy
import re

from linebyline.runtime import calling, check, fail, listing, printed, reference, rerun

FIX = 'The line: `print(f"parameters: {sum(len(row) for mat in weights.values() for row in mat)}")`.'

COUNT = re.compile(r"parameters:[ \t]*(.*)")


def _printed_count(code):
    """The number after the last "parameters:" the file printed, or fail."""
    text = printed(code)
    found = COUNT.findall(text)
    if not found:
        lines = [line for line in text.splitlines() if line.strip()]
        said = listing([f'"{line[:60]}"' for line in lines[-3:]]) if lines else "nothing"
        fail(f"Your file printed {said}, but no line \"parameters: N\". The count has to be "
             "printed right after `weights` is made, like the other counts of the file.",
             fix=FIX)
    raw = found[-1].strip()
    digits = raw.split(" ")[0].replace(",", "").replace("_", "")
    if not digits.isdigit():
        cut = raw[:40] + ("..." if len(raw) > 40 else "")
        fail(f"Your file printed \"parameters: {cut}\", but after \"parameters:\" should come one "
             "whole number: how many numbers the matrices in `weights` hold in all.")
    return int(digits)


def _vocab_size():
    docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    return len(set(''.join(docs))) + 1


@check("prints the parameter count")
def _(code):
    _printed_count(code)


@check("the count matches the matrices")
def _(code):
    weights = code.weights
    got = _printed_count(code)
    want = sum(len(row) for mat in weights.values() for row in mat)
    if got == want:
        return
    mats = list(weights.values())
    shapes = ", ".join(f"{name} {len(mat)} × {len(mat[0])}" for name, mat in weights.items())
    seen = f"Your file printed \"parameters: {got}\", but the matrices in `weights` hold {want} numbers"
    if got == sum(len(mat) for mat in mats):
        fail(f"{seen}. {got} is the number of rows: {' + '.join(str(len(m)) for m in mats)}. "
             "Every row holds several numbers: the count is the sum of len(row) over every "
             "row of every matrix, not of len(mat).", fix=FIX)
    if got == len(mats):
        fail(f"{seen}. {got} is the number of matrices in the dict. Count the numbers inside "
             "them: every row of every matrix, len(row) each.", fix=FIX)
    if got == sum(len(mat[0]) for mat in mats):
        fail(f"{seen}. {got} counts only the first row of each matrix "
             f"({' + '.join(str(len(m[0])) for m in mats)}). Every matrix has many rows: the "
             "count adds up len(row) for every row of every matrix.", fix=FIX)
    vocab_size, n_embd = len(weights['wte']), len(weights['wte'][0])
    if got == vocab_size * n_embd + 4 * n_embd * n_embd + vocab_size * n_embd:
        fail(f"{seen} ({shapes}). {got} counts mlp_fc2 as {vocab_size} × {n_embd}, but it is "
             f"{len(weights['mlp_fc2'])} × {len(weights['mlp_fc2'][0])}: its rows are as long as "
             "h, 4 * n_embd numbers. Counting from the matrices themselves, row by row, cannot "
             "get a shape wrong.", fix=FIX)
    fail(f"{seen} ({shapes}): the count is len(row) added up over every row of every matrix in "
         "weights.values().", fix=FIX)


# A names file with only four letters (and so vocab_size 5): the count must follow it.
FEW_LETTERS = "abba\ncab\nbad\ndab\n"


@check("the count follows the names file")
def _(code):
    with calling("your file, run again on a names file with only the letters a, b, c and d"):
        theirs = rerun(code, {"input.txt": FEW_LETTERS})
    ours = rerun(reference(code), {"input.txt": FEW_LETTERS})
    got = _printed_count(theirs)
    want = sum(len(row) for mat in ours.weights.values() for row in mat)
    if got == want:
        return
    shapes = ", ".join(f"{name} {len(mat)} × {len(mat[0])}" for name, mat in ours.weights.items())
    fail(f"With a names file of only a, b, c and d, vocab_size is {ours.vocab_size} and the "
         f"matrices hold {want} numbers ({shapes}), but your file printed \"parameters: {got}\"."
         " With the course's names the two agree, but the count must come from the matrices "
         "themselves, whatever letters the names hold.", fix=FIX)


class _Resized:
    """The learner's file as rerun() runs it, with every literal 16 of its top level read as
    `width`: n_embd = 16 is the only 16 the given lines use for a size (block_size, also 16, is
    not read here), so the file runs again as a model of another width."""

    def __init__(self, code, width):
        program = copy.copy(code._program)
        consts = tuple(width if type(c) is int and c == 16 else c for c in program.code.co_consts)
        program.code = program.code.replace(co_consts=consts)
        self._program = program


@check("the count follows n_embd")
def _(code):
    with calling("your file, run again with n_embd = 8 (every 16 in it read as 8) on a names "
                 "file with only the letters a, b, c and d"):
        theirs = rerun(_Resized(code, 8), {"input.txt": FEW_LETTERS})
    if theirs.n_embd != 8:
        return None  # n_embd is not the given line's 16: nothing to compare
    got = _printed_count(theirs)
    want = sum(len(row) for mat in theirs.weights.values() for row in mat)
    if got == want:
        return None
    shapes = ", ".join(f"{name} {len(mat)} × {len(mat[0])}" for name, mat in theirs.weights.items())
    fail(f"With n_embd = 8 (your file run again with every 16 in it read as 8, on a names file "
         f"of only a, b, c and d), the matrices hold {want} numbers ({shapes}), but your file "
         f"printed \"parameters: {got}\". With n_embd = 16 the two agree, but a number written "
         "by hand for a width stays the same when n_embd changes: the count must come from the "
         "matrices themselves.", fix=FIX)


@check("3,184 from the shapes")
def _(code):
    vocab_size = _vocab_size()
    n_embd = 16
    shapes = {"wte": (vocab_size, n_embd), "mlp_fc1": (4 * n_embd, n_embd),
              "mlp_fc2": (vocab_size, 4 * n_embd)}
    want = sum(rows * cols for rows, cols in shapes.values())
    got = _printed_count(code)
    if code.n_embd != n_embd:
        fail(f"n_embd is {code.n_embd} in your file, but train1.py's model has n_embd = 16. "
             "Put it back to 16: the count of this lesson is for that model.")
    if got != want:
        fail(f"With vocab_size = {vocab_size} and n_embd = 16, the three shapes hold "
             f"{' + '.join(str(r * c) for r, c in shapes.values())} = {want} numbers, but your "
             f"file printed {got}. Were the matrices in `weights` changed?")
    parts = " + ".join(f"{r * c} ({name})" for name, (r, c) in shapes.items())
    bigram = vocab_size * vocab_size
    return (f"{want} = {parts}: {want / bigram:.1f} times the {bigram} counts of the bigram "
            "table.")
