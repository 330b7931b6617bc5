"""vector-bars (6.1, 6.2, 6.3): rows of numbers drawn as bars, one view at a time.

The lesson's ``compute`` sets ``data``: a list of views (a position of a name, a stage of the
backward pass...), each with a caption and rows of numbers; optionally ``mistake_views``, the
same views computed with a classic mistake, shown when the learner ticks the mistake toggle.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "vector-bars"
STYLES = ("value", "grad", "reference", "bad")
MAX_BARS = 100
MAX_VIEWS = 20


def validate(params: Fields) -> None:
    params.only("view_label", "mistake")
    _common.texts(params, "view_label", "mistake")


def _row_problem(row: Any, where: str) -> str | None:
    if not isinstance(row, dict):
        return f"{where} must be a mapping"
    unknown = set(row) - {"name", "values", "labels", "mark", "style"}
    if unknown:
        return f"{where} has unknown keys {sorted(unknown)}"
    if not isinstance(row.get("name"), str) or not row["name"].strip():
        return f"{where} needs a `name` (text)"
    values = row.get("values")
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_BARS:
        return f"{where}: `values` must be a list of 1 to {MAX_BARS} numbers"
    for value in values:
        if not _common.finite(value):
            return f"{where}: every value must be a finite number, not {value!r}"
    labels = row.get("labels")
    if labels is not None and (not isinstance(labels, list) or len(labels) != len(values)
                               or not all(isinstance(label, str) for label in labels)):
        return f"{where}: `labels` must be a list of texts, one per value"
    mark = row.get("mark")
    if mark is not None and (isinstance(mark, bool) or not isinstance(mark, int)
                             or not 0 <= mark < len(values)):
        return f"{where}: `mark` must be the index of one value"
    if row.get("style", "value") not in STYLES:
        return f"{where}: `style` must be one of {', '.join(STYLES)}"
    return None


def _views_problem(views: Any, key: str) -> str | None:
    if not isinstance(views, list) or not 1 <= len(views) <= MAX_VIEWS:
        return f"`{key}` must be a list of 1 to {MAX_VIEWS} views"
    for index, view in enumerate(views):
        where = f"{key}[{index}]"
        if not isinstance(view, dict):
            return f"{where} must be a mapping"
        for text in ("label", "caption"):
            if not isinstance(view.get(text), str) or not view[text].strip():
                return f"{where} needs a `{text}` (text)"
        rows = view.get("rows")
        if not isinstance(rows, list) or not rows:
            return f"{where} needs `rows`, a list of at least one row"
        for number, row in enumerate(rows):
            problem = _row_problem(row, f"{where}.rows[{number}]")
            if problem:
                return problem
    return None


def check_data(data: Any) -> str | None:
    return _common.views(data, _views_problem)
