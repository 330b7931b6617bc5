"""graph-backward (7.5): backward() stepped one node at a time, with a `=` instead of `+=` toggle."""
from __future__ import annotations

from ..fields import Fields
from . import _common

KIND = "graph-backward"
OPERATIONS = {"add", "mul"}


def validate(params: Fields) -> None:
    params.only("inputs", "nodes", "mistake")
    _common.value_graph(params, OPERATIONS)
    _common.texts(params, "mistake")
