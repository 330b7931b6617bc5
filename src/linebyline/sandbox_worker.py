"""The child process of linebyline.sandbox: limits itself, runs the checks, writes the result.

Reads one JSON job on stdin, writes the result JSON to the path given as its argument.
"""
from __future__ import annotations

import json
import resource
import signal
import sys
from pathlib import Path

from .runtime import Limits, StopRun, run_checks


def _stop(signum: int, frame: object) -> None:
    raise StopRun()


def main() -> None:
    result_path = Path(sys.argv[1])
    job = json.loads(sys.stdin.read())
    memory = job["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, job["timeout"])
    limits = Limits(time=f"the {job['timeout']:g} s time limit",
                    memory=f"the {job['memory_mb']} MB memory limit")
    result = run_checks(job["source"], job["checks_source"], lesson=job["lesson"],
                        starter=job["starter"], filename=job["filename"],
                        checks_filename=job["checks_filename"], limits=limits)
    signal.setitimer(signal.ITIMER_REAL, 0)
    result_path.write_text(json.dumps(result.to_dict()), encoding="utf-8")


if __name__ == "__main__":
    main()
