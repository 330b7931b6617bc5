"""loss-surface (10.1, 10.3, 10.5): SGD and Adam side by side on a surface with a steep and a
flat direction, loss = a·x² + b·y², each path worked out in the browser from the sliders.

Sliders move over a list of values (``{values: [...], start: ...}``): SGD's learning rate,
Adam's learning rate, β1 and β2. ``decay`` adds a switch for microgpt's learning rate, which
shrinks to 0 over the steps (its value is where the switch starts). ``mistake`` adds a "try the
mistake" toggle: ``shared`` keeps one m and one v for both parameters, ``no-sqrt`` divides by
v̂ instead of its square root, ``no-correction`` leaves m and v without their bias correction.
"""
from __future__ import annotations

from ..fields import Fields
from . import _common

KIND = "loss-surface"
MISTAKES = ("shared", "no-sqrt", "no-correction")
SLIDERS = ("sgd_lr", "adam_lr", "beta1", "beta2")
MAX_STEPS = 200
MAX_VALUES = 20


def validate(params: Fields) -> None:
    params.only("surface", "start", "steps", *SLIDERS, "decay", "mistake", "adam_label",
                "caption")
    surface = params.mapping("surface")
    if surface is not None:
        surface.only("x", "y")
        for key in ("x", "y"):
            value = surface.get(key, float)
            if value is not None and not 0 < value <= 1000:
                surface.error(f"`{key}` must be a coefficient above 0 (and at most 1000)", key)
    start = params.get("start", list)
    if start is not None and (len(start) != 2 or not all(
            _common.finite(value) and abs(value) <= 100 for value in start)):
        params.error("`start` must be two numbers, x and y, between -100 and 100", "start")
    steps = params.get("steps", int)
    if steps is not None and not 1 <= steps <= MAX_STEPS:
        params.error(f"`steps` must be from 1 to {MAX_STEPS}", "steps")
    for key in SLIDERS:
        _stops(params, key, top=1.0 if key.startswith("beta") else None)
    params.get("decay", bool, None)
    _common.one_of(params, "mistake", MISTAKES, None)
    _common.texts(params, "adam_label", "caption")


def _stops(params: Fields, key: str, top: float | None) -> None:
    """A slider over a list of values: `values` (rising, each >= 0 and below `top`) and `start`,
    one of them."""
    fields = params.mapping(key)
    if fields is None:
        return
    fields.only("values", "start")
    values, start = fields.get("values", list), fields.get("start", float)
    if values is None:
        return
    if not 2 <= len(values) <= MAX_VALUES or not all(_common.finite(v) for v in values):
        fields.error(f"`values` must list 2 to {MAX_VALUES} numbers", "values")
        return
    if any(b <= a for a, b in zip(values, values[1:])) or values[0] < 0:
        fields.error("`values` must rise, from 0 or more", "values")
    elif top is not None and values[-1] >= top:
        fields.error(f"`values` must stay below {top:g}", "values")
    elif key.endswith("lr") and values[0] <= 0:
        fields.error("a learning rate must be above 0", "values")
    if start is not None and start not in values:
        fields.error("`start` must be one of `values`", "start")
