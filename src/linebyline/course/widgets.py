"""The Explore widget kinds a lesson may declare, and what parameters each one takes.

A lesson says ``explore: {kind: ..., params: {...}}``; the web app renders the kind. Adding a
widget kind means adding its validator here and one component in the browser code.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from .fields import Fields

# Operations of the local-gradient widget: each takes x and, for some, one constant.
LOCAL_OPERATIONS = {
    "add": "x + c", "mul": "x * c", "pow": "x ** n", "log": "log(x)", "exp": "exp(x)",
    "relu": "relu(x)",
}
GRAPH_OPERATIONS = {"add", "mul"}


def _local_gradient(params: Fields) -> None:
    params.only("operations", "x", "h")
    operations = params.items("operations", "operation") if "operations" in params.data else []
    if not operations:
        params.error("`operations` must list at least one operation")
    for operation in operations:
        operation.only("op", "c", "n", "label")
        op = operation.get("op", str)
        if op is not None and op not in LOCAL_OPERATIONS:
            operation.error(f"unknown op {op!r} (known: {', '.join(LOCAL_OPERATIONS)})", "op")
        if op in ("add", "mul"):
            operation.get("c", float)
        if op == "pow":
            operation.get("n", float)
    x = params.mapping("x", "x: ")
    if x is not None:
        x.only("min", "max", "step", "start")
        low, high, step, start = (x.get(key, float) for key in ("min", "max", "step", "start"))
        if None not in (low, high, step, start):
            if not low < high:
                x.error("`min` must be below `max`")
            elif not low <= start <= high:
                x.error("`start` must lie between `min` and `max`", "start")
            if step <= 0:
                x.error("`step` must be above 0", "step")
    h = params.get("h", float)
    if h is not None and not 0 < h < 1:
        params.error("`h` must be a small positive number such as 0.001", "h")


def _graph_backward(params: Fields) -> None:
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
        if op is not None and op not in GRAPH_OPERATIONS:
            node.error(f"unknown op {op!r} (known: {', '.join(sorted(GRAPH_OPERATIONS))})", "op")
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


VALIDATORS: dict[str, Callable[[Fields], None]] = {
    "local-gradient": _local_gradient,
    "graph-backward": _graph_backward,
}
