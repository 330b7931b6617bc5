"""bias-correction (10.4): Adam's first steps with the bias correction and without, for a few
parameters of microgpt, one step at a time.

The lesson's ``compute`` trains microgpt's first steps and sets ``data`` to
``{"beta1", "beta2", "eps", "lr": [...], "names": [...], "params": [{"label", "about", "g",
"m", "v"}, ...], "losses": {"with": [...], "without": [...]}}``: each step's learning rate and
name, and for each watched parameter its gradient and its m and v after each step (as the run
with the correction left them); then the loss of each step in that run and in a run without
the correction. The widget works out m̂, v̂ and the step from those, with the correction, without
it, or, as the mistake, with the power `step` instead of `step + 1`.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "bias-correction"
MAX_STEPS = 100
MAX_PARAMS = 4


def validate(params: Fields) -> None:
    params.only("mistake", "caption")
    _common.texts(params, "mistake", "caption")


def _numbers(values: Any, count: int, where: str, positive: bool = False) -> str | None:
    if not isinstance(values, list) or len(values) != count or not all(
            _common.finite(value) for value in values):
        return f"{where} must be a list of {count} numbers"
    if positive and any(value < 0 for value in values):
        return f"{where} must not be negative"
    return None


def check_data(data: Any) -> str | None:
    keys = {"beta1", "beta2", "eps", "lr", "names", "params", "losses"}
    if not isinstance(data, dict) or set(data) != keys:
        return f"it must be a mapping with exactly the keys {', '.join(sorted(keys))}"
    for key in ("beta1", "beta2"):
        if not (_common.finite(data[key]) and 0 < data[key] < 1):
            return f"`{key}` must be a number between 0 and 1"
    if not (_common.finite(data["eps"]) and 0 < data["eps"] < 1):
        return "`eps` must be a small positive number"
    names = data["names"]
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_STEPS or not all(
            isinstance(name, str) for name in names):
        return f"`names` must list each step's name, 1 to {MAX_STEPS} of them"
    count = len(names)
    problem = _numbers(data["lr"], count, "`lr`", positive=True)
    if problem:
        return problem
    watched = data["params"]
    if not isinstance(watched, list) or not 1 <= len(watched) <= MAX_PARAMS:
        return f"`params` must list 1 to {MAX_PARAMS} parameters"
    for index, one in enumerate(watched):
        where = f"params[{index}]"
        if not isinstance(one, dict) or set(one) != {"label", "about", "g", "m", "v"}:
            return f"{where} must have exactly label, about, g, m and v"
        if not all(isinstance(one[key], str) and one[key].strip() for key in ("label", "about")):
            return f"{where} needs a `label` and an `about` (text)"
        for key in ("g", "m"):
            problem = _numbers(one[key], count, f"{where}.{key}")
            if problem:
                return problem
        problem = _numbers(one["v"], count, f"{where}.v", positive=True)
        if problem:
            return problem
    losses = data["losses"]
    if not isinstance(losses, dict) or set(losses) != {"with", "without"}:
        return "`losses` must have exactly `with` and `without`"
    for key in ("with", "without"):
        problem = _numbers(losses[key], count, f"`losses.{key}`", positive=True)
        if problem:
            return problem
    return None
