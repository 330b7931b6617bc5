"""param-counter (5.6): each matrix with its shape and count, their sum, and what-ifs.

The learner changes the knobs (say n_embd and the hidden width); every shape is worked out from
them in the browser, rows × cols each, and summed. At the knobs' starting values the widget shows
the shapes and counts of the real matrices, computed by the lesson's code (`data`). A comparison
matrix (the bigram table) and a mistake (one matrix given a wrong shape) are optional.

Params: ``knobs: [{name, label, min, max, start, follows?, times?}]``, ``matrices: [{name, rows,
cols}]`` where rows and cols name a knob or ``vocab_size``, ``compare: {label, rows, cols}``,
``mistake: {label, matrix, rows, cols}``. Data: ``{"vocab_size": int, "matrices": [{"name",
"rows", "cols", "count"}], "total": int, "compare": int}``.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "param-counter"
FIXED = "vocab_size"  # the one size that comes from the data, not from a knob


def validate(params: Fields) -> None:
    params.only("knobs", "matrices", "compare", "mistake")
    names: set[str] = {FIXED}
    for knob in params.items("knobs", "knob"):
        knob.only("name", "label", "min", "max", "start", "follows", "times")
        name = knob.get("name", str)
        knob.get("label", str)
        low, high, start = (knob.get(key, int) for key in ("min", "max", "start"))
        if None not in (low, high, start) and not 1 <= low <= start <= high:
            knob.error("need 1 <= min <= start <= max")
        follows = knob.get("follows", str, None)
        if follows is not None:
            if follows not in names:
                knob.error(f"`follows` must name an earlier knob, not {follows!r}", "follows")
            times = knob.get("times", int)
            if times is not None and start is not None and times < 1:
                knob.error("`times` must be 1 or more", "times")
        elif "times" in knob.data:
            knob.error("`times` needs `follows`", "times")
        if name:
            names.add(name)
    matrices = params.items("matrices", "matrix")
    if not matrices:
        params.error("`matrices` must list at least one matrix")
    matrix_names = set()
    for matrix in matrices:
        matrix.only("name", "rows", "cols")
        matrix_names.add(matrix.get("name", str))
        _sizes(matrix, names)
    compare = params.mapping("compare", "compare: ", required=False)
    if compare is not None:
        compare.only("label", "rows", "cols")
        compare.get("label", str)
        _sizes(compare, names)
    mistake = params.mapping("mistake", "mistake: ", required=False)
    if mistake is not None:
        mistake.only("label", "matrix", "rows", "cols")
        mistake.get("label", str)
        target = mistake.get("matrix", str)
        if target is not None and target not in matrix_names:
            mistake.error(f"`matrix` must name one of the matrices, not {target!r}", "matrix")
        _sizes(mistake, names)


def _sizes(fields: Fields, names: set[str]) -> None:
    for key in ("rows", "cols"):
        size = fields.get(key, str)
        if size is not None and size not in names:
            fields.error(f"`{key}` must name a knob or {FIXED}, not {size!r}", key)


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    if not _common.whole(data.get(FIXED)):
        return f"`{FIXED}` must be a whole number above 0"
    problem = _common.matrix_counts(data)
    if problem:
        return problem
    if "compare" in data and not _common.whole(data["compare"]):
        return "`compare` must be a whole number"
    return None
