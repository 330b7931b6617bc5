"""Values shown the way a beginner writes them, for check messages that read like a person talking.

``number(6.0)`` is ``6``, ``number(-0.5)`` is ``-0.5``, ``number(2/3)`` is ``0.666667``;
``shown([1, 2, 3])`` is ``[1, 2, 3]``; ``mismatches(...)`` lists what is off as
"e.grad is 4 but should be -2; a.grad is 18 but should be 6".
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .numeric import close

LONG = 8  # items of a list shown before the rest is summed up as "... (27 items)"


def number(x: Any) -> str:
    """A number as a person writes it: whole floats without ".0", others to 6 significant digits."""
    if isinstance(x, bool):
        return repr(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if x != x:
            return "nan"
        if x in (float("inf"), float("-inf")):
            return "inf" if x > 0 else "-inf"
        if x.is_integer() and abs(x) < 1e15:
            return str(int(x))
        return f"{x:.6g}"
    return f"a {type(x).__name__}, not a number"


def numbers_apart(got: float, want: float) -> tuple[str, str]:
    """Two numbers that differ, each with as many digits as it takes to show it: 6 where that
    is enough, more where they agree to 6 ("0.4768861 ... 0.4768864", never "0.476886 but
    should be 0.476886")."""
    a, b = number(got), number(want)
    digits = 7
    while a == b and digits <= 17 and isinstance(got, float) and isinstance(want, float):
        a, b = f"{got:.{digits}g}", f"{want:.{digits}g}"
        digits += 1
    return a, b


def shown(x: Any, depth: int = 0) -> str:
    """Any value, short: numbers as :func:`number`, strings quoted, long lists cut.

    Objects are named by their type only: an object's id changes every run and means nothing.
    """
    if isinstance(x, (bool, int, float)):
        return number(x)
    if isinstance(x, str):
        return repr(x if len(x) <= 60 else x[:57] + "...")
    if x is None:
        return "None"
    if isinstance(x, (list, tuple)) and depth < 2:
        items = [shown(item, depth + 1) for item in x[:LONG]]
        if len(x) > LONG:
            items.append(f"... ({len(x)} items)")
        inner = ", ".join(items)
        if isinstance(x, tuple):
            return f"({inner},)" if len(x) == 1 else f"({inner})"
        return f"[{inner}]"
    if isinstance(x, dict) and depth < 2:
        pairs = [f"{shown(k, depth + 1)}: {shown(v, depth + 1)}" for k, v in list(x.items())[:LONG]]
        if len(x) > LONG:
            pairs.append(f"... ({len(x)} entries)")
        return "{" + ", ".join(pairs) + "}"
    if isinstance(x, (list, tuple, dict)):
        return f"a {type(x).__name__} of {len(x)}"
    return f"a {type(x).__name__}"


def mismatches(got: Mapping[str, Any], want: Mapping[str, Any], *, label: str = "{}",
               rel: float = 1e-6, abs_tol: float = 1e-6) -> str:
    """'x is A but should be B; ...' for every name whose value is off, or '' when none is.

    ``label`` turns a name into what the message calls it, e.g. ``"{}.grad"``. Numbers are
    compared with :func:`close`; anything else with ``==``.
    """
    parts = []
    for name, expected in want.items():
        value = got.get(name)
        if isinstance(expected, (int, float)) and not isinstance(expected, bool):
            same = close(value, expected, rel, abs_tol)
        else:
            same = value == expected
        if not same:
            parts.append(f"{label.format(name)} is {shown(value)} but should be {shown(expected)}")
    return "; ".join(parts)


def listing(items: Iterable[Any], conjunction: str = "and") -> str:
    """['a', 'b', 'c'] -> 'a, b and c'."""
    texts = [str(item) for item in items]
    if len(texts) <= 1:
        return "".join(texts)
    return f"{', '.join(texts[:-1])} {conjunction} {texts[-1]}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """plural(1, 'name') -> '1 name'; plural(3, 'name') -> '3 names'."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
