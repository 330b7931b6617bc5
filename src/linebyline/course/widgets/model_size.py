"""model-size (9.5): microgpt's matrices one by one, what each holds, and the total, for any
sizes the learner sets.

The layout is microgpt's own: wte (vocab_size × n_embd), wpe (block_size × n_embd), lm_head
(vocab_size × n_embd), and for each of n_layer layers four n_embd × n_embd attention matrices,
mlp_fc1 (4·n_embd × n_embd) and mlp_fc2 (n_embd × 4·n_embd). The browser works every shape out
from the sizes. The lesson's code supplies ``data``: microgpt's real sizes and matrices as it
counted them, which the widget starts from and shows it agrees with. n_head is a size too: it
changes no count, and the widget says so. A "try the mistake" toggle turns mlp_fc1 round.

Params: ``sizes: [{name, label, min, max}]`` (names from SIZES; each starts at microgpt's own),
``mistake`` (the toggle's words). Data: ``{"sizes": {name: int}, "matrices": [{"name", "rows",
"cols", "count"}], "total": int}``.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "model-size"
SIZES = ("vocab_size", "n_embd", "block_size", "n_layer", "n_head")


def validate(params: Fields) -> None:
    params.only("sizes", "mistake")
    seen = set()
    for size in params.items("sizes", "size"):
        size.only("name", "label", "min", "max")
        name = size.get("name", str)
        size.get("label", str)
        low, high = size.get("min", int), size.get("max", int)
        if name is not None and name not in SIZES:
            size.error(f"`name` must be one of {', '.join(SIZES)}, not {name!r}", "name")
        if name in seen:
            size.error(f"{name!r} is listed twice", "name")
        seen.add(name)
        if None not in (low, high) and not 1 <= low <= high:
            size.error("need 1 <= min <= max")
    _common.texts(params, "mistake")


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    sizes = data.get("sizes")
    if not isinstance(sizes, dict) or set(sizes) != set(SIZES) or not all(
            _common.whole(value) for value in sizes.values()):
        return f"`sizes` must give each of {', '.join(SIZES)} as a whole number"
    problem = _common.matrix_counts(data)
    if problem:
        return problem
    return None
