"""The child process of linebyline.sandbox.compute(): runs a lesson's solution, then one piece of code.

Reads one JSON job on stdin ({"solution", "items": [{"code", "name"}]}) and writes one JSON
object on stdout: {"results": [{"value": ...} or {"error": "..."}]}. Each item gets a fresh run
of the solution, so no item can disturb another. What the solution prints is thrown away.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import sys
import traceback
from typing import Any


def _plain(value: Any, path: str = "data") -> Any:
    """``value`` as JSON would carry it, or ValueError naming the first part that cannot go."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{path} is {value}, which JSON cannot carry")
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(item, f"{path}[{index}]") for index, item in enumerate(value)]
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ValueError(f"{path} has the key {key!r}; keys must be text")
        return {key: _plain(item, f"{path}[{key!r}]") for key, item in value.items()}
    raise ValueError(f"{path} is a {type(value).__name__}; only numbers, text, lists and dicts "
                     "can be shown")


def _run(solution: str, code: str, name: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "lesson_solution"}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(solution, "solution.py", "exec"), namespace)
            exec(compile(code, "compute", "exec"), namespace)
        if name not in namespace:
            return {"error": f"it must set `{name}`"}
        return {"value": _plain(namespace[name], name)}
    except Exception as error:  # the author's code: say what and where
        where = ""
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename in ("solution.py", "compute"):
                where = f" ({frame.filename}, line {frame.lineno})"
        return {"error": f"{type(error).__name__}: {error}{where}"}


def main() -> None:
    job = json.loads(sys.stdin.read())
    results = [_run(job["solution"], item["code"], item["name"]) for item in job["items"]]
    sys.stdout.write(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
