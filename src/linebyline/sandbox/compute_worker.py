"""The child process of linebyline.sandbox.compute(): runs a lesson's solution, then one piece of code.

Reads one JSON job on stdin ({"solution", "items": [{"code", "name", "then"?}], "paths"}) and
writes one JSON
object on stdout: {"results": [{"value": ...} or {"error": "..."}]}. Each item gets the solution's
state as if freshly run, so no item can disturb another: where the system can fork, the
solution runs once and each item runs in a forked copy of that state, as many at once as there
are cores (a lesson has a dozen items, and some solutions take a second); elsewhere each item
runs the solution again. What
the solution prints is thrown away.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
import selectors
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


def _error(error: Exception) -> dict[str, Any]:
    """The author's code failed: say what and where."""
    where = ""
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename in ("solution.py", "compute"):
            where = f" ({frame.filename}, line {frame.lineno})"
    return {"error": f"{type(error).__name__}: {error}{where}"}


def _solved(solution: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "lesson_solution"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(solution, "solution.py", "exec"), namespace)
    return namespace


def _value(namespace: dict[str, Any], code: str, name: str) -> dict[str, Any]:
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, "compute", "exec"), namespace)
        if name not in namespace:
            return {"error": f"it must set `{name}`"}
        return {"value": _plain(namespace[name], name)}
    except Exception as error:  # the author's code: say what and where
        return _error(error)


def _item(namespace: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    """One item's result; with "then", its second piece of code runs in the same namespace
    afterwards (a lesson's facts, which may quote its widget's data), its result under "then"."""
    result = _value(namespace, item["code"], item["name"])
    then = item.get("then")
    if then:
        result["then"] = (_value(namespace, then["code"], then["name"]) if "error" not in result
                          else {"error": "the code it follows failed"})
    return result


def _run(solution: str, item: dict[str, Any]) -> dict[str, Any]:
    try:
        namespace = _solved(solution)
    except Exception as error:
        return _error(error)
    return _item(namespace, item)


def _child(namespace: dict[str, Any], item: dict[str, Any], write: int) -> None:
    """In a forked copy of the solved state: run the item, send its result, leave at once."""
    try:
        data = json.dumps(_item(namespace, item)).encode()
    except BaseException as error:  # noqa: BLE001 - whatever happens, the parent hears
        data = json.dumps({"error": f"{type(error).__name__}: {error}"}).encode()
    with os.fdopen(write, "wb") as pipe:
        pipe.write(data)
    os._exit(0)


def _all_forked(namespace: dict[str, Any], items: list[dict[str, Any]], at_once: int
                ) -> list[dict[str, Any]]:
    """Each item in a forked copy of the solved state, `at_once` of them at a time (a lesson's
    predictions may each train a model: on two cores, two train at once). Results come back
    through pipes, read as they arrive so that no child waits on a full pipe."""
    results: list[dict[str, Any]] = [{} for _ in items]
    waiting = list(enumerate(items))
    running: dict[int, tuple[int, int, bytearray]] = {}  # read end -> (index, pid, bytes)
    with selectors.DefaultSelector() as selector:
        while waiting or running:
            while waiting and len(running) < at_once:
                index, item = waiting.pop(0)
                read, write = os.pipe()
                pid = os.fork()
                if pid == 0:
                    os.close(read)
                    _child(namespace, item, write)
                os.close(write)
                running[read] = (index, pid, bytearray())
                selector.register(read, selectors.EVENT_READ)
            for key, _ in selector.select():
                index, pid, data = running[key.fd]
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    data += chunk
                    continue
                selector.unregister(key.fd)
                os.close(key.fd)
                del running[key.fd]
                _, status = os.waitpid(pid, 0)
                try:
                    results[index] = json.loads(data)
                except ValueError:
                    results[index] = {"error": "the computation ended without a result "
                                               f"(status {status})"}
    return results


def main() -> None:
    job = json.loads(sys.stdin.read())
    items = job["items"]
    # The course's own modules: its computations' `compute/`, and the `library/` starters import.
    sys.path[0:0] = job.get("paths") or []
    if not hasattr(os, "fork") or len(items) < 2:
        results = [_run(job["solution"], item) for item in items]
    else:
        try:
            namespace = _solved(job["solution"])
        except Exception as error:
            results = [_error(error) for _ in items]
        else:
            sys.stdout.flush()
            results = _all_forked(namespace, items, max(1, min(len(items), os.cpu_count() or 1)))
    sys.stdout.write(json.dumps({"results": results}))


if __name__ == "__main__":
    main()
