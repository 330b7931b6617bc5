"""graph-backward (7.5): backward() stepped one node at a time, with a `=` instead of `+=` toggle."""
from __future__ import annotations

import math

from ..fields import Fields

KIND = "graph-backward"
OPERATIONS = {"add", "mul"}


def validate(params: Fields) -> None:
    params.only("inputs", "nodes", "mistake")
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
    params.get("mistake", str, None)
