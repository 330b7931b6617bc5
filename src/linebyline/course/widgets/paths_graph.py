"""paths-graph (4.5): a small graph in which a value is used more than once.

Every path from the chosen input to the output is listed with the product of the local rates
along it; selecting one highlights it on the graph, and the paths' shares add up to the slope
measured by nudging the input. "Try the mistake" adds along a path, multiplies across paths, or
keeps only the last path (`=` instead of `+=`).

The widget says the sum of the shares agrees with the nudged slope, so validation proves it: at
every stop of the input's slider, the graph is defined a nudge either side, and the sum of the
paths' products matches the nudge.
"""
from __future__ import annotations

import math
from typing import Any

from ..fields import Fields
from . import _common

KIND = "paths-graph"
ARITY = {"add": 2, "mul": 2, "div": 2, "log": 1, "exp": 1, "relu": 1}
MISTAKES = ("add-along", "multiply-across", "last-only")
AGREE = 1e-4
MAX_STOPS = 400


def _value(op: str, a: float, b: float = 0.0) -> float:
    if op == "add":
        return a + b
    if op == "mul":
        return a * b
    if op == "div":
        return a / b
    if op == "log":
        return math.log(a)
    if op == "exp":
        return math.exp(a)
    return max(0.0, a)


def _rates(op: str, a: float, b: float = 0.0) -> list[float]:
    """d(node)/d(each argument), in the arguments' order (the same as the browser's)."""
    if op == "add":
        return [1.0, 1.0]
    if op == "mul":
        return [b, a]
    if op == "div":
        return [1 / b, -a / (b * b)]
    if op == "log":
        return [1 / a]
    if op == "exp":
        return [math.exp(a)]
    return [1.0 if a > 0 else 0.0]


def forward(values: dict[str, float], nodes: list[dict[str, Any]]) -> dict[str, float]:
    """Every node's value, the inputs included; raises ValueError etc. where undefined."""
    known = dict(values)
    for node in nodes:
        args = [known[a] if isinstance(a, str) else float(a) for a in node["args"]]
        known[node["name"]] = _value(node["op"], *args)
    return known


def path_shares(values: dict[str, float], nodes: list[dict[str, Any]], source: str) -> list[float]:
    """The product of local rates along each path from `source` to the last node."""
    known = forward(values, nodes)
    by_name = {node["name"]: node for node in nodes}

    def down(name: str) -> list[float]:
        if name == source:
            return [1.0]
        node = by_name.get(name)
        if node is None:
            return []
        args = [known[a] if isinstance(a, str) else float(a) for a in node["args"]]
        shares = []
        for arg, rate in zip(node["args"], _rates(node["op"], *args)):
            if isinstance(arg, str):
                shares += [rate * share for share in down(arg)]
        return shares

    return down(nodes[-1]["name"])


def validate(params: Fields) -> None:
    params.only("graphs", "h", "mistakes")
    h = params.get("h", float)
    if h is not None and not 0 < h < 0.01:
        params.error("`h` must be a small positive number such as 0.0001", "h")
    _common.known_list(params, "mistakes", MISTAKES)
    graphs = params.items("graphs", "graph")
    if not graphs:
        params.error("`graphs` must list at least one graph")
    for graph in graphs:
        _graph(graph, h)


def _graph(graph: Fields, h: float | None) -> None:
    graph.only("label", "input", "values", "slider", "nodes")
    graph.get("label", str)
    source = graph.get("input", str)
    values = graph.get("values", dict) or {}
    plain: dict[str, float] = {}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
            graph.error(f"value {name!r} must be a number", line=values.line_of(name))
        else:
            plain[str(name)] = float(value)
    if source is not None and source not in plain:
        graph.error(f"the input {source!r} needs a value in `values`", "input")
        return
    nodes: list[dict[str, Any]] = []
    known = set(plain)
    for node in graph.items("nodes", "node"):
        node.only("name", "op", "args")
        name, op, args = node.get("name", str), node.get("op", str), node.get("args", list)
        if not _common.known(node, "op", op, ARITY):
            return
        if name in known:
            node.error(f"the name {name!r} is already used", "name")
            return
        if name is None or op is None or args is None:
            return
        if len(args) != ARITY[op]:
            node.error(f"{op} takes {ARITY[op]} argument(s)", "args")
            return
        for arg in args:
            if isinstance(arg, str) and arg not in known:
                node.error(f"argument {arg!r} is not an input or an earlier node", "args")
                return
            if not isinstance(arg, str) and (isinstance(arg, bool) or not isinstance(arg, int | float)):
                node.error("an argument must be a name or a number", "args")
                return
        known.add(name)
        nodes.append({"name": name, "op": op, "args": list(args)})
    if not nodes:
        graph.error("`nodes` must list at least one node")
        return
    stops = [plain[source]]
    slider = graph.mapping("slider", "slider: ", required=False)
    if slider is not None:
        slider.only("min", "max", "step")
        low, high, step = (slider.get(key, float) for key in ("min", "max", "step"))
        if None in (low, high, step) or not low < high or step <= 0 \
                or (high - low) / step > MAX_STOPS or not low <= plain[source] <= high:
            slider.error(f"needs min < max around the input's value and a step above 0 giving "
                         f"at most {MAX_STOPS} stops")
            return
        count = int(math.floor((high - low) / step + 1e-9))
        stops = [round(low + i * step, 10) for i in range(count + 1)]
    if h is None:
        return
    for x in stops:
        at = {**plain, source: x}
        try:
            shares = path_shares(at, nodes, source)
            up = forward({**at, source: x + h}, nodes)[nodes[-1]["name"]]
            down = forward({**at, source: x - h}, nodes)[nodes[-1]["name"]]
        except (ValueError, ZeroDivisionError, OverflowError):
            graph.error(f"the graph is undefined at {source} = {x:g} or a nudge away from it")
            return
        if not shares:
            graph.error(f"no path leads from {source!r} to the output {nodes[-1]['name']!r}")
            return
        measured, total = (up - down) / (2 * h), sum(shares)
        if abs(measured - total) > AGREE * max(1.0, abs(total)):
            graph.error(f"at {source} = {x:g} the paths add up to {total:.6g} but nudging "
                        f"measures {measured:.6g}: keep the slider away from there (relu's "
                        "corner?) or use a smaller h")
            return
