"""Which way a check is contained on this machine, the commands that set it up, and its story.

Three ways, the strongest first:

- ``bwrap``: bubblewrap (Debian's `bubblewrap`) builds the namespaces.
- ``namespaces``: keeper.py builds the same namespaces itself with the kernel's calls.
- ``limits``: no namespaces (macOS, a kernel without them): the resource limits and the keeper.

``LINEBYLINE_SANDBOX`` picks one (``auto``, the default, tries them in that order, and goes on
to the next when one cannot be set up on this machine; naming one insists on it).
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ENV = "LINEBYLINE_SANDBOX"
WAYS = ("bwrap", "namespaces", "limits")
CHOICES = ("auto",) + WAYS
HERE = Path(__file__).parent
KEEPER = HERE / "keeper.py"
WORKER = HERE / "worker.py"
WORK = "/tmp/linebyline-check"  # the working folder inside the namespaces
TMP_MB = 128  # the private /tmp, which holds the working folder (keeper.py has the same)
SHM_MB = 32
NOBODY = (65534, 65534)
PROBE_S = 10.0


class SandboxUnavailable(Exception):
    """The containment asked for (LINEBYLINE_SANDBOX) cannot be had here; the message says why."""


def wanted() -> str:
    choice = os.environ.get(ENV, "").strip().lower() or "auto"
    if choice not in CHOICES:
        raise SandboxUnavailable(f"{ENV}={choice!r} is not one of {', '.join(CHOICES)}")
    return choice


def ways() -> list[str]:
    """The ways to try, in order: every way for auto (those this machine lacks are dropped),
    else only the one asked for."""
    choice = wanted()
    if choice == "bwrap" and bwrap_path() is None:
        raise SandboxUnavailable(f"{ENV}=bwrap, but bubblewrap is not installed (the `bwrap` "
                                 "command; on Debian and Ubuntu: apt install bubblewrap)")
    if choice == "namespaces" and not sys.platform.startswith("linux"):
        raise SandboxUnavailable(f"{ENV}=namespaces, but namespaces are a Linux feature")
    if choice != "auto":
        return [choice]
    found = [way for way in WAYS if way != "bwrap" or bwrap_path() is not None]
    return found if sys.platform.startswith("linux") else ["limits"]


def bwrap_path() -> str | None:
    return shutil.which("bwrap") if sys.platform.startswith("linux") else None


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def worker_command() -> list[str]:
    return [sys.executable, "-I", "-B", "-X", "utf8", str(WORKER)]


def _needed() -> set[str]:
    """The folders the worker needs from the host: Python's own, the environment's, this
    package's (none inside another)."""
    import sysconfig

    needed = {os.path.realpath(path) for path in (
        sys.base_prefix, sys.base_exec_prefix, sys.prefix, sys.exec_prefix,
        os.path.dirname(os.path.realpath(sys.executable)), sysconfig.get_paths()["purelib"],
        str(HERE.parents[1]))}
    return {path for path in needed if not any(path.startswith(other + os.sep) for other in needed)}


def kept_in_tmp() -> list[str]:
    """The needed folders that live under /tmp (a clone or a virtual environment there): the
    private /tmp would hide them, so each is bound back into it, read-only."""
    tmp = os.path.realpath("/tmp")
    return sorted(path for path in _needed() if path.startswith(tmp + os.sep))


def hidden_from_others() -> dict[str, list[str]]:
    """The folders that keep the worker's Python and this package from other users (a pyenv
    under /root, say), each with what in it the worker needs: {folder: [paths]}.

    Run as root, the worker drops to `nobody`, who must still read Python's own files (modules
    are imported lazily: socket's "idna" codec, say). In the namespaces, each such folder is
    covered by an empty one that anyone may enter, with the paths needed bound back, read-only:
    the rest of it (root's home) is not even there.
    """
    found: dict[str, list[str]] = {}
    for path in sorted(_needed() - set(kept_in_tmp())):  # those get a /tmp anyone may enter
        current = os.sep
        for part in Path(path).parts[1:]:
            current = os.path.join(current, part)
            try:
                mode = os.stat(current).st_mode
            except OSError:
                break
            if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
                if current != path:
                    found.setdefault(current, []).append(path)
                break
    return found


def _dirs_then_bind(top: str, path: str) -> list[str]:
    """bubblewrap's arguments that bind `path` back under `top`, read-only, making the folders
    between them such that anyone may enter (bubblewrap would make them 0700)."""
    made: list[str] = []
    for step in reversed(list(Path(path).relative_to(top).parents)[:-1]):
        made += ["--perms", "0755", "--dir", str(Path(top) / step)]
    return made + ["--ro-bind", path, path]


def bwrap_command(bwrap: str, names_fd: int, info_fd: int, command: list[str]) -> list[str]:
    """bubblewrap's command line: the namespaces, the read-only root, the private /tmp."""
    reveal: list[str] = []
    if is_root():
        # No user namespace: the worker drops to `nobody` itself, after loading what it needs,
        # so it keeps the right to change user and nothing else.
        users = ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        for folder, paths in hidden_from_others().items():
            reveal += ["--perms", "0755", "--tmpfs", folder]
            for path in paths:
                reveal += _dirs_then_bind(folder, path)
            reveal += ["--remount-ro", folder]
    else:
        users = ["--unshare-user", "--disable-userns"]
    return [bwrap, *users, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent", "--new-session",
            "--ro-bind", "/", "/", *reveal, "--dev", "/dev", "--proc", "/proc",
            "--perms", "1777", "--size", str(TMP_MB << 20), "--tmpfs", "/tmp",
            *(arg for path in kept_in_tmp() for arg in _dirs_then_bind("/tmp", path)),
            "--perms", "1777", "--size", str(SHM_MB << 20), "--tmpfs", "/dev/shm",
            "--perms", "0777", "--dir", WORK,
            "--perms", "0644", "--file", str(names_fd), f"{WORK}/input.txt",
            "--chdir", WORK, "--info-fd", str(info_fd), "--", *command]


def keeper_command(way: str, channel: int | None, names: str, command: list[str]) -> list[str]:
    """keeper.py's command line (its docstring says what each part is)."""
    work, names, reveal = (WORK, names, "-") if way != "limits" else ("-", "-", "-")
    if way != "limits":
        pairs = [(folder, path) for folder, paths in hidden_from_others().items()
                 for path in paths] if is_root() else []
        pairs += [("/tmp", path) for path in kept_in_tmp()]
        reveal = os.pathsep.join(f"{folder}={path}" for folder, path in pairs) or "-"
    return [sys.executable, "-I", "-S", "-B", str(KEEPER), way,
            "-" if channel is None else str(channel), work, names, reveal, *command]


# --- what `check --explain-sandbox` says ---------------------------------------------------

def _probe(command: list[str], pass_fds: tuple[int, ...] = ()) -> str:
    """"" when the command ran in its namespaces, else why not (its last line of stderr)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_S,
                              pass_fds=pass_fds, cwd="/", start_new_session=True)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode == 0:
        return ""
    lines = done.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit code {done.returncode}"


def probe(way: str, names: str) -> str:
    """"" when `way` works here, else what stops it."""
    if way == "limits":
        return ""
    if not sys.platform.startswith("linux"):
        return "namespaces are a Linux feature"
    check = [sys.executable, "-I", "-S", "-c", ""]
    if way == "bwrap":
        bwrap = bwrap_path()
        if bwrap is None:
            return "bubblewrap is not installed (the `bwrap` command)"
        read_end, write_end = os.pipe()
        with open(names, "rb") as file:
            try:
                return _probe(bwrap_command(bwrap, file.fileno(), write_end, check),
                              (file.fileno(), write_end))
            finally:
                os.close(read_end)
                os.close(write_end)
    return _probe(keeper_command("probe", None, names, check))
