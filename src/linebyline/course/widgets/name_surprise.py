"""name-surprise (2.3, 2.5): type a name, see each pair's probability, its surprise, the loss.

The probabilities come from the lesson's `explore.compute`, which sets `data` to
``{"labels": [...], "probs": [[...]], "counts": [[...]], "block_size": 16,
"references": [{"label": "...", "value": 2.43}, ...] (optional)}``; the widget's TypeScript
works out −log p and the mean from what the learner types. ``mistakes`` lists the wrong
versions of the loss the learner may switch to; ``compare`` shows a second name beside the first.
"""
from __future__ import annotations

import math
from typing import Any

from ..fields import Fields
from . import _common

KIND = "name-surprise"
MISTAKES = ("no-minus", "sum", "no-end", "log-count")


def validate(params: Fields) -> None:
    params.only("start", "compare", "examples", "mistakes", "caption")
    _common.texts(params, "start", "compare", "caption")
    for key in ("examples", "mistakes"):
        values = params.get(key, list, [])
        for value in values or []:
            if not isinstance(value, str) or not value.strip():
                params.error(f"every entry of `{key}` must be text", key)
    for mistake in params.get("mistakes", list, []) or []:
        if isinstance(mistake, str) and mistake not in MISTAKES:
            params.error(f"unknown mistake {mistake!r} (known: {', '.join(MISTAKES)})", "mistakes")


def _square(table: Any, size: int, name: str) -> str | None:
    if not isinstance(table, list) or len(table) != size:
        return f"`{name}` must be a list of {size} rows"
    for a, row in enumerate(table):
        if not isinstance(row, list) or len(row) != size:
            return f"row {a} of `{name}` must be a list of {size} numbers"
        for cell in row:
            if isinstance(cell, bool) or not isinstance(cell, (int, float)) or not cell > 0:
                return f"`{name}` must hold numbers above 0 (row {a} has {cell!r})"
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "`data` must be a mapping with labels, probs, counts and block_size"
    unknown = set(data) - {"labels", "probs", "counts", "block_size", "references"}
    if unknown:
        return f"unknown keys in `data`: {', '.join(sorted(unknown))}"
    labels = data.get("labels")
    if (not isinstance(labels, list) or len(labels) < 2 or labels[-1] != "BOS"
            or not all(isinstance(label, str) and len(label) == 1 for label in labels[:-1])):
        return "`labels` must list the one-character tokens, then BOS"
    size = len(labels)
    for name in ("probs", "counts"):
        problem = _square(data.get(name), size, name)
        if problem:
            return problem
    for a, row in enumerate(data["probs"]):
        if abs(sum(row) - 1) > 1e-9:
            return f"row {a} of `probs` sums to {sum(row)}, not 1"
    block = data.get("block_size")
    if isinstance(block, bool) or not isinstance(block, int) or block < 1:
        return "`block_size` must be a whole number of at least 1"
    references = data.get("references", [])
    if not isinstance(references, list):
        return "`references` must be a list"
    for item in references:
        if (not isinstance(item, dict) or set(item) != {"label", "value"}
                or not isinstance(item["label"], str)
                or not isinstance(item["value"], (int, float)) or not math.isfinite(item["value"])):
            return "each reference must be {label: text, value: number}"
    return None
