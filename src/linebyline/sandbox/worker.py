"""The process that runs a learner's file and a lesson's checks, inside the sandbox.

    python -I -B -X utf8 .../linebyline/sandbox/worker.py

It reads one JSON job on stdin, limits itself, runs the checks and reports to the CLI on a pipe
the CLI opened for it: the pipe's number and a random token come in the job (never in sys.argv),
and every report line starts with the token, so nothing the learner's code prints or writes to
another file can pass for a report. A line per step ("code", "check", "checked") tells the CLI
how far the run got if it ends abruptly; the CLI accepts a result only when it agrees with them.

Only the checker may report. The learner's code could reach main() and its report function
(walking the stack with sys._getframe, or through the garbage collector), so report() looks at
who called it: the steps ("code", "check", "checked") only from the check runtime's own code, the
result (and "failed") only from main(). Any other call is not sent; a "forged" line is sent
instead, and the CLI refuses the run. Everything main() uses once the learner's code has started
is taken before, as default arguments.

Run as a script, not with -m: it finds its package from its own path, so neither site-packages
nor PYTHONPATH (which -I ignores) decides which linebyline it runs.
"""
from __future__ import annotations

import ast
import importlib
import json
import os
import resource
import signal
import sys
import types
from typing import Any

if __name__ == "__main__":  # the folder that holds the linebyline package
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__)))))

from linebyline.runtime import seal  # noqa: E402 - the runtime's first import: it takes its copies now
from linebyline.sandbox._shared import FAILED, REPORT_LOST, tasks_of  # noqa: E402

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


def _limit_myself(job: dict[str, Any], library: dict[str, str]) -> None:
    memory = job["memory_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    size = job["file_mb"] * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if job["user"] is not None:
        # Started by root: the learner's code runs as an unprivileged user instead, which also
        # makes the process-count limit count (the kernel does not apply it to root).
        if job.get("preload", True):  # contained, Python's files stay readable (see _containment)
            # The checks import lazily too, and so do the course's modules the file imports.
            for text in (job["source"], job["checks_source"], *library.values()):
                _import_beforehand(text)
        uid, gid = job["user"]
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    running = tasks_of(os.getuid())
    if running is not None:
        # In a PID namespace, /proc shows the namespace's processes only: the CLI counted those
        # the kernel also counts outside it (run as root: `nobody`'s, everywhere).
        allowed = running + job.get("tasks_elsewhere", 0) + job["processes"]
        resource.setrlimit(resource.RLIMIT_NPROC, (allowed, allowed))
    quiet = os.open(os.devnull, os.O_RDONLY)  # input() gets an end of file, never a hang
    os.dup2(quiet, 0)
    os.close(quiet)


def runtime_code(sealed: types.ModuleType) -> frozenset[types.CodeType]:
    """Every code object of the check runtime: its modules' functions and methods, and what they
    define inside. The same code objects serve every private instance (seal.py compiles each
    file once), so these are the ones that may report.

    Each module of the runtime's folder is loaded into one private instance through its own
    import, not only those its package imports first; browser.py, which sets the browser's
    worker up as it loads, is not needed here.
    """
    package = sealed.instance()
    private_import = vars(package)["__builtins__"]["__import__"]
    for entry in sorted(os.listdir(os.path.dirname(sealed.__file__))):
        name = entry[:-3]
        if entry.endswith(".py") and name not in ("__init__", "seal", "browser"):
            private_import(f"{sealed.PACKAGE}.{name}", fromlist=["__name__"])
    found: set[types.CodeType] = set()

    def add(code: types.CodeType) -> None:
        if code not in found:
            found.add(code)
            for constant in code.co_consts:
                if isinstance(constant, types.CodeType):
                    add(constant)

    modules = [package] + [value for value in vars(package).values()
                           if isinstance(value, types.ModuleType)
                           and value.__name__.startswith(package.__name__ + ".")]
    for module in modules:
        for value in vars(module).values():
            members = vars(value).values() if isinstance(value, type) else (value,)
            for member in members:
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, types.FunctionType):
                    add(member.__code__)
    # Only the runtime's own files: not what its modules imported (typing's, say).
    folder = os.path.dirname(sealed.__file__) + os.sep
    return frozenset(code for code in found if code.co_filename.startswith(folder))


def main(evaluate=seal.evaluate, to_json=seal.to_json, StopRun=seal.StopRun, write=os.write,
         leave=os._exit, getpid=os.getpid, setitimer=signal.setitimer, getframe=sys._getframe,
         ITIMER_REAL=signal.ITIMER_REAL, BaseException=BaseException, OSError=OSError,
         len=len, type=type, str=str) -> None:
    job = json.loads(sys.stdin.read())
    # Out of the job at once: the job stays in main()'s frame, which the learner's code can reach.
    channel, token = job.pop("channel"), job.pop("token").encode("ascii") + b" "
    options = job.pop("options", {})
    me = getpid()
    steps, ending = runtime_code(seal), frozenset({main.__code__})
    forged: list[str] = []

    def send(event: str, data: Any) -> bool:
        line = token + to_json({"event": event, "data": data}).encode("ascii") + b"\n"
        try:
            while line:
                line = line[write(channel, line):]
        except OSError:
            return False  # the learner's code closed or replaced the pipe
        return True

    def report(event: str, data: Any) -> bool:
        if getpid() != me:
            return False  # a process the learner's code forked: it does not speak for the run
        caller = getframe(1).f_code
        step = type(event) is str and event in ("code", "check", "checked")
        if caller not in (steps if step else ending):
            if not forged:
                forged.append(event)
                what = event[:20] if type(event) is str else "something"
                send("forged", f"“{what}” reported by {caller.co_name[:80]} "
                               f"({caller.co_filename[-120:]}, line {caller.co_firstlineno})")
            return False
        return send(event, data)

    flush = (sys.__stdout__.flush, sys.__stderr__.flush)
    stopped = []

    def on_alarm(signum: int, frame: object) -> None:
        stopped.append("time")
        raise StopRun()

    _limit_myself(job, options.get("library") or {})
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
            stop_reason=lambda: stopped[0] if stopped else None, progress=report, **options)
        setitimer(ITIMER_REAL, 0)
    except BaseException as error:  # noqa: BLE001 - a fault of ours, or a stop at the very end
        setitimer(ITIMER_REAL, 0)
        if result is None:
            report("failed", f"{type(error).__name__}: {str(error)[:500]}")
            leave(FAILED)
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
