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

import hashlib
import json
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..runtime import Result
from ..sandbox import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

if TYPE_CHECKING:
    from ..course import Lesson, Recall

# A run that the time limit did not end (a loop in C code, say) is given up on after this much
# more: its worker is then replaced, and lint says which run it was.
GRACE = 30.0
KEPT = 5000  # proved runs kept on this machine (a whole course's lint is about 700)


def _start(names: str) -> None:
    """In each worker: a working folder of its own holding the names, as a check's has."""
    folder = tempfile.mkdtemp(prefix="linebyline-lint-")
    shutil.copyfile(names, os.path.join(folder, "input.txt"))
    os.chdir(folder)
    from ..runtime import seal  # noqa: F401 - sealed once, before any run


def _run(job: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The run's result, and whether the time limit stopped it."""
    from ..runtime import seal

    stopped: list[str] = []

    def on_alarm(signum: int, frame: object) -> None:
        stopped.append("time")
        raise seal.StopRun()

    # As a fresh process starts: random numbers from the system, never the state an earlier run
    # left (a file that shuffles before it seeds would otherwise get another run's order).
    random.seed()
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, DEFAULT_TIMEOUT)
    try:
        result = seal.evaluate(
            job.pop("source"), job.pop("checks_source"),
            time_limit=f"the {DEFAULT_TIMEOUT:g} s time limit",
            memory_limit=f"the {DEFAULT_MEMORY_MB} MB memory limit",
            stop_reason=lambda: stopped[0] if stopped else None, **job)
        return result, bool(stopped)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _runtime_digest() -> str:
    """What a run's outcome depends on beyond its job: the runtime's code, Python, the names."""
    from ..course.dataset import names_file

    digest = hashlib.sha256(sys.version.encode())
    runtime = Path(__file__).resolve().parent.parent / "runtime"
    for file in sorted(runtime.glob("*.py")):
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    digest.update(Path(names_file()).read_bytes())
    return digest.hexdigest()


def _cache_file() -> Path:
    from ..course.cached import cache_folder

    return cache_folder().parent / "proofs.json"


class Prover:
    """Checks the course's own files in a pool of worker processes (one per core), from any
    number of threads at once; ``with Prover() as prove:`` stops the workers at the end."""

    def __init__(self, workers: int | None = None) -> None:
        from ..course.dataset import names_file

        self._pool = ProcessPoolExecutor(workers or os.cpu_count() or 2,
                                         mp_context=get_context("spawn"),
                                         initializer=_start, initargs=(str(names_file()),))
        # Runs already proved on this machine, by the digest of everything they depend on (the
        # job, the runtime, Python, the names): a lint of an unchanged lesson reruns nothing.
        self._digest = _runtime_digest()
        self._lock = threading.Lock()
        self._known: dict[str, dict[str, Any]] = {}
        self._used: dict[str, dict[str, Any]] = {}
        try:
            self._known = json.loads(_cache_file().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self._known = {}

    def __enter__(self) -> Prover:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._save()
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
        # Keyed without the clone's own folder: the same course proved in another clone counts.
        where = Path(job["checks_filename"])
        same = {**job, "checks_filename": "/".join(where.parts[-3:])}
        key = hashlib.sha256((self._digest + json.dumps(same, sort_keys=True)).encode()).hexdigest()
        known = self._known.get(key)
        if known is None:
            future = self._pool.submit(_run, job)
            try:
                known, stopped = future.result(timeout=DEFAULT_TIMEOUT + GRACE)
            except FutureTimeout:
                raise RuntimeError(f"{item.number}: a run did not end within "
                                   f"{DEFAULT_TIMEOUT + GRACE:g} s, although its time limit is "
                                   f"{DEFAULT_TIMEOUT:g} s") from None
            if stopped:  # a busy machine's verdict, not the course's: never kept
                return Result.from_dict(known)
        with self._lock:
            self._used[key] = known
        return Result.from_dict(known)

    def _save(self) -> None:
        """Keep this lint's runs with the earlier ones (a lint of one lesson keeps the rest);
        past KEPT runs, only this lint's: what the course no longer has is dropped."""
        if not self._used.keys() - self._known.keys():
            return
        kept = {**self._known, **self._used} if len(self._known) < KEPT else self._used
        file = _cache_file()
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            temporary = file.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps(kept), encoding="utf-8")
            temporary.replace(file)
        except OSError:
            pass  # a cache it could not write: the next lint proves again
