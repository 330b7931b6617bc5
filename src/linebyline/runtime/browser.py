"""The two calls the browser's Python worker makes, so the glue in JavaScript stays trivial.

``user_stopped`` is a JavaScript function (it reads the interrupt buffer): it tells the
learner's Stop button apart from the time limit when the code is interrupted.
"""
from __future__ import annotations

import json
from collections.abc import Callable

from .program import run_program
from .runner import Limits, run_checks


def run(source: str, filename: str, user_stopped: Callable[[], bool]) -> str:
    """Run the learner's file; return {"status", "line"} as JSON."""
    outcome = run_program(source, filename, user_stopped)
    return json.dumps({"status": outcome.status, "line": outcome.line})


def check(job_json: str, user_stopped: Callable[[], bool]) -> str:
    """Run a lesson's checks; return the result as JSON, exactly as the CLI's --json prints it."""
    job = json.loads(job_json)
    limits = Limits(time=f"the {job['timeout']:g} s time limit", memory="the memory available",
                    user_stopped=lambda: bool(user_stopped()))
    result = run_checks(job["source"], job["checks"], lesson=job["lesson"],
                        starter=job["starter"], filename=job["filename"], limits=limits)
    return json.dumps(result.to_dict())
