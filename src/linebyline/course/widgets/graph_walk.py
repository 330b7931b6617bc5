"""graph-walk (3.4, 3.5): a small graph of Values, and a walk over it, stepped one move at a time.

``mode: visit`` (3.4) steps through the sort's calls of visit(), with the visited set or, with
the mistake switched on, without it; ``ladder`` adds a slider that counts visit's calls on a deep
graph where each Value is used twice. ``mode: paths`` (3.5) walks the sorted list in reverse,
each node handing its count of paths to the output on to its children; the mistake walks it
forwards. The graph is given like graph-backward's: inputs, then nodes made by add or mul.
Every number is worked out in the browser from these.
"""
from __future__ import annotations

import math

from ..fields import Fields

KIND = "graph-walk"
MODES = ("visit", "paths")
OPERATIONS = {"add", "mul"}


def validate(params: Fields) -> None:
    params.only("inputs", "nodes", "mode", "mistake", "ladder")
    inputs = params.get("inputs", dict) or {}
    known: set[str] = set()
    for name, value in inputs.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
            params.error(f"input {name!r} must be a number", line=inputs.line_of(name))
        known.add(str(name))
    nodes = params.items("nodes", "node")
    for node in nodes:
        node.only("name", "op", "args")
        name, op, args = node.get("name", str), node.get("op", str), node.get("args", list)
        if op is not None and op not in OPERATIONS:
            node.error(f"unknown op {op!r} (known: {', '.join(sorted(OPERATIONS))})", "op")
        for arg in args or []:
            if arg not in known:
                node.error(f"argument {arg!r} is not an input or an earlier node", "args")
        if args is not None and len(args) != 2:
            node.error("`args` must name exactly two operands", "args")
        if name in known:
            node.error(f"the name {name!r} is already used", "name")
        if name:
            known.add(name)
    if not nodes:
        params.error("`nodes` must list at least one node")
    mode = params.get("mode", str)
    if mode is not None and mode not in MODES:
        params.error(f"`mode` must be one of {', '.join(MODES)}, not {mode!r}", "mode")
    params.get("mistake", str, None)
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
