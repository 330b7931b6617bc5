"""Checks for lesson 1.6: encode wraps a name's ids in BOS, and decode reads the ids back.

The vocabulary is worked out here from input.txt, independently of the learner's file, so any
names file works. Any way of writing encode passes (a comprehension, a loop, a dict from
character to id) as long as it gives the same ids, and stops with an error on a character that
is not in chars. The last check encodes and decodes every name of input.txt.
"""
from functools import cache

from linebyline.runtime import calling, check, fail, listing, shown

EXAMPLES = ["emma", "zoe", "ava"]
OUTSIDE = "zoë"  # 'ë' is in no name of the bundled file


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
         "a method of texts. A list's way to find an item's position is index: "
         "chars.index(ch).")


def _examples():
    """The example names that use only characters of chars."""
    chars, _ = _vocabulary()
    return [doc for doc in EXAMPLES if all(ch in chars for ch in doc)] or [_names()[0]]


@check("encode gives a list of ids")
def _(code):
    doc = _examples()[0]
    got = _encode(code, doc)
    call = f"encode({doc!r})"
    if isinstance(got, str):
        fail(f"{call} gave the text {shown(got)}, but the model reads a list of ids, one whole "
             f"number per token, like {shown(_want(doc))}. Build a list: "
             "[BOS] + [ ... ] + [BOS].")
    if not isinstance(got, (list, tuple)):
        fail(f"{call} should give a list of ids like {shown(_want(doc))}, but gave {shown(got)}.")
    if not got:
        fail(f"{call} gave an empty list, but it should give {shown(_want(doc))}: BOS, one id per "
             "character, BOS.")
    nested = next((item for item in got if isinstance(item, (list, tuple))), None)
    if nested is not None:
        fail(f"{call} gave {shown(got)}: a list inside the list. `[BOS, [...], BOS]` makes a "
             "list of three items. Join the lists with +: [BOS] + [...] + [BOS] gives one flat "
             "list.")
    letters = [item for item in got if isinstance(item, str)]
    if letters:
        fail(f"{call} gave {shown(got)}: the characters themselves, not their ids. The model "
             "only reads numbers: turn each character into its position in chars, "
             "chars.index(ch).")
    odd = next((item for item in got if isinstance(item, bool) or not isinstance(item, int)), None)
    if odd is not None:
        fail(f"{call} gave {shown(got)}, but every id must be a whole number, not {shown(odd)}.")


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
                 "and the model never learns to stop. Add + [BOS] at the end.")
        if ends and not starts and len(got) == len(doc) + 1:
            fail(f"{seen} BOS is only at the end. The BOS at the start gives the first letter "
                 "something to follow: without it, the model never learns how names begin. "
                 "Put [BOS] + in front.")
        if not starts and not ends:
            fail(f"{seen} There is no BOS ({bos}) at either end: a name is BOS, its ids, BOS.")
        fail(f"{seen} A name is exactly one BOS, one id per character, and one BOS: "
             f"{len(doc) + 2} ids for {len(doc)} letters.")


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
                 f"{len(chars)}, the id of BOS. Use chars.index(ch) as it is.")
        fail(f"{seen} A character's id is its position in chars: chars.index(ch).")


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
            "has no id: encoding it should stop with an error, as chars.index('ë') does.")
    ord_ids = [ord(ch) - ord("a") for ch in OUTSIDE]
    if isinstance(got, list) and got[1:-1] == ord_ids:
        fail(f"{seen} ord(ch) - ord('a') counts from 'a' in the alphabet, not along chars. It "
             "gives the same ids as chars.index only while chars is exactly 'a' to 'z', and "
             "quietly makes up ids for anything else ('ë' gets 138, 'E' gets -28). The id of a "
             "character is its position in chars: use chars.index(ch).")
    if isinstance(got, list) and -1 in got:
        fail(f"{seen} chars.find gives -1 for a character it cannot find, and -1 is a valid "
             "position in Python: it means the last item. The model would quietly read 'ë' as "
             "BOS's row. chars.index(ch) stops with a ValueError instead: use it.")
    fail(f"{seen} Use chars.index(ch), which raises ValueError for a character that is not in "
         "chars, instead of quietly skipping it or making up an id.")


@check("decode turns ids back into a name")
def _(code):
    chars, bos = _vocabulary()
    for doc in _examples():
        tokens = _want(doc)
        call = f"decode({tokens!r})"
        try:
            got = code.decode(list(tokens))
        except TypeError:
            fail(f"{call} raised TypeError: ''.join(name) needs characters, and name holds "
                 "something else, probably the ids themselves. Append the character whose id "
                 "is token: chars[token].")
        except ValueError:
            fail(f"{call} raised ValueError: chars.index goes from a character to its id, but "
                 "decode goes the other way, from an id to its character. Look the id up by "
                 "position: chars[token].")
        except Exception as error:
            with calling(call):
                raise error
        if got != doc:
            fail(f"{call} gave {shown(got)}, but should give {doc!r}: for each id between the "
                 "two BOS, the character at that position, chars[token].")


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
