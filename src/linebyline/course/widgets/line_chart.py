"""line-chart (6.5): lines over steps (a loss, a learning rate), one view at a time.

The lesson's ``compute`` sets ``data``: views, each with axis labels, a caption and series of
(x, y) points; optionally ``mistake_views``, the same views with a classic mistake added, shown
when the learner ticks the mistake toggle.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "line-chart"
STYLES = ("main", "other", "bad")
MAX_POINTS = 2000
MAX_SERIES = 6


def validate(params: Fields) -> None:
    params.only("view_label", "mistake")
    _common.texts(params, "view_label", "mistake")


def _series_problem(series: Any, where: str) -> str | None:
    if not isinstance(series, dict):
        return f"{where} must be a mapping"
    unknown = set(series) - {"name", "points", "style"}
    if unknown:
        return f"{where} has unknown keys {sorted(unknown)}"
    if not isinstance(series.get("name"), str) or not series["name"].strip():
        return f"{where} needs a `name` (text)"
    points = series.get("points")
    if not isinstance(points, list) or not 2 <= len(points) <= MAX_POINTS:
        return f"{where}: `points` must be a list of 2 to {MAX_POINTS} [x, y] pairs"
    for point in points:
        if not (isinstance(point, list) and len(point) == 2 and all(map(_common.finite, point))):
            return f"{where}: every point must be [x, y] with finite numbers, not {point!r}"
    if series.get("style", "main") not in STYLES:
        return f"{where}: `style` must be one of {', '.join(STYLES)}"
    return None


def _views_problem(views: Any, key: str) -> str | None:
    if not isinstance(views, list) or not 1 <= len(views) <= 10:
        return f"`{key}` must be a list of 1 to 10 views"
    for index, view in enumerate(views):
        where = f"{key}[{index}]"
        if not isinstance(view, dict):
            return f"{where} must be a mapping"
        for text in ("label", "caption", "x_label", "y_label"):
            if not isinstance(view.get(text), str) or not view[text].strip():
                return f"{where} needs `{text}` (text)"
        series = view.get("series")
        if not isinstance(series, list) or not 1 <= len(series) <= MAX_SERIES:
            return f"{where} needs `series`, a list of 1 to {MAX_SERIES} lines"
        for number, line in enumerate(series):
            problem = _series_problem(line, f"{where}.series[{number}]")
            if problem:
                return problem
    return None


def check_data(data: Any) -> str | None:
    return _common.views(data, _views_problem)
