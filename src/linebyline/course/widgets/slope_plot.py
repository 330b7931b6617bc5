"""slope-plot (module 4): a curve, a slider for x, and two slopes side by side.

The rule's slope (for a chain of steps, the product of each step's rate) is drawn as the tangent;
the slope measured by nudging x by ±h is drawn as the line through the two nudged points. A
"try the mistake" choice swaps in a classic slip: a one-sided nudge, dividing by h instead of 2h,
forgetting to put x back, a wrong rule, or adding a chain's rates instead of multiplying them.

Every curve must be defined wherever the slider can put x (and a nudge either side of it), and at
every stop of the slider some offered h must make the rule and the nudge agree (relu's corner
aside): a learner who shrinks a nudge that is too large must be able to see them agree.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from ..fields import Fields
from . import _common

KIND = "slope-plot"
OPS = ("add", "mul", "pow", "log", "exp", "relu")
MISTAKES = ("one-sided", "half-run", "no-restore", "wrong-rule", "add-rates")
AGREE = 1e-4  # rule and nudge agree when they differ by at most AGREE * max(1, |rule|)
MAX_STOPS = 2000


def _step_functions(op: str, k: float) -> tuple[Callable[[float], float], Callable[[float], float]]:
    """(value, rate) of one step; the same formulas as the browser's."""
    if op == "add":
        return (lambda x: x + k), (lambda x: 1.0)
    if op == "mul":
        return (lambda x: x * k), (lambda x: k)
    if op == "pow":
        return (lambda x: x ** k), (lambda x: k * x ** (k - 1))
    if op == "log":
        return math.log, (lambda x: 1 / x)
    if op == "exp":
        return math.exp, math.exp
    return (lambda x: max(0.0, x)), (lambda x: 1.0 if x > 0 else 0.0)


def _chain(steps: list[tuple[str, float]]):
    parts = [_step_functions(op, k) for op, k in steps]

    def value(x: float) -> float:
        for f, _ in parts:
            x = f(x)
        return x

    def rule(x: float) -> float:
        rate = 1.0
        for f, r in parts:
            rate *= r(x)
            x = f(x)
        return rate

    return value, rule


def _finite(f: Callable[[float], float], x: float) -> bool:
    try:
        y = f(x)
    except (ValueError, OverflowError, ZeroDivisionError):
        return False
    return isinstance(y, float | int) and not isinstance(y, complex) and math.isfinite(y)


def _range(fields: Fields, key: str) -> tuple[float, float, float, float] | None:
    x = fields.mapping(key, f"{fields.where}{key}: ")
    if x is None:
        return None
    x.only("min", "max", "step", "start")
    low, high, step, start = (x.get(name, float) for name in ("min", "max", "step", "start"))
    if None in (low, high, step, start):
        return None
    if not low < high:
        x.error("`min` must be below `max`")
        return None
    if not low <= start <= high:
        x.error("`start` must lie between `min` and `max`", "start")
        return None
    if step <= 0 or (high - low) / step > MAX_STOPS:
        x.error(f"`step` must be above 0 and give at most {MAX_STOPS} stops", "step")
        return None
    return low, high, step, start


def _stops(low: float, high: float, step: float) -> list[float]:
    count = int(math.floor((high - low) / step + 1e-9))
    return [round(low + i * step, 10) for i in range(count + 1)]


def validate(params: Fields) -> None:
    params.only("functions", "x", "h", "mistakes")
    default_range = _range(params, "x") if "x" in params.data else None
    h = params.mapping("h", "h: ")
    choices: list[float] = []
    start_h = None
    if h is not None:
        h.only("choices", "start")
        choices = h.get("choices", list) or []
        if not choices or not all(isinstance(c, int | float) and not isinstance(c, bool)
                                  and 0 < c <= 2 for c in choices):
            h.error("`choices` must list nudges above 0 and at most 2", "choices")
            choices = []
        start_h = h.get("start", float)
        if start_h is not None and choices and start_h not in choices:
            h.error("`start` must be one of the choices", "start")
    _common.known_list(params, "mistakes", MISTAKES)
    functions = params.items("functions", "function")
    if not functions:
        params.error("`functions` must list at least one function")
    for function in functions:
        function.only("label", "steps", "x", "rule")
        function.get("label", str)
        function.get("rule", str, "")
        steps = []
        for step in function.items("steps", "step"):
            step.only("op", "c", "n")
            op = step.get("op", str)
            if not _common.known(step, "op", op, OPS):
                continue
            k = 0.0
            if op in ("add", "mul"):
                k = step.get("c", float)
            elif op == "pow":
                k = step.get("n", float)
            if op is not None and k is not None:
                steps.append((op, k))
        if not steps:
            function.error("`steps` must list at least one step")
            continue
        own_range = _range(function, "x") if "x" in function.data else default_range
        if own_range is None:
            if "x" not in function.data and default_range is None and "x" not in params.data:
                function.error("give this function an `x` range, or the widget a shared one")
            continue
        if choices:
            _prove(function, steps, own_range, choices)


def agrees(rule: float, nudged: float) -> bool:
    """The widget's verdict: do the rule's slope and the nudged slope agree?"""
    return abs(rule - nudged) <= AGREE * max(1.0, abs(rule))


def _prove(function: Fields, steps: list[tuple[str, float]],
           x_range: tuple[float, float, float, float], choices: list[float]) -> None:
    """Defined everywhere the slider goes; at every stop some offered h makes rule and nudge agree."""
    value, rule = _chain(steps)
    biggest = max(choices)
    for x in _stops(*x_range[:3]):
        if not all(_finite(value, t) for t in (x, x - biggest, x + biggest)):
            function.error(f"the curve is undefined at x = {x:g} or a nudge of {biggest:g} "
                           "either side of it: narrow its x range or the nudges")
            return
        if _near_corner(steps, x, min(choices)):
            continue
        if not any(agrees(rule(x), (value(x + h) - value(x - h)) / (2 * h)) for h in choices):
            function.error(f"at x = {x:g} no offered nudge makes the rule ({rule(x):.6g}) and "
                           "nudging agree: offer a smaller h or keep x away from there")
            return


def _near_corner(steps: list[tuple[str, float]], x: float, h: float) -> bool:
    """Does some relu step see its input within the nudge's reach of 0?"""
    rate = 1.0
    for op, k in steps:
        if op == "relu" and abs(x) <= 2 * h * max(1.0, abs(rate)):
            return True
        value, step_rate = _step_functions(op, k)
        rate *= step_rate(x)
        x = value(x)
    return False
