"""attention-grid (8.3, 8.4, 8.6): attention over the positions of a name, as a grid of cells.

Each row is a position of the name asking (its query), each column a position it may look at
(a key in the cache). Row t holds the numbers for columns 0, 1, ...: t + 1 of them when the
position sees only itself and the past, as train3 does, or as many as the name has when a
classic mistake lets it see the future. A cell a row does not reach is drawn empty.

Parameters: ``steps: true`` reveals the grid one position at a time, the cache growing as it
does while gpt() runs; ``view_label`` names what the views are (names, say), ``mistake`` labels
the "try the mistake" toggle, ``caption`` closes the widget.

The lesson's ``compute`` sets ``data = {"values": ..., "views": [...], "mistake_views": [...]}``
(the last optional, one mistaken view per view), each view ``{"label", "caption", "tokens",
"cells"}``. ``values`` says what the numbers are: ``weights`` (softmax's output: each row lies
between 0 and 1 and adds up to 1, drawn on one fixed scale from 0 to 1, so two views compare
honestly) or ``scores`` (any sign, drawn on one scale shared by every view, mistaken ones
included).
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "attention-grid"
VALUES = ("weights", "scores")
MAX_POSITIONS = 16  # block_size: a row never sees more positions than that
MAX_VIEWS = 12
WEIGHT_SLACK = 1e-6  # a softmax row adds up to 1 within rounding


def validate(params: Fields) -> None:
    params.only("steps", "view_label", "mistake", "caption")
    params.get("steps", bool, False)
    _common.texts(params, "view_label", "mistake", "caption")


def _view_problem(view: Any, where: str, weights: bool) -> str | None:
    if not isinstance(view, dict):
        return f"{where} must be a mapping"
    unknown = set(view) - {"label", "caption", "tokens", "cells"}
    if unknown:
        return f"{where} has unknown keys {sorted(unknown)}"
    for text in ("label", "caption"):
        if not isinstance(view.get(text), str) or not view[text].strip():
            return f"{where} needs a `{text}` (text)"
    tokens = view.get("tokens")
    if (not isinstance(tokens, list) or not 1 <= len(tokens) <= MAX_POSITIONS
            or not all(isinstance(token, str) and token for token in tokens)):
        return f"{where}: `tokens` must list 1 to {MAX_POSITIONS} position labels (texts)"
    cells = view.get("cells")
    if not isinstance(cells, list) or len(cells) != len(tokens):
        return f"{where}: `cells` must have one row per token ({len(tokens)})"
    for index, row in enumerate(cells):
        if not isinstance(row, list) or not 1 <= len(row) <= len(tokens):
            return (f"{where}: row {index} of `cells` must hold 1 to {len(tokens)} numbers, one "
                    "per position it sees")
        for value in row:
            if not _common.finite(value):
                return f"{where}: row {index} must hold finite numbers, not {value!r}"
        if weights and (any(value < 0 or value > 1 for value in row)
                        or abs(sum(row) - 1) > WEIGHT_SLACK):
            return (f"{where}: row {index} holds attention weights, which lie between 0 and 1 "
                    f"and add up to 1, but they add up to {sum(row)!r}")
    return None


def _views_problem(views: Any, key: str, weights: bool) -> str | None:
    if not isinstance(views, list) or not 1 <= len(views) <= MAX_VIEWS:
        return f"`{key}` must be a list of 1 to {MAX_VIEWS} views"
    for index, view in enumerate(views):
        problem = _view_problem(view, f"{key}[{index}]", weights)
        if problem:
            return problem
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a mapping with `values` and `views`"
    unknown = set(data) - {"values", "views", "mistake_views"}
    if unknown:
        return f"unknown keys {sorted(unknown)}"
    if data.get("values") not in VALUES:
        return f"`values` must be one of {', '.join(VALUES)}"
    weights = data["values"] == "weights"
    found = _views_problem(data.get("views"), "views", weights)
    if found or "mistake_views" not in data:
        return found
    found = _views_problem(data["mistake_views"], "mistake_views", weights)
    if found:
        return found
    if len(data["mistake_views"]) != len(data["views"]):
        return "`mistake_views` must have one view per view of `views`"
    return None
