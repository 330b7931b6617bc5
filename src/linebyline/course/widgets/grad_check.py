"""grad-check (6.4): numerical and analytic gradients side by side, the worst gap highlighted.

The lesson's ``compute`` sets ``data``: the name checked and a list of variants, the first one
right, the others each with a classic mistake (a sign flipped, a nudge too large...). Every
variant lists, weight by weight, the slope measured by nudging and the gradient backprop gave.
The widget works out the differences, the worst one and the verdict from those numbers.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "grad-check"


def validate(params: Fields) -> None:
    params.only("tolerance", "mistake")
    tolerance = params.get("tolerance", float)
    if tolerance is not None and not 0 < tolerance < 1:
        params.error("`tolerance` must be a small positive number such as 1e-6", "tolerance")
    _common.texts(params, "mistake")


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or set(data) != {"name", "variants"}:
        return "it must be a mapping with exactly `name` and `variants`"
    if not isinstance(data["name"], str) or not data["name"]:
        return "`name` must be the name checked (text)"
    variants = data["variants"]
    if not isinstance(variants, list) or len(variants) < 2:
        return "`variants` must list the right version first, then at least one mistake"
    for index, variant in enumerate(variants):
        where = f"variants[{index}]"
        if not isinstance(variant, dict) or set(variant) != {"label", "note", "nudge", "rows"}:
            return f"{where} must have exactly `label`, `note`, `nudge` and `rows`"
        if not all(isinstance(variant[key], str) and variant[key] for key in ("label", "note")):
            return f"{where}: `label` and `note` must be texts"
        if not _common.finite(variant["nudge"]) or variant["nudge"] <= 0:
            return f"{where}: `nudge` must be a positive number"
        rows = variant["rows"]
        if not isinstance(rows, list) or not 1 <= len(rows) <= 60:
            return f"{where}: `rows` must list 1 to 60 weights"
        for row in rows:
            if not isinstance(row, dict) or set(row) != {"weight", "numerical", "analytic"}:
                return f"{where}: every row must have exactly `weight`, `numerical`, `analytic`"
            if not isinstance(row["weight"], str) or not row["weight"]:
                return f"{where}: `weight` must name the weight (text)"
            if not (_common.finite(row["numerical"]) and _common.finite(row["analytic"])):
                return f"{where}: `numerical` and `analytic` must be finite numbers"
    return None
