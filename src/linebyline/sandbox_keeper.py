"""The keeper of one check's processes: whatever the learner's code starts ends with the check.

    python -I -S sandbox_keeper.py CHANNEL_FD COMMAND...

The CLI starts this in a session of its own, and this starts COMMAND (the sandbox worker) in the
same process group and waits. On Linux it is a "child subreaper": a process the learner's code
detaches from the group (a double fork, os.setsid) is handed to the keeper when its parent ends,
instead of to init, so it can still be ended. When the worker has ended, or the CLI sends SIGTERM,
the keeper kills every process of the group and every process handed to it, until none is left,
and then ends the way the worker ended, so the CLI reads the worker's exit status as before.

It stays with the CLI's user (the worker drops to `nobody` when that is root), so the learner's
code cannot kill it. Standard library only, run with -S: it starts in milliseconds.
"""
from __future__ import annotations

import ctypes
import os
import resource
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36  # from <linux/prctl.h>
ENDING_S = 5.0  # at most this long to end them all (a fork bomb is bounded by the process limit)


class _End(Exception):
    """The CLI asked (SIGTERM): the run is over."""


_waiting = [True]  # until the keeper starts ending them all, SIGTERM interrupts the wait


def _on_term(signum: int, frame: object) -> None:
    # Raises once, and only while main() waits inside its try: a SIGTERM that comes as the
    # worker ends (the CLI has its result) must not cut short the ending of the others.
    if _waiting[0]:
        _waiting[0] = False
        raise _End


def _become_subreaper() -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # not Linux: the process group alone is ended


def _the_others(me: int) -> list[int] | None:
    """The run's processes besides the keeper (its group, and what was handed to it); None
    without /proc."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    found = []
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue  # ended meanwhile
        # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after it
        ppid, pgrp = (int(field) for field in stat[stat.rindex(b")") + 2:].split()[1:3])
        if ppid == me or pgrp == me:
            found.append(int(entry))
    return found


def _reap(worker: int, status: list[int]) -> None:
    """Collect every child that has ended, keeping the worker's status."""
    while True:
        try:
            pid, code = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid == worker:
            status.append(code)


def _end_all(me: int, worker: int, status: list[int]) -> None:
    until = time.monotonic() + ENDING_S
    while time.monotonic() < until:
        others = _the_others(me)
        if others is None:  # no /proc (not Linux): the group is all there is to end, keeper too
            os.killpg(me, signal.SIGKILL)
        if not others:
            break
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass  # ended meanwhile, or a zombie already
        time.sleep(0.002)
        _reap(worker, status)
    _reap(worker, status)


def _end_like(status: int | None) -> None:
    """Exit as the worker did: with its exit code, or killed by the same signal (SIGKILL when it
    could not even be waited for)."""
    if status is not None and os.WIFEXITED(status):
        os._exit(os.WEXITSTATUS(status))
    number = os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else signal.SIGKILL
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a mirrored crash writes no core file
    try:
        signal.signal(number, signal.SIG_DFL)
    except (OSError, ValueError):
        pass  # SIGKILL and SIGSTOP have no handler to reset
    os.kill(os.getpid(), number)
    os._exit(128 + number)


def main() -> None:
    channel, command = int(sys.argv[1]), sys.argv[2:]
    me = os.getpid()
    status: list[int] = []
    worker = -1
    signal.signal(signal.SIGTERM, _on_term)
    try:
        _become_subreaper()
        worker = subprocess.Popen(command, pass_fds=(channel,)).pid
        # The keeper holds none of the run's pipes: the CLI sees them close when the worker's do.
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        os.close(quiet)
        os.close(channel)
        status.append(os.waitpid(worker, 0)[1])
        _waiting[0] = False
    except _End:
        pass
    _end_all(me, worker, status)
    _end_like(status[0] if status else None)


if __name__ == "__main__":
    main()
