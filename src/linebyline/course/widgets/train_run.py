"""train-run: train one of the course's scripts in the browser, with a live loss chart and names.

The page hands the widget the URL of each script; the browser's Python runs it on input.txt
with the number of steps the learner picks: the script's one `num_steps = N` line is changed,
so a shorter run is a whole run of its own (its learning rate decays over those steps). With
``first_steps: true``, num_steps keeps the script's value and its training loop (`for step in
range(num_steps):`) stops after the steps picked instead: the run is the first steps of the
script's whole run, the same losses it prints (``linebyline.mine.training.configure(first=)``,
which the widget mirrors).
"""
from __future__ import annotations

import re

from ..fields import Fields
from . import _common

KIND = "train-run"
SCRIPTS = ("script", "compare")  # parameters that name a script of the course folder
SCRIPT_NAME = re.compile(r"^[A-Za-z0-9_]+\.py$")
MAX_STEPS = 100_000


def validate(params: Fields) -> None:
    params.only("script", "steps", "compare", "caption", "first_steps")
    params.get("first_steps", bool, False)
    for key in SCRIPTS:
        name = params.get(key, str, None) if key == "compare" else params.get(key, str)
        if name is not None and not SCRIPT_NAME.match(name):
            params.error(f"`{key}` must be a script's file name such as train1.py", key)
    steps = params.get("steps", list)
    if steps is not None:
        if not steps:
            params.error("`steps` must offer at least one number of steps", "steps")
        for count in steps:
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_STEPS:
                params.error(f"`steps` must hold whole numbers from 1 to {MAX_STEPS}, not {count!r}",
                             "steps")
    _common.texts(params, "caption")
