"""Does a gradient reach every number it should? A learner who computes through ``.data``
(``Value(sum(q.data * k.data ...))``, a ReLU built from floats) gets the forward numbers right, but
the graph is cut there: backward() can never reach the weights before the cut.

``cut_off`` answers from the graph alone, by following ``_children`` from the output, so it needs
no backward() of the learner's and no gradient values: what the graph does not link, no correct
backward could fill in. ``cut_counts`` asks the same of whole weight matrices and counts what is
cut per matrix; ``cut_words`` says those counts in a sentence.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .words import listing

MAX_NODES = 2_000_000  # a whole forward pass of microgpt is about 60,000 nodes


def reached(output: Any, seen: set[int] | None = None) -> set[int]:
    """The ids of every node the output was computed from (itself included), added to ``seen``
    (a walk of several outputs shares it: what one reached, the next does not walk again)."""
    seen = set() if seen is None else seen
    stack = [output]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if len(seen) > MAX_NODES:
            break
        stack.extend(getattr(node, "_children", ()) or ())
    return seen


def _reached_all(outputs: Any) -> set[int]:
    """What ``outputs`` (one node, or a list of them) reach, walked with one shared seen-set."""
    found: set[int] = set()
    for output in outputs if isinstance(outputs, (list, tuple)) else [outputs]:
        reached(output, found)
    return found


def cut_off(outputs: Any, leaves: Mapping[str, Any]) -> list[str]:
    """The names of ``leaves`` that none of ``outputs`` (one node, or a list of them) is computed
    from: no gradient can reach them. In the order of ``leaves``."""
    found = _reached_all(outputs)
    return [name for name, leaf in leaves.items() if id(leaf) not in found]


def cut_counts(outputs: Any, matrices: Mapping[str, Sequence[Sequence[Any]]],
               rows: Mapping[str, Iterable[int]] | None = None) -> dict[str, tuple[int, int]]:
    """``{"attn_wq": (256, 256), "wpe": (3, 16)}``: for each matrix of ``matrices`` that
    ``outputs`` (one node, or a list of them) are not computed from in full, how many of its
    entries are cut off, and how many were counted. ``rows`` counts only some rows of a matrix
    (``{"wpe": range(5)}``: the positions a name reads); a matrix not in it counts every row.
    Matrices with nothing cut are left out; the rest keep the order of ``matrices``."""
    found = _reached_all(outputs)
    counts: dict[str, tuple[int, int]] = {}
    for name, matrix in matrices.items():
        counted = [value for i in (rows or {}).get(name, range(len(matrix))) for value in matrix[i]]
        cut = sum(id(value) not in found for value in counted)
        if cut:
            counts[name] = (cut, len(counted))
    return counts


def cut_words(counts: Mapping[str, tuple[int, int]]) -> str:
    """``cut_counts``'s answer in words: "all 256 numbers of attn_wq and 3 of the 16 numbers of
    wpe" ("" when nothing is cut)."""
    return listing(f"all {total} numbers of {name}" if cut == total
                   else f"{cut} of the {total} numbers of {name}"
                   for name, (cut, total) in counts.items())


def matrix_leaves(name: str, matrix: Iterable[Iterable[Any]]) -> dict[str, Any]:
    """``{"attn_wq[0][0]": value, ...}``: a weight matrix's entries, named for messages."""
    return {f"{name}[{i}][{j}]": value for i, row in enumerate(matrix)
            for j, value in enumerate(row)}


def cut_message(what: str, cut: list[str], total: int) -> str:
    """A diagnosis in a beginner's words: which numbers the graph no longer links to ``what``."""
    shown = ", ".join(cut[:3]) + (f" and {len(cut) - 3} more" if len(cut) > 3 else "")
    return (f"{what} has the right numbers, but {len(cut)} of the {total} weights it is computed "
            f"from are not in its graph ({shown}): no gradient can reach them, so training would "
            "never change them. Somewhere on the way a Value's plain number (`.data`) was used and "
            "a new Value made from it, which cuts the chain: keep Values flowing through every "
            "operation.")
