"""expression-graph (3.1, 3.2): type an expression over a few given Values and see its graph.

``build: written`` draws one node per operator as it is written (3.1). ``build: value`` draws the
graph microgpt's Value really builds (3.2): `-`, `/` and unary minus made of add, mul and pow
nodes, plain numbers wrapped into new leaves; ``mistakes`` lists wrong versions of Value the
learner may switch to. Every number is worked out in the browser from what the learner types.
"""
from __future__ import annotations

import math
import re

from ..fields import Fields
from . import _common

KIND = "expression-graph"
BUILDS = ("written", "value")
MISTAKES = ("rsub-flipped", "no-radd", "no-wrap")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
ALLOWED = re.compile(r"^[A-Za-z0-9_.+\-*/() ]*$")


def validate(params: Fields) -> None:
    params.only("variables", "start", "examples", "build", "mistakes")
    variables = params.get("variables", dict) or {}
    if "variables" in params.data and not variables:
        params.error("`variables` must give at least one name and its number", "variables")
    for name, value in variables.items():
        line = variables.line_of(name)
        if not NAME.match(str(name)):
            params.error(f"variable name {name!r} must be a Python name such as a or x1", line=line)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            params.error(f"variable {name!r} must be a number", line=line)
    for key in ("start",):
        text = params.get(key, str)
        if text is not None and not ALLOWED.match(text):
            params.error(f"`{key}` may use only names, numbers, + - * / ** and brackets", key)
    examples = params.get("examples", list, [])
    for index, example in enumerate(examples or []):
        if not isinstance(example, str) or not example.strip() or not ALLOWED.match(example):
            params.error(f"example {index + 1} must be an expression of names, numbers, "
                         "+ - * / ** and brackets", line=examples.line_of(index))
    build = _common.one_of(params, "build", BUILDS, "written")
    mistakes = _common.known_list(params, "mistakes", MISTAKES)
    if mistakes and build != "value":
        params.error("`mistakes` only apply with `build: value`", "mistakes")
