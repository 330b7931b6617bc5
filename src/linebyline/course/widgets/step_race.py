"""step-race (7.7): two course scripts train the same steps in the learner's own browser, one
after the other, in the page's Python; the widget times a step of each, shows both losses side
by side, and says why the slow one is slow with counts the lesson's code computed.

``fast`` and ``slow`` name the scripts (the page hands the widget their URLs); ``steps`` offers
how many steps to race (at least 2: a step's time is measured between two printed steps). The
"try the mistake" toggle (its words are ``mistake``) races the slow script without its
`__slots__` line. ``compute`` sets ``data`` to ``{"steps": [{"step", "doc", "positions",
"values", "leaves", "tuples"}, ...]}``: for the slow script's first steps, the name trained on,
its positions, the Values its loss was built from (each counted once), how many of those are
leaves, and the tuples they hold.
"""
from __future__ import annotations

import re
from typing import Any

from ..fields import Fields
from . import _common

KIND = "step-race"
SCRIPTS = ("fast", "slow")
SCRIPT_NAME = re.compile(r"^[A-Za-z0-9_]+\.py$")
MAX_STEPS = 50
COUNTS = ("positions", "values", "leaves", "tuples")


def validate(params: Fields) -> None:
    params.only("fast", "slow", "steps", "mistake", "caption")
    for key in SCRIPTS:
        name = params.get(key, str)
        if name is not None and not SCRIPT_NAME.match(name):
            params.error(f"`{key}` must be a script's file name such as train1.py", key)
    steps = params.get("steps", list)
    if steps is not None:
        if not steps:
            params.error("`steps` must offer at least one number of steps", "steps")
        for count in steps:
            if isinstance(count, bool) or not isinstance(count, int) \
                    or not 2 <= count <= MAX_STEPS:
                params.error(f"`steps` must hold whole numbers from 2 to {MAX_STEPS} (a step is "
                             f"timed between two printed steps), not {count!r}", "steps")
    _common.texts(params, "mistake", "caption")


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or set(data) != {"steps"}:
        return "it must be a dict with exactly one key, `steps`"
    steps = data["steps"]
    if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_STEPS:
        return f"`steps` must list 1 to {MAX_STEPS} steps"
    for index, row in enumerate(steps, 1):
        if not isinstance(row, dict) or set(row) != {"step", "doc", *COUNTS}:
            return f"step {index} must have exactly step, doc, {', '.join(COUNTS)}"
        if row["step"] != index or not isinstance(row["doc"], str) or not row["doc"]:
            return f"step {index} must say its number ({index}) and the name it trained on"
        for key in COUNTS:
            value = row[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                return f"step {index}: `{key}` must be a whole number above 0"
        if row["leaves"] >= row["values"]:
            return f"step {index}: the leaves must be fewer than the Values they are among"
    return None
