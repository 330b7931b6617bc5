"""bigram-table (2.1, 2.2): the 27×27 table of counts as a heatmap whose rows open into a list.

The numbers come from the lesson's `explore.compute`, which sets `data` to
``{"labels": [...], "counts": [[...]], "start_count": 1 (optional), "probs": [[...]] (optional),
"mistake": {...} (optional)}``: one label per token (the last is BOS), the counts, the count every
cell started at before any pair was counted (0 if left out; the page then tells the pairs of a
row from its starting counts), the probabilities (needed for ``panel: probabilities``), and the
same table made the wrong way for the "try the mistake" toggle (``counts`` and/or ``probs`` of
the same shape, and the ``start_count`` of its counts).
"""
from __future__ import annotations

import math
from typing import Any

from ..fields import Fields
from . import _common

KIND = "bigram-table"
PANELS = ("counts", "probabilities")


def validate(params: Fields) -> None:
    params.only("panel", "start", "mistake", "caption")
    _common.one_of(params, "panel", PANELS, "counts")
    _common.texts(params, "start", "mistake", "caption")


def _square(table: Any, size: int, name: str, whole: bool) -> str | None:
    if not isinstance(table, list) or len(table) != size:
        return f"`{name}` must be a list of {size} rows"
    for a, row in enumerate(table):
        if not isinstance(row, list) or len(row) != size:
            return f"row {a} of `{name}` must be a list of {size} numbers"
        for b, cell in enumerate(row):
            if isinstance(cell, bool) or not isinstance(cell, (int, float)):
                return f"`{name}[{a}][{b}]` must be a number, not {cell!r}"
            if not math.isfinite(cell) or cell < 0:
                return f"`{name}[{a}][{b}]` must be a number of at least 0, not {cell!r}"
            if whole and cell != int(cell):
                return f"`{name}[{a}][{b}]` must be a whole number, not {cell!r}"
    return None


def _start_count(tables: dict[str, Any], where: str) -> str | None:
    """`start_count` is a whole number that no count of its table is below."""
    start = tables.get("start_count", 0)
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        return f"`{where}start_count` must be a whole number of at least 0, not {start!r}"
    counts = tables.get("counts")
    if start and counts is None:
        return f"`{where}start_count` needs `{where}counts`, the table whose cells started there"
    low = min((cell for row in counts or [] for cell in row), default=start)
    if low < start:
        return f"`{where}counts` holds {low!r}, below its start_count {start}"
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "`data` must be a mapping with labels and counts"
    unknown = set(data) - {"labels", "counts", "start_count", "probs", "mistake"}
    if unknown:
        return f"unknown keys in `data`: {', '.join(sorted(unknown))}"
    labels = data.get("labels")
    if (not isinstance(labels, list) or len(labels) < 2
            or not all(isinstance(label, str) and label for label in labels)):
        return "`labels` must list a name for every token (at least two)"
    size = len(labels)
    problem = _square(data.get("counts"), size, "counts", whole=True) or _start_count(data, "")
    if problem:
        return problem
    if "probs" in data:
        problem = _square(data["probs"], size, "probs", whole=False)
        if problem:
            return problem
        for a, row in enumerate(data["probs"]):
            if abs(sum(row) - 1) > 1e-9:
                return f"row {a} of `probs` sums to {sum(row)}, not 1"
    mistake = data.get("mistake")
    if mistake is not None:
        tables = ("counts", "probs")
        if (not isinstance(mistake, dict) or not set(mistake) & set(tables)
                or set(mistake) - {*tables, "start_count"}):
            return "`mistake` must be a mapping with `counts` and/or `probs` (and `start_count`)"
        for name in tables:
            if name in mistake:
                problem = _square(mistake[name], size, f"mistake.{name}", whole=name == "counts")
                if problem:
                    return problem
        return _start_count(mistake, "mistake.")
    return None
