"""The graph runtime/graph.py describes, as a file a terminal learner can open: SVG (any browser
or image viewer) or DOT (Graphviz). The same boxes as the browser's Graph tab: the node's name or
operation, its data and grad, each arrow labelled with its local grad; a node whose grad the
learner's backward() got wrong is outlined in red, with the grad it should have.

The layout is layered as the browser's: leaves on top, each node one row below its deepest
child, in the middle of its children's columns.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

BOX_W, BOX_H, GAP_X, GAP_Y, MARGIN = 160, 72, 24, 46, 16
DETOUR = BOX_W + 40  # how far an arrow that skips rows bends: its middle clears the boxes between


def shown(x: float | None) -> str:
    if x is None:
        return "—"
    text = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def title(node: Mapping[str, Any]) -> str:
    if node["name"]:
        return f"{node['name']} ({node['op']})" if node["op"] else node["name"]
    return f"{node['op']} node #{node['id']}" if node["op"] else f"number #{node['id']}"


def _layers(nodes: list[Mapping[str, Any]]) -> dict[int, tuple[float, int]]:
    """Each node's (column, row): nodes come children first, as graph.py lists them."""
    row: dict[int, int] = {}
    for node in nodes:
        row[node["id"]] = 1 + max((row[c] for c in node["children"]), default=-1)
    column: dict[int, float] = {}
    for level in range(max(row.values(), default=0) + 1):
        here = [n for n in nodes if row[n["id"]] == level]
        for node in here:
            kids = node["children"]
            column[node["id"]] = sum(column[c] for c in kids) / len(kids) if kids else float(len(column))
        here.sort(key=lambda n: column[n["id"]])
        for before, node in zip(here, here[1:]):
            column[node["id"]] = max(column[node["id"]], column[before["id"]] + 1)
    low = min(column.values(), default=0.0)
    return {i: (column[i] - low, row[i]) for i in row}


def _arrows(node: Mapping[str, Any], at: Mapping[int, tuple[float, float]],
            place: Mapping[int, tuple[float, int]]) -> list[str]:
    """The node's arrows from its children, each labelled with its local grad. An arrow that
    skips rows bends around the boxes between, and a child used twice (x * x) gets two arrows
    bent apart, so none hides another."""
    parts = []
    x, y = at[node["id"]]
    seen: dict[int, int] = {}
    for slot, child in enumerate(node["children"]):
        cx, cy = at[child]
        x1, y1, x2, y2 = cx + BOX_W / 2, cy + BOX_H, x + BOX_W / 2, y
        twin = seen[child] = seen.get(child, -1) + 1
        skips = place[node["id"]][1] - place[child][1] > 1
        bend = (DETOUR if skips else 0.0) + 44 * twin
        side = -1 if twin % 2 else 1
        qx, qy = (x1 + x2) / 2 + side * bend, (y1 + y2) / 2  # a curve's middle is half way to qx
        parts.append(f'<path d="M{x1:.1f} {y1:.1f} Q{qx:.1f} {qy:.1f} {x2:.1f} {y2:.1f}" fill="none" '
                     f'stroke="#4d5561" stroke-width="1.5" marker-end="url(#arrow)"/>')
        local = node["local"][slot] if slot < len(node["local"]) else None
        if local is not None:
            lx = (x1 + x2) / 2 + side * (bend / 2 + 4)
            anchor = "start" if side > 0 else "end"
            parts.append(f'<text x="{lx:.1f}" y="{qy:.1f}" text-anchor="{anchor}" fill="#4d5561">'
                         f"×{escape(shown(local))}</text>")
    return parts


def svg(result: Mapping[str, Any]) -> str:
    graph = result["graph"]
    nodes = graph["nodes"]
    wrong = {w["id"]: w["want"] for w in result.get("backward", {}).get("wrong", [])}
    place = _layers(nodes)
    at = {i: (MARGIN + c * (BOX_W + GAP_X), MARGIN + r * (BOX_H + GAP_Y)) for i, (c, r) in place.items()}
    width = int(max((x for x, _ in at.values()), default=0) + BOX_W + 2 * MARGIN + DETOUR / 2)
    height = int(max((y for _, y in at.values()), default=0) + BOX_H + 2 * MARGIN)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="12">',
             f"<title>{escape(result['name'])}: the graph of your Values</title>",
             '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" '
             'markerHeight="8" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" '
             'fill="#4d5561"/></marker></defs>',
             '<rect width="100%" height="100%" fill="#ffffff"/>']
    for node in nodes:
        parts.extend(_arrows(node, at, place))
    for node in nodes:
        x, y = at[node["id"]]
        bad = node["id"] in wrong
        stroke = 'stroke="#b3261e" stroke-width="3" stroke-dasharray="6 3"' if bad else 'stroke="#c9ced6"'
        grad = f"grad {shown(node['grad'])}"
        should = f'<text x="8" y="66" fill="#b3261e">should be {escape(shown(wrong[node["id"]]))}</text>' \
            if bad else ""
        more = f'<text x="{BOX_W - 6}" y="{BOX_H - 6}" text-anchor="end">+{node["folded"]}</text>' \
            if node["folded"] else ""
        parts.append(f'<g transform="translate({x:.1f} {y:.1f})"><rect width="{BOX_W}" height="{BOX_H}" '
                     f'rx="6" fill="#f4f5f7" {stroke}/><text x="8" y="17" font-weight="bold">'
                     f'{escape(title(node))}</text><text x="8" y="34">data {escape(shown(node["data"]))}'
                     f'</text><text x="8" y="50" fill="{"#b3261e" if bad else "#1b1e23"}">'
                     f"{escape(grad)}</text>{should}{more}</g>")
    parts.append("</svg>\n")
    return "\n".join(parts)


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def dot(result: Mapping[str, Any]) -> str:
    graph = result["graph"]
    wrong = {w["id"]: w["want"] for w in result.get("backward", {}).get("wrong", [])}
    lines = [f"digraph {_dot_string(result['name'])} {{", "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fillcolor="#f4f5f7", fontname="monospace"];']
    for node in graph["nodes"]:
        label = f"{title(node)}\\ndata {shown(node['data'])}\\ngrad {shown(node['grad'])}"
        extra = ""
        if node["id"] in wrong:
            label += f" (should be {shown(wrong[node['id']])})"
            extra = ', color="#b3261e", penwidth=3, style="rounded,filled,dashed"'
        if node["folded"]:
            label += f"\\n+{node['folded']} below, not drawn"
        lines.append(f'  n{node["id"]} [label="{label.replace(chr(34), chr(92) + chr(34))}"{extra}];')
    for node in graph["nodes"]:
        for slot, child in enumerate(node["children"]):
            local = node["local"][slot] if slot < len(node["local"]) else None
            label = f' [label="×{shown(local)}"]' if local is not None else ""
            lines.append(f"  n{child} -> n{node['id']}{label};")
    lines.append("}\n")
    return "\n".join(lines)


MARKS_SHOWN = 5  # marked steps printed; the file has them all as red outlines


def report(result: Mapping[str, Any], out: Path, kind: str) -> int:
    """Write the drawing and say in the terminal what it shows; 1 when there is nothing to draw."""
    if result.get("error"):
        print(result["error"], file=sys.stderr)
        return 1
    if "graph" not in result:
        values = ", ".join(shown(v) for v in result["picture"]["values"]) \
            if result["picture"]["kind"] == "bars" else f"{len(result['picture']['rows'])} rows"
        print(f"{result['name']} is a list ({values}), not a Value: the terminal draws Values; the "
              "browser's Graph tab draws lists as bars or a grid.", file=sys.stderr)
        return 1
    try:
        out.write_text(svg(result) if kind == "svg" else dot(result), encoding="utf-8")
    except OSError as error:
        print(f"{out}: could not be written ({error.strerror or error}).", file=sys.stderr)
        return 1
    graph, backward = result["graph"], result["backward"]
    drawn = f"{len(graph['nodes'])} of its {graph['total']} nodes" \
        if graph["total"] > len(graph["nodes"]) else f"{graph['total']} nodes"
    where = f"the block {result['block']} of {result['name']}" if result.get("block") else result["name"]
    print(f"Wrote {out}: the graph of {where}, {drawn}.")
    if result.get("blocks"):
        listed = ", ".join(f"{b['name']} ({b['count']:,})" for b in result["blocks"])
        print(f"Its blocks, each named by the weights its part uses last: {listed}. "
              "--block NAME draws one.")
    if not backward["available"]:
        print(backward["why"])
        return 0
    marked = [step for step in backward["steps"] if step["mark"]]
    if backward["marked"] > len(marked):
        print(f"{backward['marked']} steps are marked wrong; {len(marked)} of them on the nodes drawn:")
    rule = "counting paths" if backward["rule"] == "paths" else "the chain rule"
    if not backward["marked"] and not backward["wrong"] and not backward["error"]:
        print(f"Your backward() wrote a grad {backward['writes']} times: every step agrees with {rule}.")
    for step in marked[:MARKS_SHOWN]:
        where = f"line {step['line']}: " if step["line"] else ""
        print(f"  {where}{step['words']}")
    if len(marked) > MARKS_SHOWN:
        print(f"  ... and {len(marked) - MARKS_SHOWN} more steps marked wrong.")
    if backward["wrong"]:
        print(f"{len(backward['wrong'])} node(s) end with a grad {rule} does not give: outlined in red.")
    if backward["error"]:
        print(f"Your backward() stopped with {backward['error']}.")
    return 0
