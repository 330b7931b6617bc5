"""script-diff (7.1): one course script becomes the next. The lines the second deletes and adds,
beside the losses both print for their first steps, to the last digit.

The page hands the widget each script's URL (``left`` and ``right`` name them); the browser
works out the line diff itself. The losses come from the lesson's ``compute``, which sets
``data`` to ``{"steps": [[step, left_loss, right_loss], ...], "mistake": [right_loss, ...],
"mistake_note": text}``: exact losses (the widget shows them as printed, and their difference),
and, for the "try the mistake" toggle (its words are ``mistake``), the right script's losses
with that mistake made.
"""
from __future__ import annotations

import re
from typing import Any

from ..fields import Fields
from . import _common

KIND = "script-diff"
SCRIPTS = ("left", "right")  # parameters that name a script of the course folder
SCRIPT_NAME = re.compile(r"^[A-Za-z0-9_]+\.py$")
MAX_STEPS = 100


def validate(params: Fields) -> None:
    params.only("left", "right", "mistake", "caption")
    for key in SCRIPTS:
        name = params.get(key, str)
        if name is not None and not SCRIPT_NAME.match(name):
            params.error(f"`{key}` must be a script's file name such as train1.py", key)
    _common.texts(params, "mistake", "caption")


def _loss(value: Any) -> bool:
    return _common.finite(value) and value > 0


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or not {"steps"} <= set(data) <= {"steps", "mistake",
                                                                   "mistake_note"}:
        return "it must be a dict with `steps`, and optionally `mistake` and `mistake_note`"
    steps = data["steps"]
    if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_STEPS:
        return f"`steps` must list 1 to {MAX_STEPS} steps"
    for index, row in enumerate(steps, 1):
        if (not isinstance(row, list) or len(row) != 3 or row[0] != index
                or not _loss(row[1]) or not _loss(row[2])):
            return (f"step {index} must be [{index}, left loss, right loss], with losses above 0"
                    f", not {row!r}")
    mistake = data.get("mistake")
    if mistake is not None:
        if not isinstance(mistake, list) or len(mistake) != len(steps) \
                or not all(_loss(value) for value in mistake):
            return "`mistake` must list one loss above 0 per step"
        if not isinstance(data.get("mistake_note"), str) or not data["mistake_note"].strip():
            return "`mistake` needs its `mistake_note`: what the mistake does to the losses"
    return None
