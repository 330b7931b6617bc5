"""The learner's own Values as a graph: every node with its operation, data and grad, every edge
with its local grad, as plain JSON for the browser's Graph tab and for `linebyline graph`.

The learner's file defines the class (value_nodes.py says what counts as a Value), so the graph
is read from the objects their code made, never rebuilt.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from .backward_replay import replay
from .graph_blocks import blocks, sources, summary, tops
from .value_nodes import children_of, close, is_value, number

LIMIT = 500  # nodes drawn one by one; a bigger graph shows these (nearest the top) and folds the rest
LIST_LIMIT = 64  # items of a list drawn as a picture


def walk(root: Any) -> list[Any]:
    """Every Value below root and root itself, each once, after its children (no recursion:
    a whole forward pass is tens of thousands of nodes deep in places)."""
    order: list[Any] = []
    seen = {id(root)}
    stack = [(root, iter(children_of(root) or ()))]
    while stack:
        node, kids = stack[-1]
        for kid in kids:
            if id(kid) not in seen and is_value(kid):
                seen.add(id(kid))
                stack.append((kid, iter(children_of(kid) or ())))
                break
        else:
            stack.pop()
            order.append(node)
    return order


def _unary(out: float, x: float, local: float) -> str:
    guesses = (("exp", lambda: math.exp(x)), ("log", lambda: math.log(x)),
               ("relu", lambda: max(0.0, x)))
    for name, compute in guesses:
        try:
            if close(out, compute()) and (name != "relu" or local in (0, 1)):
                return name
        except (ValueError, OverflowError):
            continue
    if x and out:
        n = local * x / out  # d(x**n)/dx = n * x**(n-1) = n * out / x
        try:
            if close(out, x ** round(n, 6)):
                return f"**{round(n, 6):g}"
        except (ValueError, OverflowError, ZeroDivisionError):
            pass
    return "?"


def operation(node: Any, kids: tuple[Any, ...], local: list[float | None]) -> str:
    """What made the node, read from its numbers when the class does not say (microgpt's Value
    keeps only children and local grads): +, *, exp, log, relu, **n, or ? when none fits."""
    named = getattr(node, "_op", None)
    if isinstance(named, str) and named:
        return named
    out = number(getattr(node, "data", None))
    datas = [number(getattr(kid, "data", None)) for kid in kids]
    if not kids:
        return ""
    if out is None or None in datas:
        return "?"
    known = None not in local  # a Value made by hand may carry no local grads (lesson 3.1)
    if len(kids) == 2:
        (a, b), (ga, gb) = datas, local
        if (not known or (ga == 1 and gb == 1)) and close(out, a + b):  # type: ignore[operator]
            return "+"
        if (not known or (close(ga, b) and close(gb, a))) and close(out, a * b):  # type: ignore[arg-type, operator]
            return "*"
        return "?"
    if len(kids) == 1 and known:
        return _unary(out, datas[0], local[0])  # type: ignore[arg-type]
    return "?"


def _locals_of(node: Any, count: int) -> list[float | None]:
    grads = getattr(node, "_local_grads", None)
    if not isinstance(grads, (tuple, list)) or len(grads) != count:
        return [None] * count
    return [number(g) for g in grads]


def names_in(namespace: Mapping[str, Any]) -> dict[int, str]:
    """The top-level name of each object the learner named (the first name, in file order)."""
    names: dict[int, str] = {}
    for name, obj in namespace.items():
        if not name.startswith("_") and is_value(obj):
            names.setdefault(id(obj), name)
    return names


def _shown(order: list[Any], starts: list[Any], limit: int, within: set[int] | None = None
           ) -> set[int]:
    """The ids of the nodes drawn: all of them (of those ``within`` a block, if given), or the
    `limit` nearest the starts: breadth first below the first start, then below the next (a
    block's many tops, one whole part at a time rather than a row of disconnected tops)."""
    members = [node for node in order if within is None or id(node) in within]
    if len(members) <= limit:
        return {id(node) for node in members}
    shown: set[int] = set()
    for start in starts:
        if id(start) in shown:
            continue
        shown.add(id(start))
        queue = [start]
        for node in queue:
            for kid in children_of(node) or ():
                if len(shown) >= limit:
                    return shown
                if id(kid) not in shown and is_value(kid) and (within is None or id(kid) in within):
                    shown.add(id(kid))
                    queue.append(kid)
    return shown


def graph(root: Any, order: list[Any], names: Mapping[int, str], limit: int = LIMIT,
          within: set[int] | None = None) -> tuple[dict[str, Any], dict[int, int], dict[int, str]]:
    """The nodes (children before the nodes made from them) and edges, as JSON-ready data, with
    each drawn node's number and the words that name it (keyed by the object's id)."""
    # A block's drawing starts from its tops, the one computed last first (the drawing's root).
    starts = list(reversed(tops(order, within, children_of))) if within else [root]
    shown = _shown(order, starts, limit, within)
    index = {id(node): i for i, node in enumerate(n for n in order if id(n) in shown)}
    below = _hidden_below(order, shown)
    nodes = []
    labels: dict[int, str] = {}
    for node in order:
        if id(node) not in shown:
            continue
        kids = children_of(node) or ()
        local = _locals_of(node, len(kids))
        nodes.append({
            "id": index[id(node)], "name": names.get(id(node), ""),
            "op": operation(node, kids, local),
            "data": number(getattr(node, "data", None)), "grad": number(getattr(node, "grad", None)),
            "children": [index[id(kid)] for kid in kids if id(kid) in index],
            "local": [g for kid, g in zip(kids, local) if id(kid) in index],
            "folded": below.get(id(node), 0),
        })
        labels[id(node)] = label(nodes[-1])
    total = len(order) if within is None else len(within)
    return {"nodes": nodes, "total": total, "root": index[id(root)]}, index, labels


def label(node: Mapping[str, Any]) -> str:
    """How the words name a drawn node: its name in the file, or its operation and number."""
    if node["name"]:
        return node["name"]
    return f"the {node['op']} node #{node['id']}" if node["op"] else f"the number #{node['id']}"


def _hidden_below(order: list[Any], shown: set[int]) -> dict[int, int]:
    """For each drawn node with children that are not drawn: how many such children."""
    counts: dict[int, int] = {}
    for node in order:
        if id(node) in shown:
            hidden = [kid for kid in children_of(node) or () if id(kid) not in shown and is_value(kid)]
            if hidden:
                counts[id(node)] = len(hidden)
    return counts


def _is_number_or_value(item: Any) -> bool:
    return number(item) is not None or (is_value(item) and number(getattr(item, "data", None)) is not None)


def _plain(item: Any) -> float | None:
    return number(getattr(item, "data", item))


def picture(obj: Any) -> dict[str, Any] | None:
    """A list of numbers (or Values) as bars, a list of such lists as a grid; None otherwise."""
    if not isinstance(obj, (list, tuple)) or not obj:
        return None
    if all(_is_number_or_value(item) for item in obj):
        values = [_plain(item) for item in obj[:LIST_LIMIT]]
        shares = all(v is not None and v >= 0 for v in values) and close(sum(values), 1.0)  # type: ignore[arg-type, misc]
        return {"kind": "bars", "values": values, "total": len(obj), "shares": shares}
    rows = [row for row in obj if isinstance(row, (list, tuple))]
    if len(rows) == len(obj) and all(_is_number_or_value(i) for row in rows for i in row):
        return {"kind": "grid", "rows": [[_plain(i) for i in row[:LIST_LIMIT]] for row in rows[:LIST_LIMIT]],
                "total": len(obj)}
    return None


def candidates(namespace: Mapping[str, Any]) -> list[str]:
    """The top-level names the Graph tab offers, in file order: Values and lists it can draw."""
    found = []
    for name, obj in namespace.items():
        if name.startswith("_") or isinstance(obj, type):
            continue
        if is_value(obj) or picture(obj) is not None:
            found.append(name)
    return found


def describe(namespace: Mapping[str, Any], name: str = "", rule: str = "chain",
             filename: str = "", limit: int = LIMIT, block: str = "") -> dict[str, Any]:
    """What the Graph tab and `linebyline graph` draw for the value called ``name`` (by default
    the last Value, or else the last drawable list, the file's top level binds). A graph of more
    than ``limit`` nodes also lists its blocks (graph_blocks.py); ``block`` draws one of them."""
    offered = candidates(namespace)
    if not offered:
        return {"error": "Your file's top level holds no Value and no list of numbers to draw. "
                         "Assign one to a name (for example loss = ...), then Run again.",
                "names": []}
    if name and name not in offered:
        return {"error": _missing(name, namespace, offered), "names": offered}
    chosen = name or _default(namespace, offered)
    obj = namespace[chosen]
    result: dict[str, Any] = {"name": chosen, "names": offered}
    if not is_value(obj):
        result["picture"] = picture(obj)
        return result
    order = walk(obj)
    top, within = obj, None
    if len(order) > limit:
        block_of, names = blocks(order, children_of, sources(namespace, is_value))
        result["blocks"] = summary(order, block_of, names)
        if block:
            within = {id(node) for node in order if block_of[id(node)] == block}
            if not within:
                listed = ", ".join(b["name"] for b in result["blocks"])
                return {**result, "error": f"{chosen}'s graph has no block {block}: it has {listed}."}
            top = tops(order, within, children_of)[-1]
            result["block"] = block
    result["graph"], index, labels = graph(top, order, names_in(namespace), limit, within)
    result["backward"] = backward = replay(obj, order, index, labels, rule, filename)
    # Each node shows the grad the learner's backward() gives it when called on this Value (the
    # run may have called it on another, or not at all): the step-through ends on the same.
    for node in result["graph"]["nodes"]:
        node["grad"] = backward.get("finals", {}).get(node["id"], node["grad"])
    backward.pop("finals", None)
    return result


def _default(namespace: Mapping[str, Any], offered: list[str]) -> str:
    """The last Value that no other named Value was made from (a loop's variable that ends on a
    leaf must not hide the loss), or else the last drawable list."""
    values = [n for n in offered if is_value(namespace[n])]
    if not values:
        return offered[-1]
    below: set[int] = set()
    for name in values:
        if id(namespace[name]) not in below:
            below.update(id(node) for node in walk(namespace[name]) if node is not namespace[name])
    tops = [n for n in values if id(namespace[n]) not in below]
    return (tops or values)[-1]


def _missing(name: str, namespace: Mapping[str, Any], offered: Iterable[str]) -> str:
    listed = ", ".join(offered)
    if name in namespace:
        kind = type(namespace[name]).__name__
        return f"{name} is a {kind}, not a Value or a list of numbers. Names that can be drawn: {listed}."
    return f"Your file's top level has no name {name}. Names that can be drawn: {listed}."
