"""sample-steps (2.4): sampling a name letter by letter over the current row's probabilities.

The lesson's `explore.compute` sets `data` to ``{"labels": [...], "probs": [[...]],
"samples": [[{"from": a, "u": u, "to": b}, ...], ...], "greedy": [{"from": a, "to": b}, ...]}``:
for each sampled name, every draw with the uniform number u that random.choices turned into
the token `to` (the first token whose running total of probabilities passes u × the row's
total), and, for the "try the mistake" toggle, the draws of always taking the likeliest token.
"""
from __future__ import annotations

import bisect
import itertools
from typing import Any

from ..fields import Fields
from . import _common

KIND = "sample-steps"


def validate(params: Fields) -> None:
    params.only("mistake", "caption")
    _common.texts(params, "mistake", "caption")


def _token(value: Any, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or set(data) - {"labels", "probs", "samples", "greedy"}:
        return "`data` must be a mapping with labels, probs, samples and greedy"
    labels, probs = data.get("labels"), data.get("probs")
    if not isinstance(labels, list) or len(labels) < 2 or labels[-1] != "BOS":
        return "`labels` must list the tokens, BOS last"
    size, bos = len(labels), len(labels) - 1
    if (not isinstance(probs, list) or len(probs) != size
            or not all(isinstance(row, list) and len(row) == size for row in probs)):
        return f"`probs` must be {size} rows of {size} numbers"
    samples = data.get("samples")
    if not isinstance(samples, list) or not samples:
        return "`samples` must be a list of sampled names"
    for index, steps in enumerate(samples):
        if not isinstance(steps, list) or not steps:
            return f"sample {index + 1} has no draws"
        expected_from = bos
        for step in steps:
            if not isinstance(step, dict) or set(step) != {"from", "u", "to"}:
                return f"each draw of sample {index + 1} must have from, u and to"
            if not _token(step["from"], size) or not _token(step["to"], size):
                return f"sample {index + 1} has a token outside the vocabulary"
            if step["from"] != expected_from:
                return f"sample {index + 1} does not draw from the row of the token before"
            u = step["u"]
            if not isinstance(u, float) or not 0 <= u < 1:
                return f"sample {index + 1} has a draw whose u is not in [0, 1)"
            cumulative = list(itertools.accumulate(probs[step["from"]]))
            if bisect.bisect(cumulative, u * cumulative[-1]) != step["to"]:
                return f"in sample {index + 1}, u = {u} does not land on token {step['to']}"
            expected_from = step["to"]
        if steps[-1]["to"] != bos and any(step["to"] == bos for step in steps):
            return f"sample {index + 1} goes on after BOS"
    greedy = data.get("greedy")
    if not isinstance(greedy, list) or not greedy:
        return "`greedy` must list the draws of always taking the likeliest token"
    for step in greedy:
        if not isinstance(step, dict) or set(step) != {"from", "to"} or not _token(step["from"], size):
            return "each greedy draw must have from and to"
        row = probs[step["from"]]
        if step["to"] != row.index(max(row)):
            return "a greedy draw did not take the likeliest token"
    return None
