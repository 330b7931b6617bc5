"""Checks for lesson 1.3: docs holds every name of input.txt, stripped, and is shuffled in place
in the order that random.seed(42) gives.

The names are read from input.txt here, independently of the learner's line, so any names file
works. The checks look at what docs holds, not at how the line was written: a comprehension, a
loop with append, `read().splitlines()` and `rstrip('\\n')` all pass.
"""
import random
from collections import Counter

from linebyline.runtime import calling, check, fail, listing, plural, reference, rerun, shown

SEED = 42
READ_FIX = ("Keep each line stripped, and only if something is left: "
            "`docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]`.")
SHUFFLE_FIX = "Shuffle the list itself, once, on a line of its own: `random.shuffle(docs)`."
# A names file unlike input.txt: a blank line in the middle, no newline after the last name.
OWN_NAMES = "zoe\nanne-marie\nbo\n\nkai\njean-luc\nevangeline\nmo\nida"


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
        fail("docs is None. random.shuffle shuffles the list it is given in place and gives "
             "back None, so assigning what it gives back to docs throws the names away and "
             "keeps that None.", fix=SHUFFLE_FIX)
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
             "line of the file as the text it is, stripped of its newline.", fix=READ_FIX)
    padded = [item for item in docs if item != item.strip()]
    if padded:
        others = ("and so does every other name in docs" if len(padded) == len(docs)
                  else f"and so do {len(padded) - 1:,} more names in docs")
        fail(f"docs holds {shown(padded[0])}, with a newline (\\n) or spaces still around the "
             f"name, {others}. Each line of a file ends with the newline character \\n, a real "
             "character that stays unless you strip it, and it would count as one more letter "
             "of the name. Strip each line before you keep it.", fix=READ_FIX)
    empty = docs.count("")
    if empty:
        fail(f"docs holds {plural(empty, 'empty name')} (''). A blank line, or the end of the "
             "file after its last newline, became a name with no letters. Keep only the "
             "lines that have something in them once stripped.", fix=READ_FIX)
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
             "random.shuffle changes the very list you give it, so docs itself must be the "
             "list it is given. Shuffling a copy (docs[:] or list(docs)) mixes the copy and "
             "leaves docs as it was.", fix=SHUFFLE_FIX)
    if docs == sorted(names):
        fail("docs is sorted from a to z, not shuffled: its order is the alphabet's, the same "
             "whatever the seed.", fix=SHUFFLE_FIX)


@check("docs is in the order random.seed(42) gives")
def _(code):
    docs, names = code.docs, _names()
    want = _in_seed_order(names)
    if docs == want:
        return f"docs starts {_start(docs)} on every run."
    if docs == _in_seed_order(names, times=2):
        fail(f"docs is shuffled twice: after random.seed(42), one shuffle gives {_start(want)} "
             "and a second shuffle mixes that order again. Shuffle docs once.",
             fix="Keep one shuffle and remove the other.")
    fail(f"docs is shuffled, but not in the order one shuffle of docs gives right after "
         f"random.seed(42): that order starts {_start(want)} Other ways of mixing "
         "(random.sample, shuffling a copy and keeping it) draw differently, and so does a "
         "shuffle that comes after other random draws.", fix=SHUFFLE_FIX)


@check("another names file: a blank line, no last newline")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    ours = rerun(reference(code), files)
    docs, want = theirs.docs, ours.docs
    if docs == want:
        return "docs is right for a names file with a blank line and no newline at its end, too."
    names = sorted(want)
    seen = (f"With a names file of our own as input.txt ({', '.join(map(repr, names[:3]))} and "
            f"{len(names) - 3} more, a blank line in the middle, no newline after the last "
            f"name, {OWN_NAMES.split()[-1]!r}), docs should hold its {len(names)} names, but it "
            f"holds {shown(docs)}.")
    if not isinstance(docs, list):
        fail(seen, fix=READ_FIX)
    if "" in docs:
        fail(f"{seen} The blank line became an empty name, ''. input.txt has no blank line, so "
             f"this never showed there; keep only the lines that have something in them once "
             f"stripped.", fix=READ_FIX)
    cut = [name for name in docs if name not in want and any(
        full.startswith(name) and len(full) == len(name) + 1 for full in want)]
    if cut:
        full = next(full for full in want if full.startswith(cut[0]))
        fail(f"{seen} {cut[0]!r} is {full!r} with its last letter cut off: that line has no "
             f"newline after it, and your line removes one character from the end of every "
             f"line, whatever it is. Every line of input.txt ends with a newline, so this never "
             f"showed there. Strip what is there instead.", fix=READ_FIX)
    if sorted(docs) == names:
        fail(f"{seen} The names are right, but not in the order one shuffle after "
             f"random.seed(42) gives: {_start(want)}", fix=SHUFFLE_FIX)
    fail(f"{seen} Read every line of the file, stripped, leaving out the blank ones.",
         fix=READ_FIX)
