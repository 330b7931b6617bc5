"""softmax-playground (5.5): edit logits, see the probabilities with and without the max subtracted.

Everything is computed in the browser from what the learner types, the way Python would: exp of
a number above about 709.78 raises OverflowError, a total of 0 raises ZeroDivisionError. The
presets are typed lists; one more preset, the model's own logits, is computed by the lesson.

Its data: ``{"label": str, "labels": [token labels], "logits": [numbers]}``.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "softmax-playground"
MAX_LOGITS = 30


def _numbers_problem(values: Any) -> str | None:
    if not isinstance(values, list) or not 1 <= len(values) <= MAX_LOGITS:
        return f"must be a list of 1 to {MAX_LOGITS} numbers"
    for value in values:
        if not _common.finite(value):
            return f"must hold only numbers, not {value!r}"
    return None


def validate(params: Fields) -> None:
    params.only("logits", "presets", "mistake")
    logits = params.get("logits", list)
    if logits is not None and (problem := _numbers_problem(logits)):
        params.error(f"`logits` {problem}", "logits")
    for preset in params.items("presets", "preset", required=False):
        preset.only("label", "logits")
        preset.get("label", str)
        values = preset.get("logits", list)
        if values is not None and (problem := _numbers_problem(values)):
            preset.error(f"`logits` {problem}", "logits")
    _common.texts(params, "mistake")


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    if not isinstance(data.get("label"), str):
        return "`label` must be text: the name of the computed preset"
    problem = _numbers_problem(data.get("logits"))
    if problem:
        return f"`logits` {problem}"
    labels = data.get("labels")
    if not isinstance(labels, list) or len(labels) != len(data["logits"]) or not all(
            isinstance(label, str) for label in labels):
        return "`labels` must name each of the logits"
    return None
