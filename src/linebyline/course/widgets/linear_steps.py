"""linear-steps (5.3, 5.4): linear(x, w) worked one row at a time, then at the real sizes.

A small example (params `x` and `w`, which the learner can edit) is stepped through row by row,
each output a dot product; with `relu: true` ReLU follows. The mistake toggle multiplies by
columns (without ReLU) or applies ReLU to x before linear (with ReLU). Below, the real sizes:
the learner picks a token, x is its row of the computed `data["x"]` (wte) and the widget works
out linear(x, data["w"]) (mlp_fc1) in the browser.

Its data: ``{"rows": [token labels], "x": [[...] one per token], "w": [[...]], "name": str}``.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "linear-steps"
MAX_SIZE = 6  # rows and columns of the small, editable example


def validate(params: Fields) -> None:
    params.only("x", "w", "relu", "mistake")
    x = params.get("x", list)
    w = params.get("w", list)
    if x is not None and (not x or len(x) > MAX_SIZE or not all(_common.finite(v) for v in x)):
        params.error(f"`x` must be a list of 1 to {MAX_SIZE} numbers", "x")
    if w is not None:
        rows_ok = (0 < len(w) <= MAX_SIZE and all(isinstance(row, list) for row in w)
                   and all(_common.finite(v) for row in w for v in row))
        if not rows_ok:
            params.error(f"`w` must be a list of 1 to {MAX_SIZE} rows of numbers", "w")
        elif x is not None and any(len(row) != len(x) for row in w):
            params.error("every row of `w` must be as long as `x`", "w")
    params.get("relu", bool, False)
    _common.texts(params, "mistake")


def _matrix_problem(matrix: Any, where: str) -> str | None:
    if not isinstance(matrix, list) or not matrix:
        return f"{where} must be a non-empty list of rows"
    uneven = _common.uneven(matrix, where)
    if uneven:
        return uneven
    if not all(_common.finite(v) for row in matrix for v in row):
        return f"{where} must hold only finite numbers"
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        return "`rows` must be a non-empty list of token labels"
    if not isinstance(data.get("name"), str):
        return "`name` must be text: how the matrix is written in the code"
    for key in ("x", "w"):
        problem = _matrix_problem(data.get(key), f"`{key}`")
        if problem:
            return problem
    if len(data["x"]) != len(rows):
        return "`x` must have one row per token label"
    if len(data["x"][0]) != len(data["w"][0]):
        return "the rows of `w` must be as long as the rows of `x`"
    return None
