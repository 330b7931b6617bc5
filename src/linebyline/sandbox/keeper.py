"""The keeper of one check's processes: whatever the learner's code starts ends with the check.

    python -I -S -B keeper.py namespaces CHANNEL_FD WORK NAMES REVEAL COMMAND...
    python -I -S -B keeper.py limits CHANNEL_FD - - - COMMAND...
    python -I -S -B keeper.py probe - WORK NAMES REVEAL COMMAND...

The CLI starts this in a session of its own when bubblewrap is not there (or not wanted), and
this starts COMMAND (the sandbox worker), waits, and then ends the way the worker ended, so the
CLI reads the worker's exit status as if it were its own child.

`namespaces` (Linux): the run gets namespaces of its own, set up here with the kernel's calls
(unshare, mount), as bubblewrap would: a PID namespace whose first process (a fork of this one,
its "init") starts the worker and ends when the worker does, which makes the kernel end every
other process of the namespace; an empty network namespace; an IPC namespace; a mount namespace
where every file system is read-only except a new /tmp and /dev/shm (tmpfs, bounded), in which
WORK is made with NAMES copied in as input.txt. REVEAL ("-" for none) lists FOLDER=PATH pairs,
separated by os.pathsep: each FOLDER is covered by an empty one that anyone may enter, with PATH
bound back (run as root, the worker's Python may live where `nobody` cannot go); a FOLDER of
/tmp means PATH is bound back, read-only, into the new /tmp (a clone or a virtual environment
under /tmp, which the new /tmp would hide). Started by a
user other than root, it first makes a user namespace, which lets an unprivileged process do all
this; root needs none, and the worker drops to `nobody` itself. When it cannot be set up,
nothing has run yet: it says why on stderr and exits with SETUP_FAILED, and the CLI picks the
next way.

`limits` (any Unix): the worker runs in this process group. On Linux the keeper is a "child
subreaper": a process the learner's code detaches (a double fork, os.setsid) is handed to the
keeper when its parent ends, instead of to init, so it can still be ended. When the worker has
ended, or the CLI sends SIGTERM, the keeper kills every process of the group and every process
handed to it, until none is left. It stays with the CLI's user (the worker drops to `nobody` when
that is root), so the learner's code cannot kill it then; run by an ordinary user, it can.

`probe`: set the namespaces up, run COMMAND in them, and exit as it did (for `check
--explain-sandbox`).

Standard library only, run with -S: it starts in milliseconds.
"""
from __future__ import annotations

import os
import resource
import signal
import sys
import time

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 0x2, 0x4, 0x8, 0x1000, 0x4000, 0x40000
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (a syscall newer than 5.x)
AT_FDCWD, AT_RECURSIVE = -100, 0x8000
MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID = 0x1, 0x2
TMP_MB = 128  # the private /tmp (the working folder lives in it), files included
SHM_MB = 32  # /dev/shm (POSIX shared memory, multiprocessing's locks)
SETUP_FAILED = 125  # the exit code when the namespaces could not be set up (nothing ran)
ENDING_S = 5.0  # at most this long to end them all (a fork bomb is bounded by the process limit)


class _End(Exception):
    """The CLI asked (SIGTERM): the run is over."""


class SetupError(Exception):
    """The namespaces could not be set up; the message says which step and why."""


_waiting = [True]  # until the keeper starts ending them all, SIGTERM interrupts the wait


def _on_term(signum: int, frame: object) -> None:
    # Raises once, and only while a wait is inside its try: a SIGTERM that comes as the worker
    # ends (the CLI has its result) must not cut short the ending of the others.
    if _waiting[0]:
        _waiting[0] = False
        raise _End


def _libc():
    import ctypes

    return ctypes, ctypes.CDLL(None, use_errno=True)


def _prctl(option: int, value: int) -> bool:
    try:
        _, libc = _libc()
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False  # not Linux


def _quiet_stdio() -> None:
    """Hold none of the run's pipes: the CLI sees them close when the worker's do."""
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    os.close(quiet)


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


# --- namespaces ------------------------------------------------------------------------------

def _call(what: str, result: int, ctypes) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise SetupError(f"{what}: {os.strerror(number)}")


def _write(path: str, text: str) -> None:
    try:
        with open(path, "w") as file:
            file.write(text)
    except OSError as error:
        raise SetupError(f"writing {path}: {error.strerror}") from None


def _mount(libc, ctypes, source: str | None, target: str, kind: str | None, flags: int,
           data: str | None = None) -> None:
    def encode(text: str | None) -> bytes | None:
        return None if text is None else text.encode()

    _call(f"mounting {kind or 'over'} {target}",
          libc.mount(encode(source), encode(target), encode(kind), ctypes.c_ulong(flags),
                     encode(data)), ctypes)


def _read_only(libc, ctypes, top: str) -> None:
    """Every mount at and under `top` made read-only and nosuid at once."""

    class MountAttr(ctypes.Structure):
        _fields_ = [("attr_set", ctypes.c_uint64), ("attr_clr", ctypes.c_uint64),
                    ("propagation", ctypes.c_uint64), ("userns_fd", ctypes.c_uint64)]

    attr = MountAttr(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 0, 0)
    _call("making the file systems read-only (mount_setattr, Linux 5.12 or later)",
          libc.syscall(SYS_MOUNT_SETATTR, ctypes.c_int(AT_FDCWD), top.encode(),
                       ctypes.c_uint(AT_RECURSIVE), ctypes.byref(attr),
                       ctypes.c_size_t(ctypes.sizeof(attr))), ctypes)


def _hold(pairs: list[tuple[str, str]]) -> dict[str, int]:
    # Held open: the paths are hidden once their folder is covered.
    return {path: os.open(path, os.O_PATH) for _, path in pairs}


def _make_folders(path: str) -> None:
    """`path` and the folders above it that are missing, each one anyone may enter."""
    if os.path.isdir(path):
        return
    _make_folders(os.path.dirname(path))
    os.mkdir(path)
    os.chmod(path, 0o755)  # whatever the umask: the worker may drop to `nobody`


def _bind_back(libc, ctypes, held: dict[str, int]) -> None:
    for path, fd in held.items():
        _make_folders(path)
        _mount(libc, ctypes, f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
        os.close(fd)


def _reveal(libc, ctypes, pairs: list[tuple[str, str]]) -> None:
    """Cover each folder with an empty tmpfs and bind the paths needed in it back."""
    held = _hold(pairs)
    for folder in dict.fromkeys(folder for folder, _ in pairs):
        _mount(libc, ctypes, "tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")
    _bind_back(libc, ctypes, held)


def _enter_namespaces(work: str, names: str, reveal: list[tuple[str, str]]) -> None:
    """unshare, then the mounts: everything read-only but a fresh /tmp and /dev/shm."""
    if not sys.platform.startswith("linux"):
        raise SetupError("namespaces are a Linux feature")
    ctypes, libc = _libc()
    root = os.geteuid() == 0
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    if not root:
        flags |= CLONE_NEWUSER  # what lets an ordinary user make the others
    _call("unshare (user namespaces may be turned off on this system)",
          libc.unshare(ctypes.c_int(flags)), ctypes)
    if not root:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    # Private first, so that nothing mounted here shows outside.
    _mount(libc, ctypes, None, "/", None, MS_REC | MS_PRIVATE)
    in_tmp = [pair for pair in reveal if pair[0] == "/tmp"]
    try:
        _reveal(libc, ctypes, [pair for pair in reveal if pair[0] != "/tmp"])
        held = _hold(in_tmp)
        with open(names, "rb") as source:  # it may be under /tmp too
            names_text = source.read()
    except OSError as error:
        raise SetupError(f"making Python readable for the worker: {error}") from None
    _read_only(libc, ctypes, "/")
    _mount(libc, ctypes, "tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={TMP_MB}m,mode=1777")
    try:
        _bind_back(libc, ctypes, held)
    except OSError as error:
        raise SetupError(f"binding Python back into the new /tmp: {error}") from None
    for path in held:
        _read_only(libc, ctypes, path)
    if os.path.isdir("/dev/shm"):
        _mount(libc, ctypes, "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV,
               f"size={SHM_MB}m,mode=1777")
    try:
        os.mkdir(work)
        os.chmod(work, 0o777)  # the worker may drop to `nobody`
        with open(os.path.join(work, "input.txt"), "wb") as copy:
            copy.write(names_text)
    except OSError as error:
        raise SetupError(f"making the working folder: {error}") from None


def _init(worker_command: list[str], work: str, channel: int | None, status_pipe: int) -> None:
    """The first process of the PID namespace: /proc, then the worker; ends when it does."""
    worker = 0
    try:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the keeper gone, the namespace goes too
        ctypes, libc = _libc()
        _mount(libc, ctypes, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        os.setsid()  # kill(0, ...) in the run reaches only the namespace's processes
        worker = os.fork()
        if worker == 0:
            os.close(status_pipe)
            _prctl(PR_SET_NO_NEW_PRIVS, 1)  # set-user-ID programs grant nothing
            os.chdir(work)
            os.execv(worker_command[0], worker_command)
        # The worker's code may not look into this process (it could not anyway: this one keeps
        # capabilities the worker lacks), nor open its files through /proc/1.
        _prctl(PR_SET_DUMPABLE, 0)
        if channel is not None:
            os.close(channel)
        _quiet_stdio()
        status = os.waitpid(worker, 0)[1]
        os.write(status_pipe, str(status).encode())
    except BaseException as error:  # noqa: BLE001 - say it, then end the namespace
        os.write(2, f"linebyline keeper: namespaces unavailable: {error}\n".encode())
        os._exit(1 if worker else SETUP_FAILED)  # SETUP_FAILED: the worker never started
    # Leaving ends the namespace: the kernel kills every process still in it, and only then
    # does the keeper's wait for this process return.
    os._exit(0)


def _run_in_namespaces(channel: int | None, work: str, names: str,
                       reveal: list[tuple[str, str]], command: list[str], probe: bool) -> None:
    try:
        _enter_namespaces(work, names, reveal)
    except SetupError as error:
        print(f"linebyline keeper: namespaces unavailable: {error}", file=sys.stderr, flush=True)
        os._exit(SETUP_FAILED)
    read_end, write_end = os.pipe()
    init = os.fork()
    if init == 0:
        os.close(read_end)
        _init(command, work, channel, write_end)
    os.close(write_end)
    if channel is not None:
        os.close(channel)
    if not probe:
        _quiet_stdio()
    try:
        ended = os.waitpid(init, 0)[1]
        _waiting[0] = False
    except _End:
        os.kill(init, signal.SIGKILL)
        ended = os.waitpid(init, 0)[1]
    with os.fdopen(read_end, "rb") as pipe:
        text = pipe.read()
    if not text and os.WIFEXITED(ended) and os.WEXITSTATUS(ended) == SETUP_FAILED:
        os._exit(SETUP_FAILED)
    _end_like(int(text) if text else None)


# --- limits ----------------------------------------------------------------------------------

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


def _run_with_limits(channel: int, command: list[str]) -> None:
    me = os.getpid()
    status: list[int] = []
    worker = -1
    try:
        import subprocess

        _prctl(PR_SET_CHILD_SUBREAPER, 1)  # not Linux: the process group alone is ended
        worker = subprocess.Popen(command, pass_fds=(channel,)).pid
        _quiet_stdio()
        os.close(channel)
        status.append(os.waitpid(worker, 0)[1])
        _waiting[0] = False
    except _End:
        pass
    _end_all(me, worker, status)
    _end_like(status[0] if status else None)


def main() -> None:
    mode, channel_arg, work, names, reveal_arg, *command = sys.argv[1:]
    channel = None if channel_arg == "-" else int(channel_arg)
    reveal = [] if reveal_arg == "-" else [
        tuple(pair.split("=", 1)) for pair in reveal_arg.split(os.pathsep)]
    signal.signal(signal.SIGTERM, _on_term)
    if mode == "limits":
        _run_with_limits(channel, command)
    else:
        _run_in_namespaces(channel, work, names, reveal, command, probe=mode == "probe")


if __name__ == "__main__":
    main()
