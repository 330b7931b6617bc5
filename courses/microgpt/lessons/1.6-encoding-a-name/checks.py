"""Checks for lesson 1.6: encode wraps a name's ids in BOS, and decode reads the ids back.

The vocabulary is worked out here from input.txt, independently of the learner's file, so any
names file works. Any way of writing encode passes (a comprehension, a loop, a dict from
character to id) as long as it gives the same ids, and stops with an error on a character that
is not in chars. Each function is called twice on the first example, so that one that keeps
something from one call to the next shows at once. Then every name of input.txt is encoded and
decoded, both functions are compared with ours on names the data does not have (longer than
block_size, every letter), twice each and with their arguments looked at afterwards, and the
file is run again on a names file of our own, whose vocabulary is not 'a' to 'z'.
"""
from functools import cache

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    fail,
    listing,
    plural,
    reference,
    rerun,
    shown,
    words,
)

EXAMPLES = ["emma", "zoe", "ava"]
OUTSIDE = "zoë"  # 'ë' is in no name of the bundled file
ALPHABET = "abcdefghijklmnopqrstuvwxyz"
ENCODE_FIX = "The line in encode: `tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]`."
ID_FIX = "Each character's id is its position in chars: `chars.index(ch)`."
DECODE_FIX = "The line in decode: `name.append(chars[token])`."
KEPT = ("Something of yours lives on from one call to the next (a list made outside the "
        "function, or a default argument), so each call adds to what the calls before it left. "
        "Make what the function builds inside it, new on every call.")
# A names file whose vocabulary is not 'a' to 'z': a hyphen, an accent, most letters missing.
OWN_NAMES = "bo\nlou\nmina\nanne-marie\nzoë\nrené\n"


@cache
def _names():
    with open("input.txt", encoding="utf-8") as handle:
        return tuple(line.strip() for line in handle if line.strip())


@cache
def _vocabulary():
    chars = sorted(set("".join(_names())))
    return chars, len(chars)


@cache
def _ids():
    chars, _ = _vocabulary()
    return {ch: index for index, ch in enumerate(chars)}


def _want(doc):
    _, bos = _vocabulary()
    ids = _ids()
    return [bos] + [ids[ch] for ch in doc] + [bos]


def _encode(code, doc):
    call = f"encode({doc!r})"
    try:
        return code.encode(doc)
    except AttributeError as error:
        if "find" not in str(error):
            with calling(call):
                raise
    fail(f"{call} raised AttributeError: chars is a list, and a list has no find(): find is "
         "a method of texts. A list's way to find an item's position is its index method.",
         fix=ID_FIX)


def _examples():
    """The example names that use only characters of chars."""
    chars, _ = _vocabulary()
    return [doc for doc in EXAMPLES if all(ch in chars for ch in doc)] or [_names()[0]]


def _plain(value):
    return list(value) if isinstance(value, (list, tuple)) else value


@check("encode gives a list of ids")
def _(code):
    doc = _examples()[0]
    got = _encode(code, doc)
    call = f"encode({doc!r})"
    if isinstance(got, str):
        fail(f"{call} gave the text {shown(got)}, but the model reads a list of ids, one whole "
             f"number per token, like {shown(_want(doc))}: BOS, one id per character, BOS.",
             fix=ENCODE_FIX)
    if not isinstance(got, (list, tuple)):
        fail(f"{call} should give a list of ids like {shown(_want(doc))}, but gave {shown(got)}.",
             fix=ENCODE_FIX)
    if not got:
        fail(f"{call} gave an empty list, but it should give {shown(_want(doc))}: BOS, one id per "
             "character, BOS.", fix=ENCODE_FIX)
    nested = next((item for item in got if isinstance(item, (list, tuple))), None)
    if nested is not None:
        fail(f"{call} gave {shown(got)}: a list inside the list. A list written between the "
             "brackets of another stays one item of it; the ids have to be joined with the two "
             "BOS into one flat list, with +.",
             fix="Join three lists with +: `[BOS] + [chars.index(ch) for ch in doc] + [BOS]`.")
    letters = [item for item in got if isinstance(item, str)]
    if letters:
        fail(f"{call} gave {shown(got)}: the characters themselves, not their ids. The model "
             "only reads numbers: each character has to become its position in chars.",
             fix=ID_FIX)
    odd = next((item for item in got if isinstance(item, bool) or not isinstance(item, int)), None)
    if odd is not None:
        fail(f"{call} gave {shown(got)}, but every id must be a whole number, not {shown(odd)}.",
             fix=ENCODE_FIX)
    again = _plain(_encode(code, doc))
    if again != list(got):
        fail(f"{call} gave {shown(list(got))} the first time, but {shown(again)} when called "
             f"again with the same name. {KEPT}", fix=ENCODE_FIX)


@check("BOS at both ends")
def _(code):
    _, bos = _vocabulary()
    for doc in _examples():
        got, want = list(_encode(code, doc)), _want(doc)
        call = f"encode({doc!r})"
        starts, ends = got[:1] == [bos], got[-1:] == [bos]
        if starts and ends and len(got) == len(doc) + 2:
            continue
        seen = f"{call} gave {shown(got)}, but should give {shown(want)}."
        if starts and not ends and len(got) == len(doc) + 1:
            fail(f"{seen} BOS is only at the start. The BOS at the end is what teaches the "
                 "model that a name is over: without it, nothing ever follows the last letter, "
                 "and the model never learns to stop.", fix=ENCODE_FIX)
        if ends and not starts and len(got) == len(doc) + 1:
            fail(f"{seen} BOS is only at the end. The BOS at the start gives the first letter "
                 "something to follow: without it, the model never learns how names begin.",
                 fix=ENCODE_FIX)
        if not starts and not ends:
            fail(f"{seen} There is no BOS ({bos}) at either end: a name is BOS, its ids, BOS.",
                 fix=ENCODE_FIX)
        fail(f"{seen} A name is exactly one BOS, one id per character, and one BOS: "
             f"{len(doc) + 2} ids for {plural(len(doc), 'letter')}.", fix=ENCODE_FIX)


@check("each character becomes its id")
def _(code):
    chars, bos = _vocabulary()
    for doc in _examples():
        got, want = list(_encode(code, doc))[1:-1], _want(doc)[1:-1]
        if got == want:
            continue
        call = f"encode({doc!r})"
        seen = (f"{call} gave the ids {shown(got)} between the two BOS, but the characters "
                f"{listing(repr(ch) for ch in doc)} have the ids {shown(want)}.")
        if got == [i + 1 for i in want]:
            fail(f"{seen} Every id is one too big. {doc[0]!r} is chars[{want[0]}]: positions "
                 f"count from 0, so its id is {want[0]}. And {chars[-1]!r} would get "
                 f"{len(chars)}, the id of BOS. The position chars.index finds is the id "
                 f"already, with nothing added.", fix=ID_FIX)
        fail(f"{seen} A character's id is its position in chars.", fix=ID_FIX)


@check("a character outside chars is an error")
def _(code):
    chars, bos = _vocabulary()
    if all(ch in chars for ch in OUTSIDE):
        return "Every character of the test name is in chars: nothing to check here."
    _encode(code, _examples()[0])  # encode works on a real name: its error would show here
    try:
        got = code.encode(OUTSIDE)
    except Exception:
        return (f"encode({OUTSIDE!r}) stops with an error, because 'ë' is not in chars: a "
                "name with a character the vocabulary lacks is caught at once.")
    got = list(got) if isinstance(got, (list, tuple)) else got
    seen = (f"encode({OUTSIDE!r}) gave {shown(got)}, but 'ë' is in none of the names, so it "
            "has no id: encoding it should stop with an error, as looking 'ë' up in chars "
            "does.")
    ord_ids = [ord(ch) - ord("a") for ch in OUTSIDE]
    if isinstance(got, list) and got[1:-1] == ord_ids:
        fail(f"{seen} ord(ch) - ord('a') counts from 'a' in the alphabet, not along chars. It "
             "gives the same ids as chars.index only while chars is exactly 'a' to 'z', and "
             "quietly makes up ids for anything else ('ë' gets 138, 'E' gets -28). The id of a "
             "character is its position in chars.", fix=ID_FIX)
    if isinstance(got, list) and -1 in got:
        fail(f"{seen} A lookup that gives -1 for a character it cannot find hands the model a "
             "valid position: -1 means the last item in Python, so the model would quietly "
             "read 'ë' as BOS's row. chars.index stops with a ValueError instead.", fix=ID_FIX)
    fail(f"{seen} Looking the character up in chars, with its index method, raises ValueError "
         "for a character that is not in chars, instead of quietly skipping it or making up an "
         "id.", fix=ID_FIX)


@check("decode turns ids back into a name")
def _(code):
    chars, bos = _vocabulary()
    for doc in _examples():
        tokens = _want(doc)
        call = f"decode({tokens!r})"
        try:
            got = code.decode(list(tokens))
        except TypeError as error:
            fail(f"{call} raised TypeError: {error}. ''.join(name) glues texts together, and "
                 "name held something else: for each id, name must get the character at that "
                 "position of chars.", fix=DECODE_FIX)
        except ValueError as error:
            fail(f"{call} raised ValueError: {error}. chars.index goes from a character to its "
                 "id, but decode goes the other way, from an id to its character: the character "
                 "at that position of chars.", fix=DECODE_FIX)
        except Exception as error:
            with calling(call):
                raise error
        if got != doc:
            fail(f"{call} gave {shown(got)}, but should give {doc!r}: for each id between the "
                 "two BOS, the character at that position of chars.", fix=DECODE_FIX)
        with calling(f"{call}, a second time"):
            again = code.decode(list(tokens))
        if again != got:
            fail(f"{call} gave {shown(got)} the first time, but {shown(again)} when called again "
                 f"with the same ids. {KEPT}", fix=DECODE_FIX)


@check("every name of input.txt encodes and decodes back")
def _(code):
    names = _names()
    for doc in names:
        got = _encode(code, doc)
        want = _want(doc)
        if list(got) != want:
            fail(f"encode({doc!r}) gave {shown(list(got))}, but should give {shown(want)}.")
        with calling(f"decode({want!r})"):
            back = code.decode(list(got))
        if back != doc:
            fail(f"decode({want!r}) gave {shown(back)}, but should give back {doc!r}.")
    return f"All {len(names):,} names go to ids and back unchanged."


def _encode_cases(rng):
    """Names the data does not have: longer than block_size, every letter, and random ones."""
    yield from words(lengths=(1, 3, 6, 17, 24))(rng)
    yield Case(repr(ALPHABET), lambda space: (ALPHABET,), "every letter, a to z")
    yield Case(repr(ALPHABET[::-1] * 2), lambda space: (ALPHABET[::-1] * 2,),
               "every letter twice, z to a: 52 letters")


def _ids_of(space, word):
    return [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS]


def _decode_cases(rng):
    """Token lists of names the data does not have, built with each side's own vocabulary."""
    for case in _encode_cases(rng):
        word = case.make(None)[0]
        note = f"the ids of {word!r}" + (f", {case.note}" if case.note else "")
        yield Case(shown(_want(word)), lambda space, word=word: (_ids_of(space, word),), note)


agrees("encode", _encode_cases, name="encode on names the data does not have, twice each")
agrees("decode", _decode_cases, name="decode on ids the data does not give, twice each")


@check("encode and decode with another names file")
def _(code):
    files = {"input.txt": OWN_NAMES}
    with calling("your file, run again with a names file of our own as input.txt"):
        theirs = rerun(code, files)
    ours = rerun(reference(code), files)
    names = OWN_NAMES.split()
    told = (f"With a names file of our own as input.txt ({', '.join(map(repr, names))}), chars "
            f"is {shown(ours.chars)} and BOS is {ours.BOS}")
    for doc in names:
        want = ours.encode(doc)
        try:
            got = _plain(theirs.encode(doc))
        except ValueError as error:
            fail(f"{told}, so encode({doc!r}) should give {shown(want)}, but yours raised "
                 f"ValueError: {error}, although every character of {doc!r} is in that chars. "
                 f"An id is the position of the character in chars, whatever chars holds: a "
                 f"names file with a hyphen or an accent has a vocabulary of its own.",
                 fix=ID_FIX)
        except Exception as error:
            with calling(f"encode({doc!r}) with that names file"):
                raise error
        if got != want:
            alphabet = [ALPHABET.index(ch) for ch in doc if ch in ALPHABET]
            letters = (f" Between the two BOS, {shown(got[1:-1])} are the places of the letters "
                       f"in the alphabet, 'a' to 'z', not their positions in this file's chars."
                       if isinstance(got, list) and got[1:-1] == alphabet else "")
            fail(f"{told}, so encode({doc!r}) should give {shown(want)}, but yours gave "
                 f"{shown(got)}.{letters} An id is the position of the character in chars, "
                 f"whatever chars holds: a names file with a hyphen or an accent has a "
                 f"vocabulary of its own.", fix=ID_FIX)
        with calling(f"decode({want!r}) with that names file"):
            back = theirs.decode(list(want))
        if back != doc:
            fail(f"{told}, so decode({want!r}) should give {doc!r}, but yours gave "
                 f"{shown(back)}. Each id is read back as the character at that position of "
                 f"chars, whatever chars holds.", fix=DECODE_FIX)
    return "encode and decode follow the names file: its own characters, its own ids."

