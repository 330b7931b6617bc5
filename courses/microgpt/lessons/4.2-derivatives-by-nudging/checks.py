"""Checks for lesson 4.2, Derivatives by nudging: nudge row[k] up and down, measure, put it back.

`nudged_slope` is called with a spy for a loss: a function that notes the value of row[k] each
time it is called, and returns a known curve of it (x ** 2, x ** 3). So the checks see where the
learner's code measured, in any order and however it is spelled, and what it left behind. The
fourth check nudges the lesson's tiny count model and compares with its exact slope. The lines
to write are held back in `fix`.

The last check compares nudged_slope with ours on new rows, indices, nudges and names, each
twice, arguments included: among them a name longer than block_size, whose loss reads only its
first n positions, so a loss measured over the whole name shows.
"""
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, shown

UP = "row[k] = old + nudge"
DOWN = "row[k] = old - nudge"
MEASURE = "loss_up = name_loss(tokens, n)"
BACK_FIX = "After measuring loss_down, put the number back: `row[k] = old`."


def _spy(curve, row, k, seen):
    """A stand-in for name_loss: notes row[k] at every call and returns curve(row[k])."""
    def loss(tokens, n):
        seen.append(row[k])
        return curve(row[k])
    return loss


def _noting(curve, row, rows):
    """curve, noting the whole row each time the loss is measured (which numbers moved)."""
    def noted(x):
        rows.append(list(row))
        return curve(x)
    return noted


def _values(seen):
    return ", ".join(number(value) for value in seen) if seen else "nothing"


def _call(code, curve, label, row, k, nudge):
    """Run nudged_slope with a spy; return (slope, the values of row[k] the loss was called at)."""
    seen = []
    call = (f"nudged_slope(name_loss, tokens, n, row, {k}, {number(nudge)})` with "
            f"`row = {shown(list(row))}`, and a loss that is `{label.replace('x', f'row[{k}]')}")
    with calling(call):
        got = code.nudged_slope(_spy(curve, row, k, seen), [0, 1], 1, row, k, nudge)
    return call, got, seen


@check("nudges up, then down")
def _(code):
    old, nudge = 3.0, 0.5
    row = [old]
    call, got, seen = _call(code, lambda x: x ** 2, "x ** 2", row, 0, nudge)
    up, down = old + nudge, old - nudge
    where = f"`{call}`: name_loss was called with row[0] at {_values(seen)}"
    if not seen:
        fail(f"`{call}` never called name_loss: the loss has to be measured after each nudge, "
             "into loss_up and loss_down.",
             fix=f"After `{UP}`, write `{MEASURE}`; after `{DOWN}`, the same into loss_down.")
    if up in seen and down in seen:
        want = (up ** 2 - down ** 2) / (2 * nudge)
        if isinstance(got, (int, float)) and close(got, -want):
            fail(f"`{call}` gave {number(got)}, but should give {number(want)}: loss_up and "
                 f"loss_down are swapped. loss_up is the loss with row[k] one nudge above old "
                 f"({number(up)}), loss_down the loss one nudge below ({number(down)}).",
                 fix=f"Measure loss_up right after `{UP}`, loss_down right after `{DOWN}`.")
        if not isinstance(got, (int, float)) or not close(got, want):
            fail(f"`{call}` gave {shown(got)}, but should give {number(want)}: rise over run, "
                 "`(loss_up - loss_down) / (2 * nudge)`, as the starter has it.",
                 fix="Keep the starter's line: `slope = (loss_up - loss_down) / (2 * nudge)`.")
        return
    if nudge in seen and up not in seen:
        fail(f"{where}. {number(nudge)} is the nudge itself, put in place of the number: the "
             f"number has to move from where it was, up to old + nudge = {number(up)} and down "
             f"to old - nudge = {number(down)}.",
             fix=f"Move the number from old: `{UP}`, and later `{DOWN}`.")
    if up in seen and old in seen:
        fail(f"{where}, so loss_down was measured at old, not one nudge below it. That is a "
             f"one-sided nudge: it measures the slope between {number(old)} and {number(up)}, a "
             f"little to the right of {number(old)}. row[k] has to be at old - nudge = "
             f"{number(down)} when loss_down is measured.",
             fix=f"Before measuring loss_down, write `{DOWN}`.")
    if old in seen and down in seen:
        fail(f"{where}: loss_up was measured before row[k] moved up, to old + nudge = "
             f"{number(up)}.", fix=f"First `{UP}`, then `{MEASURE}`.")
    if all(value == old for value in seen):
        fail(f"{where}: row[0] never moved. It has to be at old + nudge when loss_up is measured, "
             "and at old - nudge when loss_down is.",
             fix=f"Before each measurement: `{UP}`, then later `{DOWN}`.")
    fail(f"{where}, but it should be called once with row[0] one nudge above old "
         f"({number(up)}) for loss_up and once one nudge below ({number(down)}) for loss_down.",
         fix=f"`{UP}`, `{MEASURE}`, `{DOWN}`, then the same for loss_down.")


@check("the number is put back exactly")
def _(code):
    # -0.05 nudged by 0.1 and brought back by adding and subtracting is not exactly -0.05 again.
    old, nudge = -0.05, 0.1
    row = [0.25, old, 1.5]
    call, _, seen = _call(code, lambda x: x ** 3, "x ** 3", row, 1, nudge)
    others = [(index, value) for index, value in ((0, 0.25), (2, 1.5)) if row[index] != value]
    if others:
        index, value = others[0]
        fail(f"After `{call}`, row[{index}] is {number(row[index])}, but it should still be "
             f"{number(value)}: only row[k], with k = 1, may be nudged.",
             fix=f"Nudge the number at index k: `{UP}`.")
    left = row[1]
    if left == old:
        return
    seen_text = f"After `{call}`, row[1] is {shown(left)}, but it must be exactly {number(old)} again"
    if isinstance(left, float) and left != old and close(left, old, rel=1e-9, abs_tol=1e-12):
        seen_text = f"After `{call}`, row[1] is {left!r}, but it must be exactly {old!r} again"
    if isinstance(left, (int, float)) and close(left, old - nudge, rel=1e-9, abs_tol=1e-12):
        fail(f"{seen_text}: it was left one nudge below. Whatever is nudged has to be put back: "
             "in train1.py a weight left nudged would change every loss measured after it, and "
             "the training too.", fix=BACK_FIX)
    if isinstance(left, (int, float)) and close(left, old + nudge, rel=1e-9, abs_tol=1e-12):
        fail(f"{seen_text}: it was left one nudge above. After the last measurement it has to go "
             "back to the saved old.", fix=BACK_FIX)
    if isinstance(left, (int, float)) and close(left, old, rel=1e-9, abs_tol=1e-12):
        fail(f"{seen_text}: adding and subtracting the nudge brought it back only nearly, "
             "because decimals such as 0.1 are not stored exactly and each sum rounds a little. "
             "Copying the saved number back is exact.", fix=BACK_FIX)
    fail(f"{seen_text}. After both measurements it has to go back to the saved old.",
         fix=BACK_FIX)


@check("slopes of curves you know")
def _(code):
    cases = [(lambda x: x ** 2, "x ** 2", [5.0, -1.5], 1, 1e-3, -3.0),
             (lambda x: x ** 3, "x ** 3", [2.0, 7.0], 0, 1e-3, 12.0)]
    for curve, label, row, k, nudge, exact in cases:
        old, before, rows = row[k], list(row), []
        call, got, seen = _call(code, _noting(curve, row, rows), label, row, k, nudge)
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            fail(f"`{call}` returned {shown(got)}, but should return the slope, a number.")
        if close(got, exact, rel=1e-5, abs_tol=1e-5):
            continue
        seen_text = (f"`{call}` gave {number(got)}, but the slope of {label} at {number(old)} is "
                     f"{number(exact)}")
        moved = [index for index in range(len(row))
                 if index != k and any(noted[index] != before[index] for noted in rows)]
        if moved and all(value == old for value in seen):
            fail(f"{seen_text}: row[{k}] stayed at {number(old)} while the loss was measured, "
                 f"and row[{moved[0]}] moved instead. The number to nudge is row[k], the one at "
                 f"index k = {k}.", fix=f"Nudge the number at index k: `{UP}`.")
        fail(f"{seen_text}: name_loss was called with row[{k}] at {_values(seen)}, but it should "
             f"be measured once at old + nudge = {number(old + nudge)} and once at old - nudge = "
             f"{number(old - nudge)}, and rise over run taken of the two.",
             fix=f"`{UP}`, `{MEASURE}`, `{DOWN}`, then the same for loss_down.")
    return "x ** 2 at -1.5 measures -3, and x ** 3 at 2 measures 12.000001: the slopes 2x and 3x²."


def _exact_slope(counts, tokens, n, r, k):
    """d(name_loss)/d(counts[r][k]), worked out by hand (lesson 4.5 shows why)."""
    total = 0.0
    for a, b in zip(tokens, tokens[1:n + 1]):
        if a == r:
            total += (-1 / counts[r][k] if b == k else 0.0) + 1 / sum(counts[r])
    return total / n


@check("the tiny model, nudged")
def _(code):
    counts, chars, BOS = code.counts, code.chars, code.BOS
    before = [list(row) for row in counts]
    cases = [("emma", BOS, "e"), ("emma", BOS, "a"), ("anna", "n", "n"), ("anna", "n", "a")]
    for name, start, letter in cases:
        r = start if start == BOS else chars.index(start)
        k = chars.index(letter)
        tokens = [BOS] + [chars.index(ch) for ch in name] + [BOS]
        n = len(tokens) - 1
        shown_row = "BOS" if r == BOS else repr(start)
        call = f"nudged_slope(name_loss, tokens, n, counts[{shown_row}], {k}, 1e-5)"
        what = f"for {name!r}, nudging the count of {shown_row} -> {letter!r}"
        with calling(call):
            got = code.nudged_slope(code.name_loss, tokens, n, counts[r], k, 1e-5)
        want = _exact_slope(counts, tokens, n, r, k)
        if not isinstance(got, (int, float)) or not close(got, want, rel=1e-4, abs_tol=1e-7):
            fail(f"`{call}` {what}, gave {shown(got)}, but the loss of {name!r} moves at "
                 f"{number(want)} when that count moves.")
        if counts != before:
            fail(f"After `{call}` {what}, the counts are not all back where they were: every "
                 "nudged number must be put back exactly.", fix=BACK_FIX)
    return ("Nudging the count of BOS -> 'e' moves the loss of 'emma' at -0.192593, as the exact "
            "slope says, and every count is back where it was.")


# --- the differential check: new rows, indices, nudges and names ------------------------------

def _curve_case(rng, length, nudge, note=""):
    """A loss that reads the whole row: sum over i of (row[i] - i / 4) ** 2 * (i + 1) / 5."""
    values = [round(rng.uniform(-2, 2), 3) for _ in range(length)]
    k = rng.randrange(length)

    def make(space):
        row = list(values)

        def loss(tokens, n):
            return sum((v - i / 4) ** 2 * (i + 1) / 5 for i, v in enumerate(row))

        return (loss, [0, 1], 1, row, k, nudge)

    shown_row = shown(values) if length <= 6 else f"a row of {length} numbers"
    return Case(f"a loss of the whole row, row = {shown_row}, k = {k}, nudge = {number(nudge)}",
                make, note)


def _name_case(space_name, name, letter_row, letter, nudge, note=""):
    """The lesson's own name_loss on a name, its n capped at 16 as train1.py caps names."""
    def make(space):
        chars, BOS = space.chars, space.BOS
        tokens = [BOS] + [chars.index(ch) for ch in name] + [BOS]
        n = min(16, len(tokens) - 1)
        r = BOS if letter_row == "BOS" else chars.index(letter_row)
        return (space.name_loss, tokens, n, space.counts[r], chars.index(letter), nudge)

    length = len(name) + 1
    return Case(f"name_loss on {name!r} with n = {min(16, length)}, nudging the count of "
                f"{letter_row} -> {letter!r} by {number(nudge)}", make, note)


def _inputs(rng):
    for length, nudge in ((1, 0.5), (3, 0.01), (27, 1e-5), (40, 0.001)):
        yield _curve_case(rng, length, nudge, "a row longer than the vocabulary"
                          if length > 27 else "")
    yield _name_case("name", "ava", "a", "v", 1e-5)
    yield _name_case("name", "mariaelenajosephine", "BOS", "m", 1e-5,
                     "a name of 19 letters, longer than block_size: its loss reads only the "
                     "first n = 16 positions")
    yield _name_case("name", "annabellerosamaria", "a", "r", 1e-5,
                     "a name of 18 letters, longer than block_size: its loss reads only the "
                     "first n = 16 positions")


def _slopes_differ(got, want):
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return "nudged_slope must return the slope, a number"
    if math.isclose(got, want, rel_tol=1e-6, abs_tol=1e-9):
        return ""
    return f"it is {number(got)} but should be {number(want)}"


agrees("nudged_slope", _inputs, call=lambda space, args: space.nudged_slope(*args),
       compare=_slopes_differ, name="nudged_slope on new rows and names, twice each")
