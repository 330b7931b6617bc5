"""Lint's runs of a course's own code (solutions, starters, known mistakes) through the check
runtime, in a few long-lived worker processes.

A learner's file is checked in a sandboxed process of its own. The files lint runs are the
course's, as trusted as its checks, so containment buys nothing there, and starting a contained
process per run was most of a lint's time (about 700 runs). Each run here still meets what a
learner's check meets: the same runtime entry point (a fresh private instance per run, as in the
browser's Python), the same time limit and its message, input.txt in the working folder, and
the starters that count as not attempted.
"""
from __future__ import annotations

import os
import shutil
import signal
import tempfile
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from ..runtime import Result
from ..sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from ..course import Lesson, Recall

# A run that the time limit did not end (a loop in C code, say) is given up on after this much
# more: its worker is then replaced, and lint says which run it was.
GRACE = 30.0


def _start(names: str) -> None:
    """In each worker: a working folder of its own holding the names, as a check's has."""
    folder = tempfile.mkdtemp(prefix="linebyline-lint-")
    shutil.copyfile(names, os.path.join(folder, "input.txt"))
    os.chdir(folder)
    from ..runtime import seal  # noqa: F401 - sealed once, before any run


def _run(job: dict[str, Any]) -> dict[str, Any]:
    from ..runtime import seal

    stopped: list[str] = []

    def on_alarm(signum: int, frame: object) -> None:
        stopped.append("time")
        raise seal.StopRun()

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, DEFAULT_TIMEOUT)
    try:
        return seal.evaluate(
            job.pop("source"), job.pop("checks_source"),
            time_limit=f"the {DEFAULT_TIMEOUT:g} s time limit",
            memory_limit=f"the {DEFAULT_MEMORY_MB} MB memory limit",
            stop_reason=lambda: stopped[0] if stopped else None, **job)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


class Prover:
    """Checks the course's own files in a pool of worker processes (one per core), from any
    number of threads at once; ``with Prover() as prove:`` stops the workers at the end."""

    def __init__(self, workers: int | None = None) -> None:
        from ..course.dataset import names_file

        self._pool = ProcessPoolExecutor(workers or os.cpu_count() or 2,
                                         mp_context=get_context("spawn"),
                                         initializer=_start, initargs=(str(names_file()),))

    def __enter__(self) -> Prover:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        workers = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()  # a run that hangs in C code would otherwise outlive lint

    def check(self, item: Lesson | Recall, source: str, *, untouched_is_not_attempted: bool = True,
              until_first_failure: bool = False) -> Result:
        """``item``'s checks on ``source``, as check_source() gives them for a learner's file."""
        exercise = item.exercise
        starters = [exercise.starter] + ([exercise.own_starter] if exercise.own_starter else [])
        job = {"source": source, "checks_source": exercise.checks_source, "lesson": item.number,
               "starter": starters if untouched_is_not_attempted else None,
               "filename": exercise.filename, "checks_filename": str(exercise.checks_path),
               "reference": exercise.solution, "library": exercise.library,
               "until_first_failure": until_first_failure}
        future = self._pool.submit(_run, job)
        try:
            return Result.from_dict(future.result(timeout=DEFAULT_TIMEOUT + GRACE))
        except FutureTimeout:
            raise RuntimeError(f"{item.number}: a run did not end within "
                               f"{DEFAULT_TIMEOUT + GRACE:g} s, although its time limit is "
                               f"{DEFAULT_TIMEOUT:g} s") from None
