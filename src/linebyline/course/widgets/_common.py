"""Checks that several widget kinds make of their parameters and computed data.

Not a widget kind itself (it has no ``KIND``): the package skips modules whose name starts with
an underscore. Each check reports its problems with the same words wherever it is used.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

from ..fields import Fields

_REQUIRED = object()


def finite(value: Any) -> bool:
    """A real number that is neither infinite nor NaN (true and false are not numbers here)."""
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)


def texts(params: Fields, *keys: str) -> None:
    """Optional texts, such as ``mistake`` (the toggle's words) or ``caption``."""
    for key in keys:
        params.get(key, str, None)


def one_of(params: Fields, key: str, allowed: Collection[str], default: Any = _REQUIRED) -> str | None:
    """A text that must be one of `allowed` (required unless a default is given)."""
    value = params.get(key, str) if default is _REQUIRED else params.get(key, str, default)
    if value is not None and value not in allowed:
        params.error(f"`{key}` must be one of {', '.join(allowed)}, not {value!r}", key)
    return value


def known(fields: Fields, key: str, value: Any, allowed: Collection[str], what: str = "op") -> bool:
    """Whether `value` (read from `key`) is one of `allowed`, or absent; an unknown one is reported."""
    if value is None or value in allowed:
        return True
    fields.error(f"unknown {what} {value!r} (known: {', '.join(allowed)})", key)
    return False


def known_list(params: Fields, key: str, allowed: Collection[str], what: str = "mistake") -> list[Any]:
    """The optional list at `key`: each entry not in `allowed` is reported on its own line."""
    values = params.get(key, list, []) or []
    for index, value in enumerate(values):
        if value not in allowed:
            line = values.line_of(index) if hasattr(values, "line_of") else None
            params.error(f"unknown {what} {value!r} (known: {', '.join(allowed)})", line=line)
    return values


def value_graph(params: Fields, operations: Collection[str]) -> None:
    """A graph of Values: `inputs` (name: number), then `nodes`, each made by one of `operations`
    from two inputs or earlier nodes (graph-backward and graph-walk draw the same graphs)."""
    inputs = params.get("inputs", dict) or {}
    names: set[str] = set()
    for name, value in inputs.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            params.error(f"input {name!r} must be a number", line=inputs.line_of(name))
        names.add(str(name))
    nodes = params.items("nodes", "node")
    for node in nodes:
        node.only("name", "op", "args")
        name, op, args = node.get("name", str), node.get("op", str), node.get("args", list)
        known(node, "op", op, sorted(operations))
        for arg in args or []:
            if arg not in names:
                node.error(f"argument {arg!r} is not an input or an earlier node", "args")
        if args is not None and len(args) != 2:
            node.error("`args` must name exactly two operands", "args")
        if name in names:
            node.error(f"the name {name!r} is already used", "name")
        if name:
            names.add(name)
    if not nodes:
        params.error("`nodes` must list at least one node")


def slider(params: Fields, key: str, lowest: float | None = None) -> None:
    """A slider's range: a mapping with `min` < `max` (and `min` >= `lowest`), `start` between
    them and a `step` above 0."""
    fields = params.mapping(key)
    if fields is None:
        return
    fields.only("min", "max", "step", "start")
    low, high, step, start = (fields.get(name, float) for name in ("min", "max", "step", "start"))
    if None in (low, high, step, start):
        return
    if not (low < high and (lowest is None or lowest <= low)):
        fields.error("`min` must be below `max`" if lowest is None
                     else f"`min` must be {lowest:g} or more and below `max`")
    elif not low <= start <= high:
        fields.error("`start` must lie between `min` and `max`", "start")
    if step <= 0:
        fields.error("`step` must be above 0", "step")


def uneven(matrix: list[Any], where: str) -> str | None:
    """What is wrong with the rows of a non-empty list meant as a matrix: not all lists of one
    same, non-zero length."""
    widths = {len(row) if isinstance(row, list) else -1 for row in matrix}
    if len(widths) != 1 or widths.pop() < 1:
        return f"{where} must have rows of one same, non-zero length"
    return None


def views(data: Any, problem: Callable[[Any, str], str | None]) -> str | None:
    """Computed data of `views`, and optionally `mistake_views` (the same views with a classic
    mistake), one for each; `problem` says what is wrong with one list of views."""
    if not isinstance(data, dict):
        return "it must be a mapping with `views`"
    unknown = set(data) - {"views", "mistake_views"}
    if unknown:
        return f"unknown keys {sorted(unknown)}"
    found = problem(data.get("views"), "views")
    if found:
        return found
    if "mistake_views" in data:
        found = problem(data["mistake_views"], "mistake_views")
        if found:
            return found
        if len(data["mistake_views"]) != len(data["views"]):
            return "`mistake_views` must have one view per view of `views`"
    return None


def whole(value: Any) -> bool:
    """A count: a whole number above 0 (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def matrix_counts(data: dict[str, Any]) -> str | None:
    """``matrices`` (each with a name, rows, cols and their product, count) and their ``total``,
    as the parameter-counting widgets show them."""
    matrices = data.get("matrices")
    if not isinstance(matrices, list) or not matrices:
        return "`matrices` must list the real matrices"
    for matrix in matrices:
        if not isinstance(matrix, dict) or not isinstance(matrix.get("name"), str):
            return "each matrix must be a dict with a `name`"
        if not all(whole(matrix.get(key)) for key in ("rows", "cols", "count")):
            return f"matrix {matrix['name']!r} needs whole numbers `rows`, `cols` and `count`"
        if matrix["rows"] * matrix["cols"] != matrix["count"]:
            return f"matrix {matrix['name']!r}: rows × cols is not its count"
    if data.get("total") != sum(matrix["count"] for matrix in matrices):
        return "`total` must be the sum of the counts"
    return None
