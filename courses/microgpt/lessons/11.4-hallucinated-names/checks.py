"""Checks for lesson 11.4: the names the training steps read, the data side of "is it new?".

training_names() must list, for each of the num_steps steps, the name that step reads: docs in
order, from the first again when the steps outnumber the names. The bundled names outnumber
microgpt's 1,000 steps, so the second check hands the function a short docs of its own, where
reading docs[step] runs off the end; the last one compares it with ours on more such data.
"""
from linebyline.runtime import Case, agrees, calling, check, fail, listing, plural, replacing, shown

FIX = "`doc = docs[step % len(docs)]`"


def _names(code, docs=None, steps=None):
    """training_names(), on the learner's own docs and num_steps unless others are given."""
    docs = code.docs if docs is None else docs
    steps = code.num_steps if steps is None else steps
    with replacing(code, "docs", docs), replacing(code, "num_steps", steps), \
            calling("training_names()" if steps == code.num_steps and docs is code.docs else
                    f"training_names() with docs = {shown(docs)} and num_steps = {steps}"):
        return code.training_names()


def _first_off(got, want):
    for index, (a, b) in enumerate(zip(got, want)):
        if a != b:
            return index
    return None


@check("training_names() lists the name of every step")
def _(code):
    want = [code.docs[step % len(code.docs)] for step in range(code.num_steps)]
    before = list(code.docs)
    got = _names(code)
    if code.docs != before:
        moved = next((i for i, (a, b) in enumerate(zip(code.docs, before)) if a != b), None)
        told = (f"docs[{moved}] was {before[moved]!r} before the call and is {code.docs[moved]!r} "
                "after it" if moved is not None else
                f"docs held {len(before):,} names before the call and {len(code.docs):,} after it")
        fail(f"training_names() changed docs: {told}. It must only read docs: training and "
             "sampling use the same list afterwards, in its order.",
             fix=FIX if got == want else "")
    if not isinstance(got, list):
        fail(f"training_names() returned {shown(got)}, but it must return a list of names.")
    if len(got) != len(want):
        fail(f"training_names() returned {plural(len(got), 'name')}, but training takes num_steps = "
             f"{code.num_steps} steps, and each reads one name: {len(want)} names.")
    off = _first_off(got, want)
    if off is None:
        again = _names(code)
        if again != want:
            fail(f"Called once, training_names() returned the {len(want):,} names of the "
                 f"steps; called a second time, it returned {len(again):,} names"
                 + (f", starting with {shown(again[:2])}" if isinstance(again, list) else "")
                 + ": the first call's names were still in the list. The list of names must "
                 "be made new in each call, inside the function.",
                 fix="`names = []`, first in training_names")
        return
    if got == [code.docs[(step + 1) % len(code.docs)] for step in range(code.num_steps)]:
        fail(f"training_names() starts with {shown(got[:3])}, but step 0 reads docs[0] = "
             f"{code.docs[0]!r}: the name of step k is docs[k], one further than yours.", fix=FIX)
    fail(f"Step {off} reads {want[off]!r} (docs[{off}]), but training_names() says "
         f"{got[off]!r}. The steps read docs in order, one name each.", fix=FIX)


SHORT_DOCS = ["ada", "bo", "cyrus"]


@check("with more steps than names, the steps start again from the first")
def _(code):
    steps = 7
    said = f"With docs = {shown(SHORT_DOCS)} and num_steps = {steps}, training_names()"
    want = [SHORT_DOCS[step % len(SHORT_DOCS)] for step in range(steps)]
    try:
        got = _names(code, list(SHORT_DOCS), steps)
    except IndexError as error:
        first = _first_failing_step(code, steps)
        if first != len(SHORT_DOCS):
            fail(f"{said} raised IndexError: {error}, at step {first}, where docs still has a "
                 f"name to read: {SHORT_DOCS[first % len(SHORT_DOCS)]!r}. The index of step "
                 f"{first} must be one docs has, from 0 to {len(SHORT_DOCS) - 1}.", fix=FIX)
        fail(f"{said} raised IndexError: {error}. At step {len(SHORT_DOCS)} there are no names "
             f"left: docs holds {len(SHORT_DOCS)}, at docs[0] to docs[{len(SHORT_DOCS) - 1}]. "
             f"microgpt's {code.num_steps:,} steps never run out of the {len(code.docs):,} names "
             "here, but "
             "with a smaller file (or more steps) they would: after the last name, the steps "
             "start again from docs[0], whatever the number of names: the remainder of step "
             "divided by the number of names.", fix=FIX)
    if got == want:
        return
    if isinstance(got, list) and len(got) != steps:
        fail(f"{said} returned {plural(len(got), 'name')}, but each of the {steps} steps reads "
             f"one name: {listing(repr(n) for n in want)}. The names follow num_steps, whatever "
             f"its value (microgpt's is {code.num_steps:,})."
             if len(got) == code.num_steps else
             f"{said} returned {plural(len(got), 'name')}, but each of the {steps} steps reads "
             f"one name: {listing(repr(n) for n in want)}.")
    fail(f"{said} returned {shown(got)}, but the steps read {listing(repr(n) for n in want)}: "
         "docs in order, then from the first again.", fix=FIX)


def _first_failing_step(code, steps):
    """The first step at which training_names() raises IndexError on SHORT_DOCS."""
    for count in range(1, steps + 1):
        try:
            _names(code, list(SHORT_DOCS), count)
        except IndexError:
            return count - 1
    return steps


def _read(space, args):
    docs, steps = args
    with replacing(space, "docs", docs), replacing(space, "num_steps", steps):
        return space.training_names()


def _datasets(rng):
    letters = "abcdefghijklmnopqrstuvwxyz"
    for size, steps in ((5, 3), (4, 10), (1, 4), (40, 100), (3, 30)):
        docs = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 7)))
                for _ in range(size)]
        note = "more steps than names" if steps > size else ""
        yield Case(f"docs = {shown(docs) if size <= 5 else f'{size} names'}, num_steps = {steps}",
                   lambda space, docs=docs, steps=steps: (list(docs), steps), note)


agrees("training_names", _datasets, call=_read, label="{function}() with {text}",
       name="training_names() agrees with ours on other data, twice each")
