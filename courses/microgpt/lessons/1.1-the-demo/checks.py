"""Checks for lesson 1.1: the last line of train0.py prints each invented name, once per sample.

The learner's whole file runs once, and the checks read what it printed after `--- samples ---`.
They compare it with the 20 names worked out here independently: the same bigram counts and the
same random draws as train0.py (seed 42, one shuffle, then one `random.choices` per letter), from
the names in input.txt. Any way of printing a name as one word on its own line passes: with or
without its number, an f-string, `print(*name, sep='')`, `str.join` ...

The last check runs the learner's file again on a names file of our own and compares its names
with the solution's on the same file: a line that prints names typed in beforehand (the 20 of
input.txt) agrees with train0 on input.txt and nowhere else.
"""
import random
import re

from linebyline.runtime import calling, check, fail, listing, plural, printed, reference, rerun, shown

MARKER = "--- samples ---"
SAMPLES = 20
BLOCK_SIZE = 16
JOIN_FIX = "Print the letters glued into one word: `print(''.join(name))`."
# A names file unlike input.txt: a few names, some longer than block_size.
OWN_NAMES = ("annemarie\nzoe\njeanluc\nbartholomewjonathan\nmo\nkai\nevangelinerose\nlou\n"
             "ida\nmaximilianalexander\n")


def _expected_names():
    """The 20 names train0.py invents, worked out from input.txt without the learner's code."""
    generator = random.Random(42)
    with open("input.txt", encoding="utf-8") as handle:
        docs = [line.strip() for line in handle if line.strip()]
    generator.shuffle(docs)
    chars = sorted(set("".join(docs)))
    bos = len(chars)
    size = bos + 1
    ids = {ch: index for index, ch in enumerate(chars)}
    counts = [[1] * size for _ in range(size)]
    for doc in docs:
        tokens = [bos] + [ids[ch] for ch in doc] + [bos]
        for a, b in zip(tokens, tokens[1:]):
            counts[a][b] += 1
    names = []
    for _ in range(SAMPLES):
        token, letters = bos, []
        for _ in range(BLOCK_SIZE):
            token = generator.choices(range(size), weights=counts[token])[0]
            if token == bos:
                break
            letters.append(chars[token])
        names.append("".join(letters))
    return names


def _sample_lines(code):
    """The lines printed after the samples header, or None if the header is missing."""
    return _lines_after_marker(printed(code))


def _lines_after_marker(text):
    if MARKER not in text:
        return None
    after = text.split(MARKER, 1)[1]
    lines = after.split("\n")[1:]  # what follows the header on its own line
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return lines


def _words(line):
    return re.findall(r"[^\W\d_]+", line)


def _few(items, count=3):
    return listing([shown(item) for item in items[:count]]) + (" ..." if len(items) > count else "")


@check("one line per sample")
def _(code):
    lines = _sample_lines(code)
    if lines is None:
        fail(f"Your program did not print `{MARKER}`. That print, just above the sampling loop, "
             "was given: was it changed or deleted?")
    names = _expected_names()
    where = ("Put the print inside the `for sample` loop, after the inner `for letter` loop: "
             "indented like `name = []`.")
    if not lines:
        fail(f"Nothing was printed after `{MARKER}`: the line that prints each name is still "
             f"missing. {where}")
    if len(lines) == SAMPLES:
        return
    joined = "".join(names)
    if len(lines) == 1 and joined and joined in lines[0].replace(" ", ""):
        fail(f"All {SAMPLES} names ran together on one line, starting {shown(lines[0][:30])}: "
             "print(..., end='') leaves out the newline that ends a line. Print each name with "
             "a plain print(...), which starts a new line every time.")
    if len(lines) == 1:
        fail(f"Only one line was printed after `{MARKER}`: {shown(lines[0])}, the last sample. "
             "The print runs once, after the `for sample` loop has finished all 20 samples, so "
             f"it is not indented enough. {where}")
    letters = [ch for name in names for ch in name]
    if [line.strip() for line in lines] == letters:
        fail(f"{len(lines)} lines were printed after `{MARKER}`, one letter each "
             f"({_few(lines)}), but there should be {SAMPLES}, one name each. The print is inside "
             f"the inner `for letter` loop, so it runs once per letter. Print the whole name once "
             f"the inner loop is over. {where}")
    growing = [name[:end] for name in names for end in range(1, len(name) + 1)]
    if len(lines) == len(growing) and all(part in line for part, line in zip(growing, lines)):
        fail(f"{len(lines)} lines were printed after `{MARKER}`: each name as it grows "
             f"({_few(lines)}), but there should be {SAMPLES}, one finished name each. The print "
             f"is inside the inner `for letter` loop, so it runs after every letter. {where}")
    fail(f"{plural(len(lines), 'line')} {'was' if len(lines) == 1 else 'were'} printed after "
         f"`{MARKER}`, but there are {SAMPLES} samples: "
         f"there should be one line for each. {where}")


@check("each line shows a name as one word")
def _(code):
    lines = _sample_lines(code)
    for number, (line, name) in enumerate(zip(lines, _expected_names()), 1):
        if "[" in line and "'" in line:
            fail(f"Line {number} after `{MARKER}` is {shown(line)}: the list of letters itself, "
                 "brackets, quotes and commas included. name is a list, and print shows a list "
                 "the way Python writes it. Glue its letters into one word first, then print "
                 "that word.", fix=JOIN_FIX)
        if len(name) > 1 and " ".join(name) in line and name not in _words(line):
            fail(f"Line {number} after `{MARKER}` is {shown(line)}: the letters of the name "
                 f"with spaces between them. print(*name) prints each letter as a separate "
                 f"item, and print puts a space between items. Glue the letters into one text "
                 f"first, with nothing between them, so that {name!r} comes out as one word.",
                 fix=JOIN_FIX)
        if name and not _words(line):
            fail(f"Line {number} after `{MARKER}` is {shown(line)}, which has no letters, but "
                 f"sample {number} invented {name!r}. The line must print the name itself: "
                 f"the letters in `name`, glued into one word.", fix=JOIN_FIX)


@check("the 20 names train0 invents")
def _(code):
    lines = _sample_lines(code)
    names = _expected_names()
    # Words on every line (such as "sample") are a label, not a name: an empty name shows none.
    labels = set.intersection(*(set(_words(line)) for line in lines))
    for number, (line, name) in enumerate(zip(lines, names), 1):
        words = _words(line)
        if name in words or (not name and set(words) <= labels):
            continue
        with open("input.txt", encoding="utf-8") as handle:
            vocabulary = "".join(sorted(set(handle.read().replace("\n", ""))))
        what = (" That is chars, every character of the names glued together: the vocabulary, "
                "not the name this sample invented." if vocabulary in words else "")
        fail(f"Line {number} after `{MARKER}` is {shown(line)}, but sample {number} invented "
             f"{name!r} (with seed 42, train0 invents {_few(names)} and so on).{what} Print the "
             "letters that `name` holds once the sample is done, glued into one word.",
             fix=JOIN_FIX)
    return f"The 20 invented names, from {names[0]!r} to {names[-1]!r}."


def _agrees(lines, names):
    """Each line shows its name as a word (an empty name: no word but the label on every line)."""
    if len(lines) != len(names):
        return False
    labels = set.intersection(*(set(_words(line)) for line in lines)) if lines else set()
    return all(name in _words(line) or (not name and set(_words(line)) <= labels)
               for line, name in zip(lines, names))


@check("the names of another names file")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    ours = rerun(reference(code), files)
    got = _lines_after_marker(printed(theirs)) or []
    want = [line.split(": ", 1)[1] for line in _lines_after_marker(printed(ours))]
    if _agrees(got, want):
        return "A names file of our own gives its own names, as train0's do."
    own = ", ".join(repr(name) for name in OWN_NAMES.split()[:3])
    seen = (f"With a names file of our own as input.txt ({own} and "
            f"{len(OWN_NAMES.split()) - 3} more), train0 invents {_few(want)}, but your file "
            f"printed {_few(got) if got else 'nothing'} after `{MARKER}`.")
    bundled = _expected_names()
    if _agrees(got, bundled):
        fail(f"{seen} Those are the names train0 invents from input.txt: your line prints the "
             f"same names whatever the data, so they do not come from `name`. Print what `name` "
             f"holds once the sample is done, glued into one word.", fix=JOIN_FIX)
    if _agrees(_sample_lines(code) or [], bundled):
        fail(f"{seen} On input.txt your names were right; on these names they are not. Print "
             f"what `name` holds once the sample is done, glued into one word.", fix=JOIN_FIX)
    # Said only when it was so: a line wrong on input.txt too has its message in the checks above.
    fail(f"{seen} Print what `name` holds once the sample is done, glued into one word: one name "
         f"per line, as the checks above say.", fix=JOIN_FIX)
