"""What the graph tools know of a learner's Value: its children and its numbers. Nothing here
knows the course's class: a Value is any object with a ``data`` and a tuple of children
(``_children``, as microgpt names it, or micrograd's ``_prev``)."""
from __future__ import annotations

import math
from typing import Any


def children_of(obj: Any) -> tuple[Any, ...] | None:
    """The Values ``obj`` was made from, or None when ``obj`` is not a Value at all."""
    if isinstance(obj, type) or not hasattr(obj, "data"):
        return None
    for name in ("_children", "_prev"):
        kids = getattr(obj, name, None)
        if isinstance(kids, (tuple, list, set, frozenset)):
            return tuple(kids)
    return None


def is_value(obj: Any) -> bool:
    return children_of(obj) is not None


def number(x: Any) -> float | None:
    """A plain float for JSON, None for what is no finite number."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    try:
        x = float(x)
    except OverflowError:  # an int too big for a float (10 ** 1000) is shown as no number
        return None
    return x if math.isfinite(x) else None


def close(a: float | None, b: float | None) -> bool:
    """Equal but for rounding (no number is close to anything)."""
    if a is None or b is None:
        return False
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
