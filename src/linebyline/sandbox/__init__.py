"""The terminal check's sandbox: a learner's file and a lesson's checks, run apart from the CLI.

One entry: ``check_source(lesson, source, timeout=..., memory_mb=...)`` returns the check
runtime's Result; ``explain()`` says in plain words what protects this machine's checks (for
``linebyline check --explain-sandbox``); ``compute(...)`` runs a lesson's own solution for the
numbers a page shows (trusted course code: no containment, see compute_worker.py).

What it promises, and where
---------------------------
Everywhere (Linux, macOS, other Unix): the learner's code runs in a separate process (worker.py),
never in the CLI's, under a time limit (10 s), a memory limit (512 MB), a limit on the size of a
file it writes (64 MB) and on the processes it may start (32 more); output beyond 64 KB is only
counted. Run as root, the CLI runs the learner's code as `nobody`. When the result is in or the
time is up, the run's process group is ended, and on Linux every process that left it too, found
by keeper.py, a child subreaper: unless the learner's code kills the keeper first, which it can
when the CLI runs as an ordinary user, since they are the same user.

On Linux with bubblewrap (Debian's `bubblewrap`), or else with the kernel's namespaces set up by
keeper.py (an ordinary user needs unprivileged user namespaces, on by default in Debian 11+,
Fedora, Arch; off in some hardened kernels and restricted by AppArmor on Ubuntu 24.04 unless
bubblewrap is installed), the learner's code also runs
- in a PID namespace of its own, whose first process (not the learner's) ends when the worker
  does; the kernel then ends every process of the namespace, whoever killed whom, and the CLI
  waits until it has. Processes outside it cannot be seen, so cannot be signalled either;
- without any network: an empty network namespace (no route anywhere, not even to this machine's
  own services on 127.0.0.1);
- on a read-only view of the file system, except a private /tmp (128 MB, where its working folder
  is, with input.txt) and /dev/shm (32 MB), both gone when the check ends;
- in an IPC namespace of its own (no shared memory or semaphores of other programs), with no way
  to gain privileges (no_new_privs: set-user-ID programs grant nothing).
Where neither is available, the limits above are all there is, and ``explain()`` says so.

What it does not promise
------------------------
- Secrecy: the learner's code can read what the user who runs the check can read (root: what
  `nobody` can); it cannot change it, and without network it can only show it to that user.
- CPU and memory beyond the limits: a check can keep both cores of a machine busy for 10 s.
- A verdict the learner's code cannot forge. The checks must run in the learner's own process,
  calling its functions, so code written to find the worker's secret in memory and write the
  whole report conversation itself can still forge a pass. What is promised: the report travels
  on a pipe whose lines carry a random token; the worker's report function refuses every caller
  but the checker (walking the stack to it, or finding it with the garbage collector, gets the
  check refused, not passed); and the CLI takes a result only when it agrees with the steps the
  checker reported while it ran (_protocol.py). A check is a learning aid, not an exam proctor.
"""
from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "SandboxUnavailable", "check_source",
           "compute", "compute_fingerprint", "explain"]

# Loaded on first use: worker.py imports this package too, and must not pay for the CLI's side.
_WHERE = {"check_source": "._run", "DEFAULT_TIMEOUT": "._shared", "DEFAULT_MEMORY_MB": "._shared",
          "SandboxUnavailable": "._containment", "explain": "._explain",
          "compute": "._compute", "compute_fingerprint": "._compute"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value
