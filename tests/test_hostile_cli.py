"""The hostile learner files (tests/hostile/) through `linebyline check`, as a learner runs it.

Every file must get exactly its verdict and message, quickly (the time limit is the only wait),
with every message short, and without leaving anything behind: no process, no file outside the
check's own folder, nothing received by a server on this machine. The files marked `contained`
run again in each way of containing a check on Linux (bubblewrap, and namespaces set up by
linebyline itself), by root and by another user (`nobody`, when the tests run as root).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import run_cli
from .hostile_files import LESSON, HostileFile, hostile_files
from .other_user import CliUser

FILES = [f for f in hostile_files() if f.expected("cli")]
CONTAINED = [f for f in FILES if f.contained]
MESSAGE_MAX = 2_000  # characters: a message is read by a person
# Where write_outside.py writes: none of them may hold its file after a check.
OUTSIDE = [Path(folder) / "linebyline-escaped-file" for folder in ("/tmp", "/dev/shm", "/var/tmp")]
SLEEP = re.compile(r"""sleep\W+(\d+\.\d+)""")


def processes_running(marker: str) -> list[str]:
    """Command lines of the processes on this machine that contain `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ")
            except OSError:
                continue
            if marker.encode() in command:
                found.append(command.decode(errors="replace"))
    return found


def _clear_outside() -> None:
    for path in OUTSIDE:
        path.unlink(missing_ok=True)


def check_verdict(hostile: HostileFile, course, done: subprocess.CompletedProcess) -> dict:
    """The verdict the file's header asks for, in the JSON `check --json` printed."""
    expected = hostile.expected("cli")
    assert done.stderr == ""
    result = json.loads(done.stdout)
    report = "\n".join(f"{c['status']}: {c['name']}: {c['message'][:300]}" for c in result["checks"])
    assert result["status"] == expected.status, report
    assert done.returncode == (0 if expected.status == "pass" else 1)
    assert [c["name"] for c in result["checks"]] == list(course.lesson(LESSON).exercise.check_names)
    assert all(len(c["message"]) <= MESSAGE_MAX for c in result["checks"]), report
    if expected.status == "pass":
        assert expected.found_in(result["stdout"]), result["stdout"][-2000:]
    else:
        first = next(c for c in result["checks"] if c["status"] != "pass")
        assert expected.found_in(first["message"]), report
    assert len(result["stdout"]) < 250_000  # what is kept of any flood
    return result


def check_nothing_left(hostile: HostileFile, listeners) -> None:
    """No process the file started, no file it wrote outside, nothing a server received."""
    for marker in SLEEP.findall(hostile.path.read_text()):
        assert processes_running(f"sleep {marker}") == [], f"a sleep {marker} outlived the check"
    assert [str(path) for path in OUTSIDE if path.exists()] == []
    assert listeners.take() == []


@pytest.mark.parametrize("hostile", FILES, ids=[f.id for f in FILES])
def test_hostile_file_gets_its_verdict_from_the_cli(hostile, course, tmp_path, listeners):
    _clear_outside()
    path = tmp_path / "backward.py"
    path.write_text(hostile.source(course, PORT=str(listeners.port)), encoding="utf-8")
    done = run_cli("check", LESSON, str(path), "--json", *hostile.cli_options, timeout=60)
    check_verdict(hostile, course, done)
    check_nothing_left(hostile, listeners)


@pytest.mark.parametrize("way", ["bwrap", "namespaces"])
@pytest.mark.parametrize("who", ["root", "user"])
@pytest.mark.parametrize("hostile", CONTAINED, ids=[f.id for f in CONTAINED])
def test_contained_file_gets_its_verdict(hostile, who, way, course, listeners,
                                         cli_user: CliUser, cli_root: CliUser):
    runner = cli_root if who == "root" else cli_user
    _clear_outside()
    path = runner.write("backward.py", hostile.source(course, PORT=str(listeners.port)))
    done = runner.run("check", LESSON, str(path), "--json", *hostile.cli_options,
                      sandbox=way, timeout=60)
    check_verdict(hostile, course, done)
    check_nothing_left(hostile, listeners)


def test_no_process_outlives_its_check():
    # child_sleeps_on.py, child_detached.py, child_new_session.py and child_daemon.py started
    # these; the tests above have run them.
    assert processes_running("sleep 31.4159") == []
    assert processes_running("sleep 27.1828") == []
    assert processes_running("sleep 16.1803") == []
    assert processes_running("sleep 12.5663") == []
