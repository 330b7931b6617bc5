"""Checks for lesson 1.3: docs holds every name of input.txt, stripped, and is shuffled in place
in the order that random.seed(42) gives.

The names are read from input.txt here, independently of the learner's line, so any names file
works. The checks look at what docs holds, not at how the line was written: a comprehension, a
loop with append, `read().splitlines()` and `rstrip('\\n')` all pass.
"""
import random
from collections import Counter

from linebyline.runtime import check, fail, listing, plural, shown

SEED = 42


def _names():
    with open("input.txt", encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


def _start(names, count=3):
    return listing([shown(name) for name in names[:count]]) + " ..."


def _in_seed_order(names, times=1):
    order = list(names)
    generator = random.Random(SEED)
    for _ in range(times):
        generator.shuffle(order)
    return order


@check("docs is a list of names")
def _(code):
    docs = code.docs
    names = _names()
    if docs is None:
        fail("docs is None. random.shuffle(docs) shuffles the list in place and gives back "
             "None, so `docs = random.shuffle(docs)` throws the names away and keeps that None. "
             "Write random.shuffle(docs) on its own line, without `docs =`.")
    if isinstance(docs, str):
        fail(f"docs is one long text ({shown(docs)}), not a list of names. Make a list with "
             "one entry per line of the file: `[... for line in open(...) ...]`.")
    if not isinstance(docs, list):
        fail(f"docs should be a list of names, but it is {shown(docs)}.")
    if not docs:
        fail(f"docs is an empty list, but input.txt holds {len(names):,} names. Read "
             "every line of the file into docs.")
    odd = next((item for item in docs if not isinstance(item, str)), None)
    if odd is not None:
        fail(f"docs should hold names as text, but one of its items is {shown(odd)}. Keep each "
             "line as it is, stripped: `line.strip()`.")
    padded = [item for item in docs if item != item.strip()]
    if padded:
        others = ("and so does every other name in docs" if len(padded) == len(docs)
                  else f"and so do {len(padded) - 1:,} more names in docs")
        fail(f"docs holds {shown(padded[0])}, with a newline (\\n) or spaces still around the "
             f"name, {others}. Each line of a file ends with the newline character \\n, a real "
             "character that stays unless you strip it, and it would count as one more letter "
             "of the name. Strip each line: `line.strip()`.")
    empty = docs.count("")
    if empty:
        fail(f"docs holds {plural(empty, 'empty name')} (''). A blank line, or the end of the "
             "file after its last newline, became a name with no letters. Keep only the "
             "lines that have something in them: `if line.strip()`.")
    if len(docs) > len(names) and all(len(item) == 1 for item in docs):
        fail(f"docs holds {len(docs):,} items, each a single letter ("
             f"{_start(docs, 4)}), but input.txt holds {len(names):,} names. "
             "`open(...).read()` is the whole file as one text, and a loop over a text goes "
             "letter by letter. Loop over the open file itself, which goes line by line.")


@check("docs holds every name of input.txt, once")
def _(code):
    docs, names = code.docs, _names()
    if Counter(docs) == Counter(names):
        return
    missing = list((Counter(names) - Counter(docs)).elements())
    extra = list((Counter(docs) - Counter(names)).elements())
    seen = f"docs holds {len(docs):,} names, but input.txt holds {len(names):,}."
    if missing:
        seen += f" Missing from docs: {_start(missing)}"
    if extra:
        seen += f" In docs but not in the file (or too often): {_start(extra)}"
    fail(f"{seen} Read every line of input.txt, exactly once.")


@check("docs is shuffled")
def _(code):
    docs, names = code.docs, _names()
    if docs == names:
        fail(f"docs is still in the file's order: it starts {_start(docs)} like input.txt. "
             "random.shuffle changes the very list you give it. Shuffle docs itself: "
             "`random.shuffle(docs)`. Shuffling a copy (docs[:] or list(docs)) mixes the copy "
             "and leaves docs as it was.")
    if docs == sorted(names):
        fail("docs is sorted from a to z, not shuffled. Use random.shuffle(docs).")


@check("docs is in the order random.seed(42) gives")
def _(code):
    docs, names = code.docs, _names()
    want = _in_seed_order(names)
    if docs == want:
        return f"docs starts {_start(docs)} on every run."
    if docs == _in_seed_order(names, times=2):
        fail(f"docs is shuffled twice: after random.seed(42), one shuffle gives {_start(want)} "
             "Shuffle docs once.")
    fail(f"docs is shuffled, but not in the order that random.shuffle(docs) gives right after "
         f"random.seed(42): that order starts {_start(want)} Call random.shuffle(docs) once, "
         "right after the line that reads docs. Other ways of mixing (random.sample, "
         "shuffling a copy and keeping it) draw differently.")
