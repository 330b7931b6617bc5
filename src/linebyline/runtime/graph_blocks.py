"""A graph too big to draw (a whole forward pass) folded into blocks that can be opened one at a
time, each named by the weights its part of the computation uses last.

The weights are found where the learner's file keeps them: a dict of matrices (microgpt's
state_dict: wte, wpe, layer0.attn_wq ...), or a top-level matrix of Values. Each node belongs to
the block of the weights it was computed from that come latest in the computation (the order in
which the walk first meets each matrix's Values): the embedding's nodes to wte or wpe, attention's
to attn_wq ... attn_wo, the logits and the loss to lm_head. Nodes made from plain numbers only
are "numbers".
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NUMBERS = "numbers"


def _matrix_values(obj: Any, is_value: Any) -> list[Any]:
    """The Values of a matrix (a list of lists of Values) or a vector; [] for anything else."""
    if not isinstance(obj, (list, tuple)) or not obj:
        return []
    if all(isinstance(row, (list, tuple)) for row in obj):
        items = [item for row in obj for item in row]
    else:
        items = list(obj)
    return items if items and all(is_value(item) for item in items) else []


def sources(namespace: Mapping[str, Any], is_value: Any) -> dict[int, str]:
    """Each weight Value's matrix name, from the dicts of matrices first, then top-level matrices
    (a list of every parameter, such as params, names nothing: its Values have their matrix)."""
    found: dict[int, str] = {}
    for name, obj in namespace.items():
        if isinstance(obj, dict) and not name.startswith("_"):
            for key, matrix in obj.items():
                for value in _matrix_values(matrix, is_value):
                    found.setdefault(id(value), str(key))
    for name, obj in namespace.items():
        if not name.startswith("_") and isinstance(obj, (list, tuple)) and obj \
                and all(isinstance(row, (list, tuple)) for row in obj):
            for value in _matrix_values(obj, is_value):
                found.setdefault(id(value), name)
    return found


def blocks(order: list[Any], children_of: Any, found: Mapping[int, str]
           ) -> tuple[dict[int, str], list[str]]:
    """Each node's block: of the weights it was made from, those the computation uses latest; and
    the blocks in the order the computation reaches them (plain numbers first).

    The walk's order is not the computation's (it goes depth first from the root), so "latest" is
    measured by height: how far above the leaves the first node that reads each matrix stands
    (the embedding's sums stand low, lm_head's products high)."""
    height: dict[int, int] = {}
    first_use: dict[str, int] = {}
    for node in order:  # children before the nodes made from them
        kids = [kid for kid in children_of(node) or () if id(kid) in height]
        here = 1 + max((height[id(kid)] for kid in kids), default=-1)
        height[id(node)] = here
        for kid in kids:
            source = found.get(id(kid))
            if source is not None and here < first_use.get(source, here + 1):
                first_use[source] = here

    # On a tie (the embedding's Values and the first layer's weights meet in one product), the
    # matrix the file lists later wins: files list their weights in the order the model uses them.
    listed = {name: i for i, name in enumerate(dict.fromkeys(found.values()))}

    def rank(name: str) -> tuple[int, int]:
        return first_use.get(name, -1), listed.get(name, -1)

    block: dict[int, str] = {}
    for node in order:
        kids = children_of(node) or ()
        if not kids:
            block[id(node)] = found.get(id(node), NUMBERS)
            continue
        names = {block[id(kid)] for kid in kids if id(kid) in block} - {NUMBERS}
        block[id(node)] = max(names, key=rank) if names else NUMBERS
    return block, sorted(set(block.values()), key=lambda name: (-2, 0) if name == NUMBERS else rank(name))


def tops(order: list[Any], within: set[int], children_of: Any) -> list[Any]:
    """The block's nodes that no other node of the block was made from: where its drawing starts."""
    used = {id(kid) for node in order if id(node) in within for kid in children_of(node) or ()}
    return [node for node in order if id(node) in within and id(node) not in used]


def summary(order: list[Any], block: Mapping[int, str], names: list[str]) -> list[dict[str, Any]]:
    """The blocks, in the order given, with how many nodes each holds."""
    counts = dict.fromkeys(names, 0)
    for node in order:
        counts[block[id(node)]] += 1
    return [{"name": name, "count": count} for name, count in counts.items()]
