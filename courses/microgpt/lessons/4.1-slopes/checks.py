"""Checks for lesson 4.1, Slopes: rise over run between x - nudge and x + nudge.

`slope_between(f, x, nudge)` is called with the checks' own curves. Each check works rise over
run out itself, and recognises the classic slips by the number they give: the run taken as
nudge instead of 2 * nudge, a missing pair of brackets, the rise upside down. The line to write
is held back in `fix`.

The last check compares slope_between with ours on new curves, points and nudges, each twice:
a slope rounded like the demo's printout, or slopes remembered from one call to the next (the
same x and nudge on another curve), show there.
"""
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, shown

FIX = "Rise over run: `slope = (loss_up - loss_down) / (2 * nudge)`."


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _slope(code, f, label, x, nudge):
    """Call the learner's slope_between; fail with a diagnosis unless it is rise over run."""
    call = f"slope_between(f, {number(x)}, {number(nudge)})` with `f(x) = {label}"
    with calling(call):
        got = code.slope_between(f, x, nudge)
    up, down = f(x + nudge), f(x - nudge)
    rise, run = up - down, 2 * nudge
    want = rise / run
    if _is_number(got) and close(got, want):
        return got
    seen = f"`{call}` gave {shown(got)}, but should give {number(want)}."
    if not _is_number(got):
        fail(f"{seen} slope_between must return the slope, a number: `slope` has to be set to "
             "rise over run, and the `return slope` line kept.", fix=FIX)
    points = (f"The two points are x - nudge = {number(x - nudge)} (height {number(down)}) and "
              f"x + nudge = {number(x + nudge)} (height {number(up)})")
    if close(got, 0) and not close(want, 0):
        fail(f"{seen} slope is still 0, as in the starter: the line `slope = 0.0` is still there, "
             "where rise over run belongs.", fix=FIX)
    if close(got, rise / nudge):
        fail(f"{seen} {points}: they are 2 * nudge = {number(run)} apart, not nudge = "
             f"{number(nudge)}. Dividing by nudge alone makes every slope twice too big: the run "
             "is the whole distance between the points.", fix=FIX)
    if close(got, rise / 2 * nudge):
        fail(f"{seen} That is the rise divided by 2 and then multiplied by nudge: Python reads "
             "a / 2 * nudge as (a / 2) * nudge. The run, 2 * nudge, needs brackets of its own so "
             "that the whole of it divides.", fix=FIX)
    if close(got, up - down / run):
        fail(f"{seen} That is loss_up minus (loss_down divided by the run): Python divides "
             "before it subtracts, so only loss_down was divided. The rise needs brackets of its "
             "own.", fix=FIX)
    if close(got, -want):
        fail(f"{seen} {points}. The sign is flipped: the rise is the right height minus the left "
             "one, so that a curve going up has a positive slope.", fix=FIX)
    if close(got, rise):
        fail(f"{seen} {number(rise)} is the rise alone. A slope is rise over run: the rise divided "
             f"by how far apart the points are, 2 * nudge = {number(run)}.", fix=FIX)
    fail(f"{seen} {points}: the rise is {number(rise)} and the run is {number(run)}, so rise over "
         f"run is {number(want)}.", fix=FIX)


def _line(x):
    return 3 * x + 1


def _falling(x):
    return -2 * x + 5


def _square(x):
    return x ** 2


def _cube(x):
    return x ** 3


@check("a straight line has one slope")
def _(code):
    for f, label, x, nudge in [(_line, "3 * x + 1", 2, 0.25), (_line, "3 * x + 1", -1, 2),
                               (_falling, "-2 * x + 5", 0, 0.5)]:
        _slope(code, f, label, x, nudge)
    return "3 * x + 1 rises 3 for every 1 it runs, wherever you look; -2 * x + 5 falls 2."


@check("a curve's slope changes along it")
def _(code):
    for f, label, x, nudge in [(_square, "x ** 2", 3, 0.5), (_square, "x ** 2", -1, 0.25),
                               (_cube, "x ** 3", 2, 1)]:
        _slope(code, f, label, x, nudge)


@check("smaller nudges close in on the tangent")
def _(code):
    # x ** 3 at 2: the tangent's slope is 12, and two-sided rise over run is 12 + nudge ** 2.
    for nudge in (0.1, 0.01, 0.001):
        got = _slope(code, _cube, "x ** 3", 2, nudge)
        if not close(got, 12 + nudge ** 2, rel=1e-6, abs_tol=1e-6):
            fail(f"`slope_between(f, 2, {number(nudge)})` with `f(x) = x ** 3` gave {number(got)}, "
                 f"but rise over run there is {number(12 + nudge ** 2)}.", fix=FIX)
    # Curves whose slopes are known exactly: sqrt(x) at 4 is 1/4, 1/x at 2 is -1/4.
    for f, label, x, exact in [(math.sqrt, "math.sqrt(x)", 4, 0.25),
                               (lambda x: 1 / x, "1 / x", 2, -0.25)]:
        got = _slope(code, f, label, x, 1e-4)
        if not close(got, exact, rel=1e-6, abs_tol=1e-7):
            fail(f"`slope_between(f, {x}, 0.0001)` with `f(x) = {label}` gave {number(got)}, but "
                 f"the slope of the tangent there is {number(exact)}.", fix=FIX)
    return ("With nudges 0.1, 0.01 and 0.001, x ** 3 around 2 gives 12.01, 12.0001 and 12.000001: "
            "closer and closer to the tangent's 12.")


# --- the differential check: new curves, points and nudges ------------------------------------

CURVES = [("3 * x + 1", _line), ("x ** 2", _square), ("x ** 3", _cube),
          ("math.sqrt(x)", math.sqrt), ("1 / x", lambda x: 1 / x), ("math.exp(x)", math.exp),
          ("math.log(x)", math.log)]


def _case(label, f, x, nudge, note=""):
    return Case(f"f(x) = {label}, x = {number(x)}, nudge = {number(nudge)}",
                lambda space: (f, x, nudge), note)


def _curves(rng):
    """Points and nudges the examples above never use, on curves old and new."""
    # The same x and nudge as the input before it, on another curve: a slope remembered by its
    # x and nudge comes back for the wrong curve.
    yield _case("3 * x + 1", _line, 2, 0.25)
    yield _case("x ** 2", _square, 2, 0.25, "the same x and nudge as the input before, where "
                "3 * x + 1 has slope 3, but another curve")
    for label, f in CURVES:
        x = round(rng.uniform(0.5, 4.0), 3)
        nudge = rng.choice((0.3, 0.07, 0.002, 1e-5))
        yield _case(label, f, x, nudge)
    yield _case("x ** 2", _square, 1234.5, 0.01, "a point far out, where the slope is in the "
                "thousands")
    yield _case("math.sqrt(x)", math.sqrt, 2.3, 1e-6, "a slope with many digits")


_ASKED = {}  # the arguments of the call being compared, for a message of the check's own


def _call_slope(space, args):
    _ASKED["args"] = args
    return space.slope_between(*args)


def _slopes_differ(got, want):
    """Where two slopes part, with every digit shown: a rounded slope differs past the 6th.

    When the two only part past the digits a message shows, the check says so itself, in full,
    rather than "returned 0.374304, but ours returns 0.374304"."""
    if not _is_number(got):
        return "slope_between must return the slope, a number"
    if math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12):
        return ""
    rounded = next((places for places in range(12) if got == round(want, places)), None)
    why = (f": yours is ours rounded to {rounded} decimals, which throws digits of the slope away"
           if rounded is not None else "")
    if number(got) == number(want):
        f, x, nudge = _ASKED["args"]
        label = next((text for text, curve in CURVES if curve is f), "f(x)")
        fail(f"`slope_between(f, {number(x)}, {number(nudge)})` with `f(x) = {label}` returned "
             f"{got!r}, where ours returns {want!r}: the two agree in their first 6 digits, but "
             f"not after{why}.", fix=FIX if rounded is None else "Return the slope as it comes, "
             "without round(): `return slope`.")
    return f"written out in full, yours is {got!r} and ours {want!r}{why}"


agrees("slope_between", _curves, call=_call_slope, compare=_slopes_differ,
       name="slope_between on new curves, twice each")
