"""Run a lesson's own solution, then pieces of the author's code, in a child process
(compute_worker.py) whose working folder holds the names as ``input.txt``.

This runs course code, which authors write and lint proves, never a learner's: it gets a process
of its own (so nothing it does stays in the server) but none of the check's containment.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

WORKER = Path(__file__).with_name("compute_worker.py")


def compute_fingerprint() -> str:
    """The worker's own text: computed values kept in a cache go stale when it changes."""
    return WORKER.read_text(encoding="utf-8")


def compute(solution: str, items: list[dict[str, Any]], timeout: float,
            library: Path | None = None) -> list[dict[str, Any]]:
    """For each item ({"code", "name"}), a fresh run of ``solution`` then of the item's code:
    {"value": what it set `name` to} or {"error": "..."}. ``library`` is a folder of the
    course's own modules that the code may import (its `compute/`); the course's `library/`
    beside it, which starters and solutions import, is importable too."""
    from ..course.dataset import names_file

    paths = [] if library is None else [str(folder) for folder in (
        library, library.parent / "library") if folder.is_dir()]
    job = {"solution": solution, "items": items, "paths": paths}
    with tempfile.TemporaryDirectory(prefix="linebyline-compute-") as folder:
        shutil.copyfile(names_file(), Path(folder) / "input.txt")
        # A session of its own: the items it forks go with it when it runs too long.
        child = subprocess.Popen([sys.executable, "-I", str(WORKER)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=folder, start_new_session=True)
        try:
            stdout, stderr = child.communicate(json.dumps(job), timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            return [{"error": f"it ran past {timeout:g} s"} for _ in items]
    try:
        return json.loads(stdout)["results"]
    except (ValueError, KeyError):
        last = (stderr.strip().splitlines() or [f"exit code {child.returncode}"])[-1]
        return [{"error": f"the computation crashed: {last}"} for _ in items]
