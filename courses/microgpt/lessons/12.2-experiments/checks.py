"""Checks for lesson 12.2: experiment() trains a fresh microgpt on any data, at any size, and two
runs with the same settings give the same numbers.

Every experiment here is tiny (n_embd 4, two heads, a few steps on a few documents), so the
checks take seconds. In order: the same experiment twice (the seed), the same experiment with
two other seeds (the seed is the experiment's own), a data set with characters the names do not
have (the vocabulary), documents shorter and longer than block_size (the positions scored), the
learning rate of every step (the decay), then experiment() against ours on new data and sizes.
"""
from linebyline.runtime import Case, agrees, calling, check, close, fail, number, reference

TINY = {"n_embd": 4, "n_head": 2, "block_size": 4}
SEED_FIX = "random.seed(seed)  # this run's own draws: same seed, same shuffle, same weights"
CHARS_FIX = "chars = sorted(set(''.join(docs)))"
N_FIX = "n = min(block_size, len(tokens) - 1)"
LR_FIX = "lr = learning_rate * (1 - step / num_steps)"


def _run(code, docs, **settings):
    settings = {**TINY, "num_steps": 2, **settings}
    shown = ", ".join(f"{key}={value}" for key, value in settings.items())
    with calling(f"experiment({docs!r}, {shown})"):
        return code.experiment(docs, **settings)


def _losses(values):
    return "[" + ", ".join(number(round(x, 4)) for x in values) + "]"


def _rates(values):
    return "[" + ", ".join(f"{x:.6g}" for x in values) + "]"


# Two small data sets: whichever line is still wrong, one of them runs (that line is checked
# below, with its own message), so the seed is judged on its own.
SEED_DATA = (["a", "b", "ab", "ba"], ["abcd", "bcda"])


@check("the same experiment twice gives the same losses")
def _(code):
    code.random.seed(0)  # where the draws start if experiment() does not seed: the same every time
    for docs in SEED_DATA:
        try:
            first = _run(code, docs)["losses"]
        except (IndexError, ValueError):
            if docs is SEED_DATA[-1]:
                raise
            continue
        second = _run(code, docs)["losses"]
        if first != second:
            fail(f"experiment({docs!r}) with the same settings, run twice, gave losses "
                 f"{_losses(first)} and then {_losses(second)}. Each run shuffled its documents "
                 f"and drew its weights from wherever the random numbers happened to be, so a "
                 f"difference between two experiments could come from the draws rather than "
                 f"from the setting you changed.", fix=SEED_FIX)
        return f"Twice {_losses(first)}: the same draws, the same numbers."


@check("another seed gives other losses")
def _(code):
    for docs in SEED_DATA:
        try:
            first = _run(code, docs, seed=1)["losses"]
        except (IndexError, ValueError):
            if docs is SEED_DATA[-1]:
                raise
            continue
        second = _run(code, docs, seed=2)["losses"]
        if first == second:
            told = (f"experiment({docs!r}) with seed=1 and with seed=2 gave the same losses, "
                    f"{_losses(first)}")
            if _run(code, docs)["losses"] == first:
                fail(told + ": the losses of seed=42, the default. The random numbers were "
                     "seeded with 42 whatever the seed parameter said, so every experiment "
                     "starts from microgpt's draws, and no run can show how much of a "
                     "difference the draws alone make.", fix=SEED_FIX)
            fail(told + ". The random numbers started in the same place whatever the seed "
                 "parameter said: an experiment's draws must come from its own seed.",
                 fix=SEED_FIX)
        return (f"seed=1 gives {_losses(first)}, seed=2 {_losses(second)}: each run draws "
                f"from its own seed.")


# Data of one character, whose id is 0 whatever order chars is in: a short name, and one
# longer than block_size.
ONE_CHARACTER = (["aa"], ["aaaaaaa"])


def _ids_alone(code):
    """Whether experiment() agrees with ours on data of one character, where the order of chars
    cannot change any id: then a loss that differs elsewhere comes from the ids. (When it differs
    here too, something else differs, the positions scored say, and chars is not to blame.)"""
    for docs in ONE_CHARACTER:
        try:
            mine = _run(code, docs, num_steps=1)["losses"][0]
        except Exception:
            return False
        ours = reference(code).experiment(docs, **TINY, num_steps=1)["losses"][0]
        if not close(mine, ours, 1e-9, 1e-12):
            return False
    return True


@check("the vocabulary is the data's own characters")
def _(code):
    docs = ["zoë", "ana"]
    try:
        got = _run(code, docs)
    except ValueError as error:
        fail(f"experiment({docs!r}) raised ValueError: {error}, when a document's character "
             f"was looked up in chars. chars must hold every character of this data set, "
             f"{''.join(sorted(set(''.join(docs))))!r}: other data, other characters"
             + f" ({str(error).split()[0]} is in the data, but not in chars).",
             fix=CHARS_FIX)
    want = reference(code).experiment(docs, **TINY, num_steps=2)
    if got["vocab_size"] != want["vocab_size"]:
        fail(f"On {docs!r}, vocab_size is {got['vocab_size']}, but this data set has "
             f"{want['vocab_size'] - 1} characters, plus BOS: {want['vocab_size']}. A token "
             f"that never appears in the data only adds rows to learn nothing with.",
             fix=CHARS_FIX)
    if not close(got["losses"][0], want["losses"][0], 1e-9, 1e-12) and _ids_alone(code):
        fail(f"On {docs!r}, vocab_size is right ({got['vocab_size']}) and the seed is the same "
             f"as ours, but the first loss is {number(got['losses'][0])} where ours is "
             f"{number(want['losses'][0])}, while on {ONE_CHARACTER[0]!r} and "
             f"{ONE_CHARACTER[1]!r}, whose one character can only get id 0, yours and ours are "
             "the same: the same weights scored other token ids. "
             "Ids follow the characters in sorted order, the same in every run.", fix=CHARS_FIX)
    return f"On {docs!r}: vocab_size {got['vocab_size']}, the 5 characters and BOS."


@check("every position is scored, at most block_size")
def _(code):
    for docs, what in ((["ab"], "a 2-letter document"),
                       (["abcdefghij"], "a 10-letter document, with block_size 4")):
        try:
            got = _run(code, docs, num_steps=1)
        except IndexError as error:
            if len(docs[0]) > TINY["block_size"]:
                fail(f"experiment({docs!r}, block_size=4) raised IndexError: {error}, on "
                     f"{what}. It has {len(docs[0]) + 1} next tokens to predict, but the model "
                     f"has positions 0 to 3 only (wpe has block_size rows): positions past "
                     f"block_size - 1 must not be scored.", fix=N_FIX)
            fail(f"experiment({docs!r}) raised IndexError: {error}, on {what}. Its tokens are "
                 f"BOS a b BOS: 3 positions have a next token, and a fourth reads past the end.",
                 fix=N_FIX)
        want = reference(code).experiment(docs, **TINY, num_steps=1)
        if not close(got["losses"][0], want["losses"][0], 1e-9, 1e-12):
            tokens = len(docs[0]) + 2
            scored = min(TINY["block_size"], tokens - 1)
            why = (f"{tokens - 1} of its {tokens} tokens have a next one, but only "
                   f"block_size = {TINY['block_size']} positions fit" if scored < tokens - 1
                   else f"its {tokens} tokens, BOS {' '.join(docs[0])} BOS, have {scored} with "
                   "a next one, all within block_size")
            fail(f"On {what}, the loss is {number(got['losses'][0])}, but ours is "
                 f"{number(want['losses'][0])}, the mean of the losses at its first {scored} "
                 f"positions ({why}). Yours is not that mean: it scored another number of "
                 "positions.", fix=N_FIX)
    return "A 2-letter document scores 3 positions; a 10-letter one, block_size = 4."


@check("the learning rate decays to zero over the run's own steps")
def _(code):
    got = _run(code, ["ava", "bob"], num_steps=4)["rates"]
    want = [0.01 * (1 - step / 4) for step in range(4)]
    if all(close(a, b, 1e-9, 1e-15) for a, b in zip(got, want)) and len(got) == 4:
        return "With num_steps=4: 0.01, 0.0075, 0.005, 0.0025."
    told = (f"With num_steps=4, the learning rates were {_rates(got)}, but they decay from "
            f"0.01 towards 0 over the run's 4 steps: {_rates(want)}. ")
    if all(close(a, 0.01, 1e-12) for a in got):
        fail(told + "Yours never changes: the steps near the end move the weights as far as "
             "the first.", fix=LR_FIX)
    if all(close(a, 0.01 * (1 - step / 1000), 1e-9) for step, a in enumerate(got)):
        fail(told + "Yours decays over microgpt's 1,000 steps, so a shorter experiment ends "
             "with almost the full learning rate, and experiments of different lengths are "
             "not decayed alike.", fix=LR_FIX)
    if all(close(a, 0.01 * (1 - (step + 1) / 4), 1e-9, 1e-15) for step, a in enumerate(got)):
        fail(told + "Yours is one step ahead: the first step already uses less than 0.01, and "
             "the last uses 0, a step that changes nothing.", fix=LR_FIX)
    fail(told, fix=LR_FIX)


def _cases(rng):
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 6))) for _ in range(4)]
    yield Case(f"{names!r}, n_layer=1, n_embd=4, n_head=2, block_size=4, num_steps=3",
               lambda space: (names, 1, 4, 3, 4, 2))
    yield Case(f"{names!r}, n_layer=2, n_embd=4, n_head=2, block_size=4, num_steps=2",
               lambda space: (names, 2, 4, 2, 4, 2), "two layers")
    other = ["Émile-Zoë", "x1"]
    yield Case(f"{other!r}, n_layer=1, n_embd=4, n_head=2, block_size=4, num_steps=2",
               lambda space: (other, 1, 4, 2, 4, 2),
               "another data set: capitals, accents, a digit, a name longer than block_size")


def _compare(got, want):
    if not isinstance(got, dict):
        return f"it returned {type(got).__name__}, not the dict of results"
    for key in ("vocab_size", "params"):
        if got.get(key) != want[key]:
            return f"{key} is {got.get(key)!r} but should be {want[key]!r}"
    for key in ("losses", "rates"):
        mine, ours = got.get(key) or [], want[key]
        if len(mine) != len(ours):
            return f"there are {len(mine)} {key} but should be {len(ours)}"
        for step, (a, b) in enumerate(zip(mine, ours)):
            if not close(a, b, 1e-9, 1e-12):
                said = {"losses": "loss", "rates": "learning rate"}[key]
                return f"at step {step + 1}, the {said} is {number(a)} but should be {number(b)}"
    return ""


agrees("experiment", _cases, compare=_compare, name="experiment() on other data and sizes, twice each")
