"""Measuring slopes by nudging, the independent proof that autograd lessons end with."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any


def slope(f: Callable[[float], float], x: float, h: float = 1e-6) -> float:
    """The slope of f at x by central differences: (f(x + h) - f(x - h)) / 2h."""
    return (f(x + h) - f(x - h)) / (2 * h)


def nudge_grads(build: Callable[[], Any], inputs: Sequence[Any], h: float = 1e-6) -> list[float]:
    """d(output)/d(input) for each input Value, measured by nudging its ``.data``.

    ``build`` recomputes the output from the inputs' current data and returns a Value (or a
    number). Each input is nudged up and down by h, and left exactly as it was afterwards.
    """
    def output() -> float:
        out = build()
        return float(getattr(out, "data", out))

    grads = []
    for value in inputs:
        original = value.data
        try:
            value.data = original + h
            up = output()
            value.data = original - h
            down = output()
        finally:
            value.data = original
        grads.append((up - down) / (2 * h))
    return grads


def close(got: Any, want: float, rel: float = 1e-6, abs_tol: float = 1e-6) -> bool:
    """True when got is a real number near want (bools and non-numbers are never close)."""
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, want, rel_tol=rel, abs_tol=abs_tol)
