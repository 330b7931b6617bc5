"""graph-walk (3.4, 3.5): a small graph of Values, and a walk over it, stepped one move at a time.

``mode: visit`` (3.4) steps through the sort's calls of visit(), with the visited set or, with
the mistake switched on, without it; ``ladder`` adds a slider that counts visit's calls on a deep
graph where each Value is used twice. ``mode: paths`` (3.5) walks the sorted list in reverse,
each node handing its count of paths to the output on to its children; the mistake walks it
forwards. The graph is given like graph-backward's: inputs, then nodes made by add or mul.
Every number is worked out in the browser from these.
"""
from __future__ import annotations

from ..fields import Fields
from . import _common

KIND = "graph-walk"
MODES = ("visit", "paths")
OPERATIONS = {"add", "mul"}


def validate(params: Fields) -> None:
    params.only("inputs", "nodes", "mode", "mistake", "ladder")
    _common.value_graph(params, OPERATIONS)
    mode = _common.one_of(params, "mode", MODES)
    _common.texts(params, "mistake")
    ladder = params.mapping("ladder", "ladder: ", required=False)
    if ladder is not None:
        if mode != "visit":
            params.error("`ladder` only goes with `mode: visit`", "ladder")
        ladder.only("max", "start")
        top, start = ladder.get("max", int), ladder.get("start", int)
        if top is not None and not 2 <= top <= 60:
            ladder.error("`max` must be between 2 and 60", "max")
        if None not in (top, start) and not 1 <= start <= top:
            ladder.error("`start` must lie between 1 and `max`", "start")
