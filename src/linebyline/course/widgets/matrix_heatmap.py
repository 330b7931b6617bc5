"""matrix-heatmap (5.1, 5.2): a matrix drawn as coloured cells.

Mode `init` (5.1): the learner picks one of the computed streams of standard normal draws and a
std with a slider; the widget shows std × draw, exactly what random.gauss(0, std) gives, and a
toggle fills the same draws column by column. Mode `lookup` (5.2): the learner picks a token and
its row lights up as the embedding x; a toggle takes a column instead.

Its data (computed by the lesson) is ``{"rows": [labels], "options": [{"label", "z"}]}`` for
`init`, ``{"rows": [labels], "matrix": [[...]]}`` for `lookup`.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "matrix-heatmap"
MODES = ("init", "lookup")


def validate(params: Fields) -> None:
    params.only("mode", "name", "std", "scale", "mistake")
    mode = _common.one_of(params, "mode", MODES)
    params.get("name", str)
    if mode == "init":
        _common.slider(params, "std", lowest=0)
    elif "std" in params.data:
        params.error("`std` is only for mode init", "std")
    scale = params.get("scale", float)
    if scale is not None and scale <= 0:
        params.error("`scale` (the size that gets the full colour) must be above 0", "scale")
    _common.texts(params, "mistake")


def _matrix_problem(matrix: Any, rows: int, where: str) -> str | None:
    if not isinstance(matrix, list) or len(matrix) != rows:
        return f"{where} must be a list of {rows} rows, one per label"
    uneven = _common.uneven(matrix, where)
    if uneven:
        return uneven
    for row in matrix:
        for value in row:
            if not _common.finite(value):
                return f"{where} must hold only finite numbers, not {value!r}"
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        return "`rows` must be a non-empty list of row labels"
    if "options" in data:
        options = data["options"]
        if not isinstance(options, list) or not options:
            return "`options` must be a non-empty list of {label, z}"
        for index, option in enumerate(options):
            if not isinstance(option, dict) or not isinstance(option.get("label"), str):
                return f"option {index + 1} must be a dict with a text `label`"
            problem = _matrix_problem(option.get("z"), len(rows), f"option {index + 1}'s `z`")
            if problem:
                return problem
        return None
    if "matrix" in data:
        return _matrix_problem(data["matrix"], len(rows), "`matrix`")
    return "it needs `options` (mode init) or `matrix` (mode lookup)"
