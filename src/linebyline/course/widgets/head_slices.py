"""head-slices (9.1): one query cut into n_head slices, and what each head makes of its slice.

The lesson's ``compute`` sets ``data``: the query q of one position and the keys of every
position so far (``labels`` names them), as gpt() made them. The learner picks how many heads
share the n_embd numbers; the browser works out head_dim, each head's lo and hi, its scores
(its slice of q against the same slice of each key, over sqrt(head_dim)) and its softmax. A
"try the mistake" toggle moves the slices by n_head instead of head_dim.

Params: ``heads`` (the head counts offered, each dividing n_embd), ``start`` (one of them),
``mistake`` (the toggle's words). Data: ``{"n_embd": int, "q": [n_embd numbers], "keys":
[[n_embd numbers], ...], "labels": [a text per key], "caption": text}``.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "head-slices"
MAX_KEYS = 16


def validate(params: Fields) -> None:
    params.only("heads", "start", "mistake")
    heads = params.get("heads", list)
    start = params.get("start", int)
    if heads is not None:
        if not heads or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                                for n in heads):
            params.error("`heads` must list whole numbers of heads, 1 or more", "heads")
        elif start is not None and start not in heads:
            params.error("`start` must be one of `heads`", "start")
    _common.texts(params, "mistake")


def _numbers(values: Any, length: int) -> bool:
    return isinstance(values, list) and len(values) == length and all(map(_common.finite, values))


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict):
        return "it must be a dict"
    unknown = set(data) - {"n_embd", "q", "keys", "labels", "caption"}
    if unknown:
        return f"unknown keys {sorted(unknown)}"
    n_embd = data.get("n_embd")
    if isinstance(n_embd, bool) or not isinstance(n_embd, int) or n_embd < 1:
        return "`n_embd` must be a whole number above 0"
    if not _numbers(data.get("q"), n_embd):
        return "`q` must hold n_embd numbers"
    keys = data.get("keys")
    if not isinstance(keys, list) or not 1 <= len(keys) <= MAX_KEYS:
        return f"`keys` must list 1 to {MAX_KEYS} keys"
    if not all(_numbers(key, n_embd) for key in keys):
        return "every key must hold n_embd numbers"
    labels = data.get("labels")
    if not isinstance(labels, list) or len(labels) != len(keys) or not all(
            isinstance(label, str) and label for label in labels):
        return "`labels` must name every key"
    if not isinstance(data.get("caption"), str):
        return "`caption` must be text"
    return None
