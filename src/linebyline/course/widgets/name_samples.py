"""name-samples (11.1-11.4): names a trained model invents, side by side, one view at a time.

The lesson's ``compute`` sets ``data``: ``views``, each with a ``label``, a ``caption`` and
``columns`` (a heading, a one-line summary and the names drawn, each ``{"text", "tag", "note"}``:
the tag marks a kind of name, such as "seen in training", and ``tags`` says what each tag means);
optionally ``mistake_views``, the same views with a classic mistake, shown when the learner ticks
the mistake toggle. Every name shown is a name the lesson's code drew.

With ``own`` (11.2), the widget also offers the learner's own trained weights, when My microgpt
has kept a finished run of ``script``: the page's Python loads them into the script's model and
draws the same columns again, with the same random numbers as the computed ones (``own`` in
the data says how: the temperature of each column and how many names).
"""
from __future__ import annotations

import re
from typing import Any

from ..fields import Fields
from . import _common

KIND = "name-samples"
SCRIPTS = ("script",)
SCRIPT_NAME = re.compile(r"^[A-Za-z0-9_]+\.py$")
MAX_VIEWS = 12
MAX_COLUMNS = 6
MAX_NAMES = 400
TAG = re.compile(r"^[a-z][a-z0-9-]{0,30}$")


def validate(params: Fields) -> None:
    params.only("view_label", "mistake", "caption", "own", "script")
    _common.texts(params, "view_label", "mistake", "caption")
    own = params.get("own", bool, False)
    script = params.get("script", str, None)
    if own and not script:
        params.error("`own` needs `script`: the program whose model the learner's weights fill")
    if script is not None and not SCRIPT_NAME.match(script):
        params.error("`script` must be a script's file name such as microgpt.py", "script")


def _name_problem(name: Any, where: str, tags: dict[str, Any]) -> str | None:
    if not isinstance(name, dict) or not set(name) <= {"text", "tag", "note"} or "text" not in name:
        return f"{where} must be a mapping with `text` (and optionally `tag` and `note`)"
    if not isinstance(name["text"], str):
        return f"{where}: `text` must be the name drawn (text, maybe empty)"
    if "tag" in name and name["tag"] not in tags:
        return f"{where}: the tag {name['tag']!r} is not one of `tags`"
    if "note" in name and not isinstance(name["note"], str):
        return f"{where}: `note` must be text"
    return None


def _views_problem(views: Any, key: str, tags: dict[str, Any]) -> str | None:
    if not isinstance(views, list) or not 1 <= len(views) <= MAX_VIEWS:
        return f"`{key}` must be a list of 1 to {MAX_VIEWS} views"
    for index, view in enumerate(views):
        where = f"{key}[{index}]"
        if not isinstance(view, dict) or set(view) != {"label", "caption", "columns"}:
            return f"{where} must have exactly `label`, `caption` and `columns`"
        if not all(isinstance(view[text], str) and view[text].strip() for text in ("label", "caption")):
            return f"{where} needs a `label` and a `caption` (text)"
        columns = view["columns"]
        if not isinstance(columns, list) or not 1 <= len(columns) <= MAX_COLUMNS:
            return f"{where}: `columns` must be a list of 1 to {MAX_COLUMNS} columns"
        for number, column in enumerate(columns):
            place = f"{where}.columns[{number}]"
            if not isinstance(column, dict) or set(column) != {"heading", "summary", "names"}:
                return f"{place} must have exactly `heading`, `summary` and `names`"
            if not isinstance(column["heading"], str) or not column["heading"].strip():
                return f"{place} needs a `heading` (text)"
            if not isinstance(column["summary"], str):
                return f"{place}: `summary` must be text"
            names = column["names"]
            if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES:
                return f"{place}: `names` must be a list of 1 to {MAX_NAMES} names"
            for item, name in enumerate(names):
                problem = _name_problem(name, f"{place}.names[{item}]", tags)
                if problem:
                    return problem
    return None


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or not set(data) <= {"tags", "views", "mistake_views", "own"}:
        return "it must be a mapping with `views` (and optionally `tags`, `mistake_views`, `own`)"
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or not all(TAG.match(str(key)) and isinstance(label, str)
                                             and label.strip() for key, label in tags.items()):
        return "`tags` must map short lowercase keys to what each tag means (text)"
    found = _views_problem(data.get("views"), "views", tags)
    if found:
        return found
    if "mistake_views" in data:
        found = _views_problem(data["mistake_views"], "mistake_views", tags)
        if found:
            return found
        if len(data["mistake_views"]) != len(data["views"]):
            return "`mistake_views` must have one view per view of `views`"
    own = data.get("own")
    if own is not None:
        return _own_problem(own)
    return None


def _own_problem(own: Any) -> str | None:
    """How the page draws the same columns from the learner's weights: the temperature of each
    column, how many names each, and what the computed columns' weights were trained on."""
    if not isinstance(own, dict) or set(own) != {"temperatures", "count", "steps", "names"}:
        return "`own` must have exactly temperatures, count, steps and names"
    temperatures = own["temperatures"]
    if not isinstance(temperatures, list) or not 1 <= len(temperatures) <= MAX_COLUMNS or not all(
            _common.finite(t) and t > 0 for t in temperatures):
        return f"`own.temperatures` must be 1 to {MAX_COLUMNS} numbers above 0"
    count = own["count"]
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_NAMES:
        return f"`own.count` must be a whole number from 1 to {MAX_NAMES}"
    steps = own["steps"]
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        return "`own.steps` must be the number of steps the computed columns' weights trained"
    names = own["names"]
    if not isinstance(names, str) or not names.strip():
        return "`own.names` must say, in words, which data those weights were trained on"
    return None
