"""Check a learner's file in a separate process, under a time limit and a memory limit.

The learner's code never runs inside the CLI's own process: an infinite loop, a memory bomb or
a crash of theirs ends as a check result with status ``error`` and a message naming the limit.
The child (``linebyline.sandbox_worker``) writes its result to a file, Exercism-style, so nothing
the learner prints can corrupt it.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .course import Lesson
from .dataset import names_file
from .runtime import CheckResult, Result

DEFAULT_TIMEOUT = 10.0  # seconds
DEFAULT_MEMORY_MB = 512
GRACE = 3.0  # seconds the child gets to stop itself before it is killed


def check_source(lesson: Lesson, source: str, *, timeout: float = DEFAULT_TIMEOUT,
                 memory_mb: int = DEFAULT_MEMORY_MB, untouched_is_not_attempted: bool = True
                 ) -> Result:
    """Run ``lesson``'s checks on ``source`` in a child process and return the result."""
    exercise = lesson.exercise
    job = {
        "lesson": lesson.number,
        "source": source,
        "filename": exercise.filename,
        "checks_source": exercise.checks_source,
        "checks_filename": str(exercise.checks_path),
        "starter": exercise.starter if untouched_is_not_attempted else None,
        "timeout": timeout,
        "memory_mb": memory_mb,
    }
    with tempfile.TemporaryDirectory(prefix="linebyline-check-") as folder:
        result_path = Path(folder) / "result.json"
        # Lessons read the names as input.txt from the working folder, as in the browser.
        shutil.copyfile(names_file(), Path(folder) / "input.txt")
        try:
            child = subprocess.run(
                [sys.executable, "-I", "-m", "linebyline.sandbox_worker", str(result_path)],
                input=json.dumps(job), text=True, capture_output=True, cwd=folder,
                timeout=timeout + GRACE,
            )
        except subprocess.TimeoutExpired:
            return _stopped(lesson, f"Your code was stopped: it ran past the {timeout:g} s time "
                            "limit. Look for a loop that never ends.")
        if result_path.exists():
            data = json.loads(result_path.read_text(encoding="utf-8"))
            return Result(data["lesson"], data["status"],
                          [CheckResult(**check) for check in data["checks"]], data["stdout"])
    if child.returncode < 0 or "MemoryError" in child.stderr:
        return _stopped(lesson, f"Your code was stopped: it used more than the {memory_mb} MB "
                        "memory limit, or crashed Python itself.")
    last = child.stderr.strip().splitlines()[-1:] or [f"exit code {child.returncode}"]
    return _stopped(lesson, f"The checker could not finish: {last[0]}")


def _stopped(lesson: Lesson, message: str) -> Result:
    names = lesson.exercise.check_names
    return Result(lesson.number, "error", [
        CheckResult(name, "error", message if i == 0 else "Not run: the run was stopped.")
        for i, name in enumerate(names)
    ])
