"""Checks for lesson 4.1, Slopes: rise over run between x - nudge and x + nudge.

`slope_between(f, x, nudge)` is called with the checks' own curves. Each check works rise over
run out itself, and recognises the classic slips by the number they give: the run taken as
nudge instead of 2 * nudge, a missing pair of brackets, the rise upside down.
"""
import math

from linebyline.runtime import calling, check, close, fail, number, shown


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
        fail(f"{seen} slope_between must return the slope, a number: set `slope` to rise over run "
             "and keep the `return slope` line.")
    points = (f"The two points are x - nudge = {number(x - nudge)} (height {number(down)}) and "
              f"x + nudge = {number(x + nudge)} (height {number(up)})")
    if close(got, 0) and not close(want, 0):
        fail(f"{seen} slope is still 0, as in the starter: replace `slope = 0.0` with rise over run.")
    if close(got, rise / nudge):
        fail(f"{seen} {points}: they are 2 * nudge = {number(run)} apart, not nudge = "
             f"{number(nudge)}. Dividing by nudge alone makes every slope twice too big: divide the "
             "rise by `(2 * nudge)`.")
    if close(got, rise / 2 * nudge):
        fail(f"{seen} Python reads `(loss_up - loss_down) / 2 * nudge` as ((loss_up - loss_down) / 2) "
             "* nudge: it multiplies by nudge instead of dividing by it. Put the run in its own "
             "brackets: `/ (2 * nudge)`.")
    if close(got, up - down / run):
        fail(f"{seen} Python divides before it subtracts, so `loss_up - loss_down / (2 * nudge)` "
             "divides only loss_down. Put the rise in its own brackets: `(loss_up - loss_down)`.")
    if close(got, -want):
        fail(f"{seen} {points}. The sign is flipped: the rise is the right height minus the left "
             "one, `loss_up - loss_down`, so that a curve going up has a positive slope.")
    if close(got, rise):
        fail(f"{seen} {number(rise)} is the rise alone. A slope is rise over run: divide it by how "
             f"far apart the points are, 2 * nudge = {number(run)}.")
    fail(f"{seen} {points}: the rise is {number(rise)} and the run is {number(run)}, so rise over "
         f"run is {number(want)}.")


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
                 f"but rise over run there is {number(12 + nudge ** 2)}.")
    # Curves whose slopes are known exactly: sqrt(x) at 4 is 1/4, 1/x at 2 is -1/4.
    for f, label, x, exact in [(math.sqrt, "math.sqrt(x)", 4, 0.25),
                               (lambda x: 1 / x, "1 / x", 2, -0.25)]:
        got = _slope(code, f, label, x, 1e-4)
        if not close(got, exact, rel=1e-6, abs_tol=1e-7):
            fail(f"`slope_between(f, {x}, 0.0001)` with `f(x) = {label}` gave {number(got)}, but "
                 f"the slope of the tangent there is {number(exact)}.")
    return ("With nudges 0.1, 0.01 and 0.001, x ** 3 around 2 gives 12.01, 12.0001 and 12.000001: "
            "closer and closer to the tangent's 12.")
