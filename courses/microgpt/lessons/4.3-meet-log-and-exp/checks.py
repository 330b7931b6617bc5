"""Checks for lesson 4.3, Meet log and exp: the surprise -log p, and its average over a name.

The checks set the learner's `counts` table to their own numbers (and put it back afterwards),
then compare position_loss and name_loss with -log p worked out here. Wrong logs are recognised
by the number they give: no minus sign, base 10 or 2, the log of the count instead of the
probability. The third check uses module 2's real counts of the names in input.txt. The lines to
write are held back in `fix`.

The last check compares name_loss with ours on count tables and names of its own, each twice:
among them a name longer than block_size, whose loss averages only its first n positions, and a
count so far above the rest of its row that a probability comes out near 0.000001, where a
surprise taken of p plus a small safety number is no longer the surprise of p.
"""
import math
import random

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, shown

SURPRISE_FIX = "Return the surprise: `return -math.log(probs[target])`."
APPEND_FIX = "In the loop: `losses.append(position_loss(tokens[pos], tokens[pos + 1], n))`."
AVERAGE_FIX = "Return the average: `return (1 / n) * sum(losses)`."


class _Counts:
    """Set the learner's counts to other numbers for a while, then put every number back."""

    def __init__(self, counts, rows):
        self.counts, self.rows, self.saved = counts, rows, [list(row) for row in counts]

    def __enter__(self):
        for r, row in enumerate(self.counts):
            row[:] = [1.0] * len(row)
        for r, changes in self.rows.items():
            for k, value in changes.items():
                self.counts[r][k] = value
        return self.counts

    def __exit__(self, *exc):
        for row, saved in zip(self.counts, self.saved):
            row[:] = saved
        return False


def _name(code, token):
    return "BOS" if token == code.BOS else repr(code.chars[token])


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


@check("the surprise of one token")
def _(code):
    chars, BOS = code.chars, code.BOS
    e, m, a = (chars.index(ch) for ch in "ema")
    # after BOS: e counted 3 times, everything else once, so p(e | BOS) = 3 / 29
    setting = "every count at 1 except BOS -> 'e', which is 3"
    with _Counts(code.counts, {BOS: {e: 3.0}}) as counts:
        for token, target in [(BOS, e), (BOS, a), (m, a)]:
            call = f"position_loss({token}, {target}, 5)"
            with calling(call):
                got = code.position_loss(token, target, 5)
            count, total = counts[token][target], sum(counts[token])
            p = count / total
            want = -math.log(p)
            if _is_number(got) and close(got, want):
                continue
            seen = (f"With {setting}, `{call}` (the ids of {_name(code, token)} and "
                    f"{_name(code, target)}) gave {shown(got)}, but should give {number(want)}: "
                    f"the probability of {_name(code, target)} after {_name(code, token)} is "
                    f"{number(count)} / {number(total)} = {number(p)}, and its surprise is "
                    f"-log p = {number(want)}.")
            if not _is_number(got):
                fail(f"{seen} position_loss must return a number.", fix=SURPRISE_FIX)
            if close(got, -want):
                fail(f"{seen} Yours is below 0: log p is negative for any p below 1, so the "
                     "surprise needs a minus sign in front of the log.", fix=SURPRISE_FIX)
            if close(got, want / math.log(10)) or close(got, want / math.log(2)):
                base = "10" if close(got, want / math.log(10)) else "2"
                fail(f"{seen} Yours is the log in base {base}. The loss of train1.py and "
                     "microgpt.py uses the natural log, math.log, whose slope is exactly 1 / x.",
                     fix=SURPRISE_FIX)
            if close(got, -math.log(count)) or close(got, math.log(count)):
                fail(f"{seen} Yours is the log of the count, {number(count)}. The surprise is the "
                     "log of the probability, probs[target]: the count divided by the row's "
                     "total.", fix=SURPRISE_FIX)
            if close(got, 0) and not close(want, 0):
                fail(f"{seen} position_loss still returns 0.0, the starter's placeholder.",
                     fix=SURPRISE_FIX)
            fail(seen, fix=SURPRISE_FIX)


def _ignores_counts(code, tokens, n):
    """A sentence when name_loss gives the same loss for two different tables of counts."""
    first = tokens[0]
    with _Counts(code.counts, {}):
        with calling(f"name_loss({shown(tokens)}, {n})` with every count at 1"):
            even = code.name_loss(tokens, n)
    with _Counts(code.counts, {first: {tokens[1]: 50.0}}):
        with calling(f"name_loss({shown(tokens)}, {n})` with one count at 50"):
            raised = code.name_loss(tokens, n)
    if _is_number(even) and _is_number(raised) and close(even, raised):
        return (f"Yours gave the same loss, {number(even)}, with every count at 1 and with the "
                f"count of {_name(code, first)} -> {_name(code, tokens[1])} raised to 50: it does "
                "not follow the counts as they are now. Something worked out from the counts is "
                "kept from an earlier call (in a list or dict made outside the function).")
    return ""


@check("the average over a name")
def _(code):
    chars, BOS = code.chars, code.BOS
    e, m, a = (chars.index(ch) for ch in "ema")
    # the first letter 'e' counted 4 times and the pair m -> m 2 times: every position differs
    with _Counts(code.counts, {BOS: {e: 4.0}, m: {m: 2.0}, e: {e: 6.0}}) as counts:
        tokens = [BOS, e, m, m, a, BOS]
        probs = [counts[x][y] / sum(counts[x]) for x, y in zip(tokens, tokens[1:])]
        losses = [-math.log(p) for p in probs]
        setting = "the counts of BOS -> 'e', 'e' -> 'e' and 'm' -> 'm' raised to 4, 6 and 2"
        for n in (5, 3):
            call = f"name_loss({shown(tokens)}, {n})"
            with calling(call):
                got = code.name_loss(tokens, n)
            want = sum(losses[:n]) / n
            if _is_number(got) and close(got, want):
                continue
            parts = " + ".join(number(loss) for loss in losses[:n])
            seen = (f"With {setting}, `{call}` (the tokens of 'emma') gave {shown(got)}, but should "
                    f"give {number(want)}: the surprises of the first {n} positions are {parts}, "
                    f"and their average is {number(want)}.")
            if not _is_number(got):
                fail(f"{seen} name_loss must return a number.", fix=AVERAGE_FIX)
            if close(got, sum(losses[:n])):
                fail(f"{seen} Yours is their sum. The loss is an average, so that long and short "
                     "names count alike: the sum times 1 / n.", fix=AVERAGE_FIX)
            if close(got, sum(losses[:n]) / len(tokens)):
                fail(f"{seen} Yours divides by len(tokens), {len(tokens)}, but a name of "
                     f"{len(tokens)} tokens has only {len(tokens) - 1} positions that predict a "
                     "next token, and name_loss is told to use the first n: the average is over "
                     "n.", fix=AVERAGE_FIX)
            same = [-math.log(counts[x][x] / sum(counts[x])) for x in tokens[:n]]
            if close(got, sum(same) / n):
                fail(f"{seen} Yours asked each token to predict itself: the target of position "
                     "pos is the token after it, tokens[pos + 1].", fix=APPEND_FIX)
            if close(got, 0):
                fail(f"{seen} name_loss still returns 0.0: each position's surprise has to go "
                     "into losses, and their average come back.", fix=APPEND_FIX)
            kept = _ignores_counts(code, tokens, n)
            if kept:
                fail(f"{seen} {kept}", fix="Work the probabilities out from counts at every call, "
                     "as the starter's line does: `probs = [c / sum(counts[token]) for c in "
                     "counts[token]]`.")
            fail(seen, fix=APPEND_FIX)


@check("the loss of real names")
def _(code):
    # Module 2's model: every pair counted in the names of input.txt, starting from 1.
    chars, BOS = code.chars, code.BOS
    docs = [line.strip() for line in open("input.txt", encoding="utf-8") if line.strip()]
    real = [[1.0] * len(code.counts) for _ in code.counts]
    ids = {ch: i for i, ch in enumerate(chars)}
    for doc in docs:
        tokens = [BOS] + [ids[ch] for ch in doc] + [BOS]
        for x, y in zip(tokens, tokens[1:]):
            real[x][y] += 1
    rows = {r: dict(enumerate(row)) for r, row in enumerate(real)}
    with _Counts(code.counts, rows) as counts:
        for doc in docs[:40]:
            tokens = [BOS] + [chars.index(ch) for ch in doc] + [BOS]
            n = min(16, len(tokens) - 1)
            with calling(f"name_loss({shown(tokens)}, {n})"):
                got = code.name_loss(tokens, n)
            want = sum(-math.log(counts[x][y] / sum(counts[x]))
                       for x, y in zip(tokens[:n], tokens[1:n + 1])) / n
            if not _is_number(got) or not close(got, want):
                fail(f"With module 2's counts of the names in input.txt, name_loss for {doc!r} "
                     f"gave {shown(got)}, but the average surprise of its {n} positions is "
                     f"{number(want)}.", fix=APPEND_FIX)
        first = [BOS] + [chars.index(ch) for ch in docs[0]] + [BOS]
        example = code.name_loss(first, min(16, len(first) - 1))
    size = len(code.counts)
    return (f"With module 2's real counts, the loss of {docs[0]!r} is {number(example)}; with "
            f"every count at 1 it would be log {size} = {number(math.log(size))}.")


# --- the differential check: count tables and names of its own -----------------------------

def _name_case(rng, length, note="", lopsided=False):
    """A random name of `length` letters, its n capped at 16, on a random table of counts."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    name = "".join(rng.choice(letters) for _ in range(length))
    seed = rng.random()

    def make(space):
        chars, BOS = space.chars, space.BOS
        table = random.Random(seed)
        for row in space.counts:
            row[:] = [float(table.randint(1, 9)) for _ in row]
        tokens = [BOS] + [chars.index(ch) for ch in name if ch in chars] + [BOS]
        if lopsided:  # a count far above the rest of its row: the next letter gets p near 1e-6
            row = space.counts[tokens[0]]
            row[(tokens[1] + 1) % len(row)] = 1e7
        return (tokens, min(16, len(tokens) - 1))

    text = (f"the tokens of {name!r} (n = {min(16, length + 1)}), on a table of counts from 1 "
            f"to 9{', one of them 10,000,000' if lopsided else ''}")

    def noted(space):
        _ASKED["text"] = text
        return make(space)

    return Case(text, noted, note)


_ASKED = {"text": "a name"}  # the case being compared, for a message of the check's own


def _names(rng):
    for length in (1, 4, 9):
        yield _name_case(rng, length)
    yield _name_case(rng, 21, "a name longer than block_size: only its first 16 positions count")
    yield _name_case(rng, 6, "a first letter with a probability near 0.000001", lopsided=True)


def _losses_differ(got, want):
    if not _is_number(got):
        return "name_loss must return a number"
    if math.isclose(got, want, rel_tol=1e-7, abs_tol=1e-9):
        return ""
    rounded = next((places for places in range(12) if got == round(want, places)), None)
    why = (f": yours is ours rounded to {rounded} decimals, which throws digits of the loss away"
           if rounded is not None else "")
    if number(got) == number(want):  # said in full here: "returned 3.6143, but ours 3.6143"
        fail(f"`name_loss` with {_ASKED['text']} returned {got!r}, where ours returns {want!r}: "
             f"the two agree in their first 6 digits, but not after{why}. The loss has to be the "
             "plain average of the surprises -log p, nothing added to them, nothing rounded.",
             fix=AVERAGE_FIX if rounded is not None else "")
    return f"written out in full, yours is {got!r} and ours {want!r}{why}"


agrees("name_loss", _names, call=lambda space, args: space.name_loss(*args),
       compare=_losses_differ, name="name_loss on new names and counts, twice each")
