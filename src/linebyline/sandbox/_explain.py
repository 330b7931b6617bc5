"""`linebyline check --explain-sandbox`: which protections a check has on this machine, in words.

Every way is tried for real (a bubblewrap or a keeper.py that runs an empty Python in its
namespaces), so what this says is what a check gets, not what the system claims to offer.
"""
from __future__ import annotations

import getpass
import platform
import subprocess
import textwrap

from . import _containment as containment
from ._run import _names
from ._shared import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT, FILE_MB, PROCESSES

WIDTH = 100
KEEPER_SAYS = "linebyline keeper: namespaces unavailable: "
NAMES = {"bwrap": "bubblewrap", "namespaces": "namespaces set up by linebyline itself",
         "limits": "limits only (no namespaces)"}


def _bwrap_version(path: str) -> str:
    try:
        return subprocess.run([path, "--version"], capture_output=True, text=True,
                              timeout=5).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "bubblewrap"


def _protections(way: str) -> list[tuple[bool, str]]:
    root = containment.is_root()
    contained = way != "limits"
    limits = (f"limits: {DEFAULT_TIMEOUT:g} s (--timeout), {DEFAULT_MEMORY_MB} MB of memory "
              f"(--memory), files up to {FILE_MB} MB, {PROCESSES} more processes")
    if contained:
        processes = ("every process your code starts ends with the check: it runs in a PID "
                     "namespace of its own, which the kernel ends as a whole")
    elif root:
        processes = ("every process your code starts ends with the check: a keeper process "
                     "(running as root, your code as nobody) ends them all")
    else:
        processes = ("processes your code starts end with the check only while your code leaves "
                     "the keeper process alone: it runs as you, so your code can kill it and "
                     "then leave a process running after the check")
    found = [
        (True, "a separate process: your code never runs inside the `linebyline` command"),
        (True, limits),
        (contained or root, processes),
        (contained, "no network: an empty network namespace, where not even this machine's "
                    "own services (127.0.0.1) can be reached" if contained else
                    "network: your code can open connections, to this machine's own services too"),
        (contained, f"files: everything read-only but a private /tmp ({containment.TMP_MB} MB, "
                    f"with your working folder and input.txt) and /dev/shm "
                    f"({containment.SHM_MB} MB), both gone after the check" if contained else
                    "files: your code starts in a temporary folder removed after the check, but "
                    "it can write wherever you can, and what it writes elsewhere stays"),
        (contained, "its own IPC namespace, and no set-user-ID privileges" if contained else
                    "IPC: your code shares System V and POSIX shared memory with your programs"),
    ]
    if root:
        found.append((True, "runs as `nobody`, since you run the check as root"))
    return found


def _wrapped(text: str, first: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first,
                         subsequent_indent=" " * len(first)) or [first]


def explain() -> str:
    """The protections of this machine's checks, and of every way it has, in plain words."""
    choice = containment.wanted()
    names = _names()
    found = {way: containment.probe(way, names).removeprefix(KEEPER_SAYS)
             for way in containment.WAYS}
    order = list(containment.WAYS) if choice == "auto" else [choice]
    used = next((way for way in order if not found[way]), None)
    who = "root" if containment.is_root() else getpass.getuser()
    lines = _wrapped(f"How `linebyline check` contains your code here ({platform.system()} "
                     f"{platform.release()}, run as {who}; {containment.ENV}={choice}).") + [""]
    if used is None:
        lines += _wrapped(f"{containment.ENV}={choice} asks for {NAMES[choice]}, which this "
                          f"machine does not have: {found[choice]}. Checks will not start; unset "
                          "it to use the best way there is.") + [""]
    else:
        title = NAMES[used]
        if used == "bwrap":
            title = f"{_bwrap_version(containment.bwrap_path() or 'bwrap')} " \
                    f"({containment.bwrap_path()})"
        lines += [f"Checks run with {title}:"]
        for ok, text in _protections(used):
            lines += _wrapped(text, f"  {'✓' if ok else '✗'} ")
        lines.append("")
    reader = "nobody" if containment.is_root() else "you"
    secrecy = f"secrecy: your code can read what {reader} can read"
    if used not in (None, "limits"):
        secrecy += " (it cannot change it, and without network it can only show it to you)"
    lines += ["Never promised, whichever the way:"]
    lines += _wrapped(secrecy + ";", "  - ")
    lines += _wrapped("a verdict that code written to fool the checks cannot forge: the checks "
                      "call your functions in your code's own process. Calls to the checker's "
                      "report function from your code, and results that disagree with the steps "
                      "the checker reported, get the check refused. A check is a learning aid.",
                      "  - ") + [""]
    lines.append("Ways on this machine (" + containment.ENV + "=auto tries them in this order):")
    for way in containment.WAYS:
        state = "available" if not found[way] else f"not available: {found[way]}"
        lines.append(f"  {way:<11} {NAMES[way]}: {state}")
    return "\n".join(lines)
