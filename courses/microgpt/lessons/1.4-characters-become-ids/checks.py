"""Checks for lesson 1.4: chars holds every character of the names, each once, sorted.

The characters are worked out here from input.txt, independently of the learner's line, so any
names file works. A list, a tuple or a string of the sorted characters all pass: each gives every
character a fixed position, and that position is its id.
"""
from collections import Counter

from linebyline.runtime import calling, check, fail, listing, reference, rerun, shown

CHARS_FIX = "The whole line: `chars = sorted(set(''.join(docs)))`."
# A names file unlike input.txt: a hyphen and an accent, and most of the alphabet missing.
OWN_NAMES = "zoë\nanne-marie\nbo\nlou\nmina\nrené\n"


def _names():
    with open("input.txt", encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


def _letters():
    return sorted(set("".join(_names())))


def _few(items, count=4):
    shown_items = listing([shown(item) for item in list(items)[:count]])
    return shown_items + (" ..." if len(items) > count else "")


@check("chars is a list of single characters")
def _(code):
    chars = code.chars
    if isinstance(chars, (set, frozenset)):
        fail("chars is a set. A set keeps each character once, but it has no order and no "
             "positions: chars[0] fails on a set, and an id is a position. chars must be a "
             "list of those characters, in sorted order.",
             fix="Sort the set, which gives a list: `chars = sorted(set(''.join(docs)))`.")
    if not isinstance(chars, (list, tuple, str)):
        fail(f"chars should be a list of characters, but it is {shown(chars)}.")
    if not chars:
        fail(f"chars is empty, but the names use {len(_letters())} different characters. Build "
             "it from the names in docs.")
    long = [item for item in chars if not (isinstance(item, str) and len(item) == 1)]
    if long and all(isinstance(item, str) for item in long):
        fail(f"chars holds whole names ({_few(long, 3)}), not single characters: a set of docs "
             "is a set of names. Glue the names into one text first: a set of a text is a set "
             "of its characters.",
             fix="Join the names before taking the set: `chars = sorted(set(''.join(docs)))`.")
    if long:
        fail(f"chars should hold single characters, but it holds {shown(long[0])}.")


@check("each character appears once")
def _(code):
    chars = list(code.chars)
    counts = Counter(chars)
    repeated = [ch for ch, count in counts.most_common() if count > 1]
    if repeated:
        top = repeated[0]
        fail(f"chars holds {len(chars):,} characters with repeats: {shown(top)} is in it "
             f"{counts[top]:,} times. Every character needs exactly one place (one id), so keep "
             "one of each: make a set of the joined names before you sort it.", fix=CHARS_FIX)


@check("every character of the names, and nothing else")
def _(code):
    chars, letters = list(code.chars), _letters()
    extra = [ch for ch in chars if ch not in letters]
    missing = [ch for ch in letters if ch not in chars]
    if extra and all(not ch.strip() for ch in extra):
        fail(f"chars holds {_few(extra)}, which is in none of the names: it is the text you "
             "joined the names with. Join them with the empty text, which puts nothing "
             "between them.", fix="Join with the empty text: `''.join(docs)`.")
    if extra:
        fail(f"chars holds {_few(extra)}, which is in none of the names. Build chars from the "
             "characters of the names alone.", fix=CHARS_FIX)
    if missing:
        fail(f"chars lacks {_few(missing)}, which the names use. Build it from every name in "
             "docs, all joined.", fix=CHARS_FIX)


@check("in sorted order, so the ids never change")
def _(code):
    chars = list(code.chars)
    if chars != sorted(chars):
        fail("chars holds the right characters, but not in sorted order. A set comes out in "
             "an order that can change from one run of Python to the next (Python scrambles "
             "texts with a fresh random key each time it starts), so 'a' could have id 0 today and "
             "id 17 tomorrow. Sorted, the characters come out a to z on every run.",
             fix="Sort the set instead of turning it into a list: `sorted(set(''.join(docs)))`.")
    return (f"The {len(chars)} characters run from {shown(chars[0])} (id 0) to "
            f"{shown(chars[-1])} (id {len(chars) - 1}) on every run.")


@check("the characters of another names file")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    want = list(rerun(reference(code), files).chars)
    got = theirs.chars
    if isinstance(got, (list, tuple, str)) and list(got) == want:
        return f"A names file of our own gets its own vocabulary, {len(want)} characters."
    names = OWN_NAMES.split()
    seen = (f"With a names file of our own as input.txt ({', '.join(map(repr, names))}), chars "
            f"should be {shown(want)}, the {len(want)} characters those names use, but it is "
            f"{shown(got)}.")
    if isinstance(got, (list, tuple, str)) and list(got) == list(code.chars):
        fail(f"{seen} That is the same as for input.txt, whatever the names: these names have a "
             f"hyphen and accents, and no 'c', 'd' or 'f'. chars must come from the names "
             f"themselves, so that any names file gets a vocabulary of its own.", fix=CHARS_FIX)
    fail(f"{seen} Build chars from the characters these names use, each once, sorted.",
         fix=CHARS_FIX)
