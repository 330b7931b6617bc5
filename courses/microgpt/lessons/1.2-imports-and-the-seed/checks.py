"""Checks for lesson 1.2: math and random are imported, and random is seeded with 42 before the
shuffle, so docs comes out in the same order on every run.

Python's random numbers come from one generator that the learner's file and these checks share
(the `random` module). The checks never draw from it: they read its state and compare with fresh
`random.Random(seed)` generators of their own. The names are read from input.txt here, so any
names file works.

How a wrong order is diagnosed, cheaply: `random.shuffle` swaps the last place first, with one
draw of `randrange(len(docs))`, so the name that ends up last tells which seeds are possible
before any full shuffle is replayed.
"""
import random
import types

from linebyline.runtime import CheckFailed, check, fail, listing, number, shown

SEED = 42
OTHER_SEEDS = range(0, 1001)  # seeds a learner might type instead of 42, tried one by one
EXTRA_DRAWS = (1, 2, 3)  # random numbers drawn between the seed and the shuffle, tried
SEED_FIX = ("Seed with the number 42 right after the imports, above the line that reads docs: "
            "`random.seed(42)`.")


def _names():
    """The names of input.txt, in the file's order, as the docs line reads them."""
    with open("input.txt", encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


def _shuffled(names, seed, draws_before=0):
    """The names as random.seed(seed), `draws_before` random() calls, then a shuffle leave them."""
    generator = random.Random(seed)
    for _ in range(draws_before):
        generator.random()
    order = list(names)
    generator.shuffle(order)
    return order


def _start(names):
    return listing([shown(name) for name in names[:3]]) + " ..."


def _defined(code, name):
    try:
        return getattr(code, name)
    except CheckFailed:
        return None


def _other_seed(names, docs):
    """The seed (other than 42) whose shuffle gives docs, if it is a small whole number."""
    for seed in OTHER_SEEDS:
        if seed == SEED:
            continue
        if names[random.Random(seed).randrange(len(names))] != docs[-1]:
            continue  # the last place is filled by the first draw: this seed cannot give docs
        if _shuffled(names, seed) == docs:
            return seed
    return None


@check("math and random are imported")
def _(code):
    for name in ("random", "math"):
        found = _defined(code, name)
        # The module itself, by its name: the checks hold their own copy of it, not the same object.
        if isinstance(found, types.ModuleType) and found.__name__ == name:
            continue
        fix = f"At the top of the file, next to the other import: `import {name}`."
        if found is None:
            fail(f"Your file never imports {name}: the name `{name}` is not defined, so nothing "
                 f"of the {name} module can be used. The program needs both modules, math and "
                 f"random, imported at its top.", fix=fix)
        fail(f"`{name}` should be the {name} module, but your file sets it to {shown(found)}: "
             f"a variable called `{name}` replaces the module. Import the module, and give "
             f"your variables other names.", fix=fix)


@check("random is seeded with 42 before the shuffle")
def _(code):
    names = _names()
    want = _shuffled(names, SEED)
    docs = code.docs
    if docs == want:
        return
    if not isinstance(docs, list) or sorted(docs) != sorted(names):
        fail(f"docs should hold the {number(len(names))} names of input.txt, but it is "
             f"{shown(docs)}. The line that reads and shuffles the names was given: was it "
             "changed?")
    told = f"Seeded with 42 before the shuffle, docs starts {_start(want)} on every run."
    if random.getstate() == random.Random(SEED).getstate():
        fail(f"Your seed runs after the shuffle of docs: when the file ends, the random numbers "
             f"stand exactly where seed 42 starts them, so the shuffle drew its numbers before "
             f"the seed was set, from a different start on every run. {told} A seed only fixes "
             "the draws that come after it, so it belongs above the line that reads docs.",
             fix="Move the seed up, between the imports and the line that reads docs.")
    if docs == _shuffled(names, str(SEED)):
        fail(f"docs is shuffled the way random.seed('42') shuffles it: the seed is the text "
             f"'42', and a text seed starts the numbers somewhere else than the number 42. "
             f"{told} The seed must be the whole number, without quotes.", fix=SEED_FIX)
    for draws in EXTRA_DRAWS:
        if docs == _shuffled(names, SEED, draws):
            fail(f"Between your seed and the shuffle, your file draws "
                 f"{'a random number' if draws == 1 else f'{draws} random numbers'}, so the "
                 f"shuffle starts from a later point of the sequence. {told} Keep the seed "
                 "right before the line that reads and shuffles docs, with no other random "
                 "call in between.", fix="Remove the random call between the seed and the "
                 "shuffle, or move it under `if __name__ == \"__main__\":`.")
    seed = _other_seed(names, docs)
    if seed is not None:
        fail(f"docs is shuffled the way random.seed({seed}) shuffles it: it starts "
             f"{_start(docs)} {told} Any seed makes runs repeat, but every number in this "
             "course (and the names microgpt invents) comes from seed 42.", fix=SEED_FIX)
    fail(f"docs is in none of the orders that the seeds 0 to {OTHER_SEEDS[-1]} give, 42 "
         f"included. {told} Is there a seed before the shuffle? Without one, Python starts "
         "its random numbers from a fresh value taken from the computer each run, so every "
         "run shuffles differently.", fix=SEED_FIX)


@check("the next draws are the ones seed 42 gives")
def _(code):
    names = _names()
    if code.docs != _shuffled(names, SEED):
        fail("The draws after the shuffle can only be the ones seed 42 gives once the shuffle "
             "itself is: fix the check above first.")
    generator = random.Random(SEED)
    generator.shuffle(list(names))
    if random.getstate() != generator.getstate():
        fail("docs is in the right order, but after the shuffle your file draws more random "
             "numbers (or seeds again), outside the demo. microgpt draws every starting weight "
             "and every invented name from this same sequence, so one extra draw changes all "
             "of them. Remove the extra random call, or move it under "
             "`if __name__ == \"__main__\":`.")
    return (f"After seed 42 and the shuffle, the next random number will be "
            f"{generator.random():.6f}, on every run.")
