"""Checks for lesson 1.5: BOS takes the first id no character has, and vocab_size counts every id.

The characters are worked out here from input.txt, so any names file works: BOS must be the
number of different characters, and vocab_size one more. The last check reads the ids back from
the learner's own chars, BOS and vocab_size: every id from 0 to vocab_size - 1 must mean exactly
one thing.
"""
from linebyline.runtime import calling, check, fail, printed, reference, rerun, shown

BOS_FIX = "The first id after the characters': `BOS = len(chars)`."
VOCAB_FIX = "Every character and BOS: `vocab_size = len(chars) + 1`."


def _chars():
    with open("input.txt", encoding="utf-8") as handle:
        return sorted(set("".join(line.strip() for line in handle)))


def _whole(x):
    return isinstance(x, int) and not isinstance(x, bool)


@check("BOS is an id no character has")
def _(code):
    bos, chars = code.BOS, _chars()
    if bos is None:
        fail("BOS is still None. Give it a whole number: the first id that no character "
             "uses.", fix=BOS_FIX)
    if isinstance(bos, str):
        fail(f"BOS is the text {shown(bos)}, but the model only ever sees numbers: BOS must be "
             "an id, a whole number like the characters' ids, just one that no character "
             f"uses. The characters have the ids 0 to {len(chars) - 1}.", fix=BOS_FIX)
    if not _whole(bos):
        fail(f"BOS should be a whole number (an id), but it is {shown(bos)}.", fix=BOS_FIX)
    if 0 <= bos < len(chars):
        fail(f"BOS is {bos}, but {bos} is already the id of {shown(chars[bos])} "
             f"(chars[{bos}] is {shown(chars[bos])}). Two things with one id cannot be told "
             "apart: the model could not see where a name starts or ends. The characters take "
             f"the ids 0 to {len(chars) - 1}; BOS needs the next one, {len(chars)}, which is "
             "the number of characters.", fix=BOS_FIX)
    if bos < 0:
        fail(f"BOS is {bos}, but ids count up from 0: BOS needs the first id after the "
             f"characters' ids, 0 to {len(chars) - 1}.", fix=BOS_FIX)


@check("BOS comes right after the characters")
def _(code):
    bos, chars = code.BOS, _chars()
    if not _whole(bos) or bos < len(chars):
        fail("BOS can only come right after the characters once it is an id of its own, above "
             "theirs: fix the check above first.")
    if bos != len(chars):
        gap = bos - len(chars)
        unused = f"id {len(chars)}" if gap == 1 else f"the ids {len(chars)} to {bos - 1}"
        rows = "a row" if gap == 1 else f"{gap} rows"
        size = getattr(code, "vocab_size", None)
        if _whole(size) and size > bos:  # BOS has a row, but so does every id of the gap
            cost = (f"With vocab_size = {size}, every table gets a row for each id from 0 to "
                    f"{size - 1}, so {unused} would take up {rows} that nothing uses.")
        else:
            cost = (f"The model's tables get one row for each id below vocab_size ({len(chars) + 1} "
                    f"when it counts the characters and BOS), so BOS, {bos}, would have no row: "
                    "the first lookup of BOS would crash with an IndexError.")
        fail(f"BOS is {bos}, which leaves {unused} unused: the characters take 0 to "
             f"{len(chars) - 1}, so the next free id is {len(chars)}. {cost}", fix=BOS_FIX)


@check("vocab_size counts every id")
def _(code):
    size, chars = code.vocab_size, _chars()
    want = len(chars) + 1
    if size == want and _whole(size):
        return
    if not _whole(size):
        fail(f"vocab_size should be a whole number, the count of all ids, but it is "
             f"{shown(size)}.", fix=VOCAB_FIX)
    if size == len(chars):
        fail(f"vocab_size is {size}: it counts the characters but not BOS. There are "
             f"{len(chars)} character ids and one for BOS, {want} in all, and BOS's id, "
             f"{len(chars)}, must be below vocab_size for the model to have a row for it.",
             fix=VOCAB_FIX)
    fail(f"vocab_size is {size}, but there are {len(chars)} character ids and one for BOS: "
         f"{want} ids in all, 0 to {want - 1}.", fix=VOCAB_FIX)


@check("every id from 0 to vocab_size - 1 means one thing")
def _(code):
    chars, bos, size = list(code.chars), code.BOS, code.vocab_size
    meaning = {}
    for index, ch in enumerate(chars):
        meaning.setdefault(index, []).append(repr(ch))
    meaning.setdefault(bos, []).append("BOS")
    wrong = [f"id {i} means {' and '.join(meaning.get(i, ['nothing']))}"
             for i in range(size) if len(meaning.get(i, [])) != 1]
    outside = sorted(i for i in meaning if not 0 <= i < size)
    if wrong or outside:
        fail("; ".join(wrong + [f"id {i} is not below vocab_size" for i in outside]) + ".")
    if f"vocab size: {size}" not in printed(code):
        fail(f"Your file should print `vocab size: {size}`, but it printed "
             f"{shown(printed(code).strip()[-60:])}. The print line was given: was it changed?")
    return (f"ids 0 to {len(chars) - 1} are {chars[0]!r} to {chars[-1]!r}, id {bos} is BOS: "
            f"{size} ids, each meaning one thing.")


# A names file of our own whose characters are not 'a' to 'z': 9 different ones, a hyphen among
# them, so BOS is 9 and vocab_size 10 here.
OWN_NAMES = "anne-marie\nleo\nmia\nnoor\nemil\n"


@check("another names file, other numbers")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    ours = rerun(reference(code), files)
    if (theirs.BOS, theirs.vocab_size) == (ours.BOS, ours.vocab_size):
        return (f"With another names file ({len(ours.chars)} characters), BOS is {ours.BOS} and "
                f"vocab_size {ours.vocab_size}, as they should be.")
    told = (f"Run with a names file of our own as input.txt (anne-marie, leo, mia, noor, emil), "
            f"the names use {len(ours.chars)} different characters, {''.join(ours.chars)!r}, so "
            f"BOS should be {ours.BOS} and vocab_size {ours.vocab_size}; yours are "
            f"{shown(theirs.BOS)} and {shown(theirs.vocab_size)}. Numbers written into the file "
            f"fit only the names they were counted on: microgpt trains on any names file (My "
            f"microgpt lets you drop in your own), so BOS and vocab_size must follow chars.")
    if theirs.BOS != ours.BOS:
        fail(told, fix=BOS_FIX)
    fail(told, fix=VOCAB_FIX)
