"""The child process of linebyline.sandbox: limits itself, runs the checks, reports to its parent.

It reads one JSON job on stdin. It reports on a pipe its parent opened for it: the pipe's number
and a random token come in the job (never in sys.argv), and every report line starts with the
token, so nothing the learner's code writes anywhere can pass for a report. A line per step
("code", "check", "checked") tells the parent how far the run got if it ends abruptly.

The learner's code could reach this module (it is __main__), so everything main() uses once the
learner's code has started is taken before, as default arguments.
"""
from __future__ import annotations

import ast
import importlib
import json
import os
import resource
import signal
import sys
from typing import Any

from .runtime import seal  # the runtime's first import here: it takes its copies now

REPORT_LOST = 4  # the exit code when the learner's code closed or replaced the report pipe
# Standard-library modules whose import does something (opens a browser, prints, needs a display).
NOT_BEFOREHAND = {"__hello__", "__phello__", "antigravity", "idlelib", "this", "tkinter", "turtle",
                  "turtledemo"}


def _import_beforehand(source: str) -> None:
    """Import the standard-library modules a file names (the learner's, or the lesson's checks),
    while still able to.

    Run as root, the learner's code runs as `nobody`, who may not be allowed to read Python's
    own files (a Python installed under /root, say): what it imports must be loaded first.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            top = name.partition(".")[0]
            if top in sys.stdlib_module_names and top not in NOT_BEFOREHAND:
                try:
                    importlib.import_module(name)
                except BaseException:  # noqa: BLE001 - `from math import pi` names no module
                    pass


def _tasks_of(uid: int) -> int | None:
    """How many processes and threads the user has now (the process-count limit counts both)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None  # no /proc (macOS): the limit cannot be set relative to what runs already
    count = 0
    for entry in entries:
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                continue  # ended meanwhile
    return count


def _limit_myself(job: dict[str, Any]) -> None:
    memory = job["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    size = job["file_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if job["user"] is not None:
        # Started by root: the learner's code runs as an unprivileged user instead, which also
        # makes the process-count limit count (the kernel does not apply it to root).
        for text in (job["source"], job["checks_source"]):  # the checks import lazily too
            _import_beforehand(text)
        uid, gid = job["user"]
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    running = _tasks_of(os.getuid())
    if running is not None:
        allowed = running + job["processes"]
        resource.setrlimit(resource.RLIMIT_NPROC, (allowed, allowed))
    quiet = os.open(os.devnull, os.O_RDONLY)  # input() gets an end of file, never a hang
    os.dup2(quiet, 0)
    os.close(quiet)


def main(evaluate=seal.evaluate, to_json=seal.to_json, StopRun=seal.StopRun, write=os.write,
         leave=os._exit, getpid=os.getpid, setitimer=signal.setitimer,
         ITIMER_REAL=signal.ITIMER_REAL, BaseException=BaseException, OSError=OSError,
         len=len, type=type, str=str) -> None:
    job = json.loads(sys.stdin.read())
    channel, token = job["channel"], job["token"].encode("ascii") + b" "
    me = getpid()

    def report(event: str, data: Any) -> bool:
        if getpid() != me:
            return False  # a process the learner's code forked: it does not speak for the run
        line = token + to_json({"event": event, "data": data}).encode("ascii") + b"\n"
        try:
            while line:
                line = line[write(channel, line):]
        except OSError:
            return False  # the learner's code closed or replaced the pipe
        return True

    flush = (sys.__stdout__.flush, sys.__stderr__.flush)
    stopped = []

    def on_alarm(signum: int, frame: object) -> None:
        stopped.append("time")
        raise StopRun()

    _limit_myself(job)
    signal.signal(signal.SIGALRM, on_alarm)
    setitimer(ITIMER_REAL, job["timeout"])
    result = None
    try:
        result = evaluate(
            job["source"], job["checks_source"], lesson=job["lesson"], starter=job["starter"],
            filename=job["filename"], checks_filename=job["checks_filename"],
            time_limit=f"the {job['timeout']:g} s time limit",
            memory_limit=f"the {job['memory_mb']} MB memory limit",
            process_limit=f"the limit of {job['processes']} processes",
            file_limit=f"the {job['file_mb']} MB limit on files",
            stop_reason=lambda: stopped[0] if stopped else None, progress=report,
            reference=job.get("reference"))
        setitimer(ITIMER_REAL, 0)
    except BaseException as error:  # noqa: BLE001 - a fault of ours, or a stop at the very end
        setitimer(ITIMER_REAL, 0)
        if result is None:
            report("failed", f"{type(error).__name__}: {str(error)[:500]}")
            leave(3)
    for each in flush:  # what the learner's code wrote to the real stdout and stderr, first
        try:
            each()
        except BaseException:  # noqa: BLE001, S110
            pass
    reported = report("result", result)
    # No interpreter shutdown: handlers and threads the learner's code left have nothing to add.
    leave(0 if reported else REPORT_LOST)


if __name__ == "__main__":
    main()
