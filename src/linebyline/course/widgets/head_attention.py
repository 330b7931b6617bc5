"""head-attention (9.2): every head's attention over a name, side by side, before and after
training.

The lesson's ``compute`` defines ``attention_of(word)`` in Python (``data["probe"]``, its
source) and runs it on the model as the solution draws it: for each name, each head's weights
at every position over the positions so far, and (``whole``) what one search over the whole of
q and k gives instead, the "try the mistake" view. The browser can train the course script
``script`` for one of ``steps`` in the page's Python and run the very same probe on the trained
model, so before and after are worked out by one piece of code.

Params: ``script`` (a course script, e.g. train4.py), ``steps`` (whole numbers offered),
``mistake`` (the toggle's words). Data: ``{"probe": source, "names": [{"name", "labels",
"heads": [[[weight, ...] per position] per head], "whole": [[weight, ...] per position]}],
"caption": text}``.
"""
from __future__ import annotations

import math
from typing import Any

from ..fields import Fields
from . import _common, train_run

KIND = "head-attention"
SCRIPTS = ("script",)
MAX_NAMES = 6
MAX_POSITIONS = 17  # BOS and a name of up to 16 letters


def validate(params: Fields) -> None:
    params.only("script", "steps", "mistake")
    name = params.get("script", str)
    if name is not None and not train_run.SCRIPT_NAME.match(name):
        params.error("`script` must be a script's file name such as train4.py", "script")
    steps = params.get("steps", list)
    if steps is not None and (not steps or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= train_run.MAX_STEPS
            for n in steps)):
        params.error(f"`steps` must hold whole numbers from 1 to {train_run.MAX_STEPS}", "steps")
    _common.texts(params, "mistake")


def _rows_problem(rows: Any, positions: int, where: str) -> str | None:
    """Row p of one attention grid: p + 1 weights (positions 0 to p), adding up to 1."""
    if not isinstance(rows, list) or len(rows) != positions:
        return f"{where} must have one row per position ({positions})"
    for pos, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != pos + 1 or not all(
                _common.finite(w) and 0 <= w <= 1 for w in row):
            return (f"{where}, row {pos}, must hold {pos + 1} weight{'' if pos == 0 else 's'} "
                    "between 0 and 1")
        if not math.isclose(sum(row), 1, abs_tol=1e-6):
            return f"{where}, row {pos}, must add up to 1"
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    unknown = set(data) - {"probe", "names", "caption"}
    if unknown:
        return f"unknown keys {sorted(unknown)}"
    if not isinstance(data.get("probe"), str) or "def attention_of" not in data["probe"]:
        return "`probe` must be the source that defines attention_of(word)"
    if not isinstance(data.get("caption"), str):
        return "`caption` must be text"
    names = data.get("names")
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES:
        return f"`names` must list 1 to {MAX_NAMES} names"
    for entry in names:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            return "each of `names` needs a `name`"
        labels = entry.get("labels")
        if not isinstance(labels, list) or not 1 <= len(labels) <= MAX_POSITIONS or not all(
                isinstance(label, str) for label in labels):
            return f"{entry['name']!r}: `labels` must name each position"
        heads = entry.get("heads")
        if not isinstance(heads, list) or not heads:
            return f"{entry['name']!r}: `heads` must list every head's attention"
        for h, rows in enumerate(heads):
            problem = _rows_problem(rows, len(labels), f"{entry['name']!r}, head {h}")
            if problem:
                return problem
        problem = _rows_problem(entry.get("whole"), len(labels), f"{entry['name']!r}, `whole`")
        if problem:
            return problem
    return None
