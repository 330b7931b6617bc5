"""program-runs (1.2, 1.3, 1.4): a few lines of Python in versions (the right one and classic
mistakes), each run in a fresh Python by the lesson's `compute`, and what every run printed.

The lesson's compute sets ``data = {"variants": [...]}``; each variant is
``{"label", "code", "mistake", "note", "runs": [{"out": [line, ...], "error": text or None}]}``:
the code shown is the code that was run, so nothing on screen is typed in by hand.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "program-runs"
MAX_RUNS = 5
MAX_LINES = 40


def validate(params: Fields) -> None:
    params.only("caption")
    _common.texts(params, "caption")


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or set(data) != {"variants"}:
        return "it must be a dict with exactly one key, `variants`"
    variants = data["variants"]
    if not isinstance(variants, list) or not variants:
        return "`variants` must be a non-empty list"
    labels = set()
    for number, variant in enumerate(variants, 1):
        where = f"variant {number}"
        if not isinstance(variant, dict):
            return f"{where} must be a dict"
        if set(variant) != {"label", "code", "mistake", "note", "runs"}:
            return f"{where} must have exactly the keys label, code, mistake, note and runs"
        if not _text(variant["label"]) or not _text(variant["code"]):
            return f"{where} needs a `label` and its `code`"
        if variant["label"] in labels:
            return f"{where}: the label {variant['label']!r} is used twice"
        labels.add(variant["label"])
        if not isinstance(variant["mistake"], bool):
            return f"{where}: `mistake` must be true or false"
        if not isinstance(variant["note"], str):
            return f"{where}: `note` must be text"
        runs = variant["runs"]
        if not isinstance(runs, list) or not 1 <= len(runs) <= MAX_RUNS:
            return f"{where}: `runs` must list 1 to {MAX_RUNS} runs"
        for run in runs:
            if not isinstance(run, dict) or set(run) != {"out", "error"}:
                return f"{where}: each run must be {{'out': [...], 'error': ...}}"
            out, error = run["out"], run["error"]
            if not isinstance(out, list) or not all(isinstance(line, str) for line in out):
                return f"{where}: a run's `out` must be a list of lines of text"
            if len(out) > MAX_LINES:
                return f"{where}: a run printed {len(out)} lines; show at most {MAX_LINES}"
            if error is not None and not _text(error):
                return f"{where}: a run's `error` must be None or the error's text"
            if not out and error is None:
                return f"{where}: a run printed nothing: there is nothing to show"
    if all(variant["mistake"] for variant in variants):
        return "at least one variant must be the right version (mistake: false)"
    return None
