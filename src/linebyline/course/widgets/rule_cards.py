"""rule-cards (4.6): the table of local gradients, one card per operation.

Each card names an operation (add, mul, pow, log, exp, relu) and opens, by click or keyboard, to
show its rule, the rule's number at the card's x, the slope measured by nudging x, and the
classic wrong rule beside them. The learner can type another x; the browser recomputes.

The cards say that the rule and the nudge agree at their starting x, so validation proves it
(relu at exactly 0 aside: the card explains the corner there).
"""
from __future__ import annotations

import math

from ..fields import Fields
from . import _common

KIND = "rule-cards"
OPS = ("add", "mul", "pow", "log", "exp", "relu")
AGREE = 1e-4


def _value(op: str, x: float, k: float) -> float:
    return {"add": lambda: x + k, "mul": lambda: x * k, "pow": lambda: x ** k,
            "log": lambda: math.log(x), "exp": lambda: math.exp(x),
            "relu": lambda: max(0.0, x)}[op]()


def _rule(op: str, x: float, k: float) -> float:
    return {"add": lambda: 1.0, "mul": lambda: k, "pow": lambda: k * x ** (k - 1),
            "log": lambda: 1 / x, "exp": lambda: math.exp(x),
            "relu": lambda: 1.0 if x > 0 else 0.0}[op]()


def validate(params: Fields) -> None:
    params.only("cards", "h")
    h = params.get("h", float)
    if h is not None and not 0 < h < 0.01:
        params.error("`h` must be a small positive number such as 0.0001", "h")
        h = None
    cards = params.items("cards", "card")
    if not cards:
        params.error("`cards` must list at least one card")
    for card in cards:
        card.only("op", "x", "other", "n")
        op = card.get("op", str)
        x = card.get("x", float)
        if not _common.known(card, "op", op, OPS):
            continue
        k = 0.0
        if op in ("add", "mul"):
            k = card.get("other", float)
        elif op == "pow":
            k = card.get("n", float)
        if op is None or x is None or k is None or h is None:
            continue
        if op == "log" and x - h <= 0:
            card.error("log needs x above 0 (and a nudge away from 0)", "x")
            continue
        if op == "relu" and abs(x) <= h:
            continue
        try:
            measured = (_value(op, x + h, k) - _value(op, x - h, k)) / (2 * h)
            exact = _rule(op, x, k)
        except (ValueError, OverflowError, ZeroDivisionError):
            card.error(f"{op} is undefined at x = {x:g}", "x")
            continue
        if abs(measured - exact) > AGREE * max(1.0, abs(exact)):
            card.error(f"at x = {x:g} the rule gives {exact:.6g} but nudging measures "
                       f"{measured:.6g}: pick another x or a smaller h", "x")
