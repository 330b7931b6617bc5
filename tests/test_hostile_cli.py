"""The hostile learner files (tests/hostile/) through `linebyline check`, as a learner runs it.

Every file must get exactly its verdict and message, quickly (the time limit is the only wait),
with every message short, and without leaving a process behind.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .conftest import run_cli
from .hostile_files import LESSON, hostile_files

FILES = [f for f in hostile_files() if f.expected("cli")]
MESSAGE_MAX = 2_000  # characters: a message is read by a person


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


@pytest.mark.parametrize("hostile", FILES, ids=[f.id for f in FILES])
def test_hostile_file_gets_its_verdict_from_the_cli(hostile, course, tmp_path):
    expected = hostile.expected("cli")
    path = tmp_path / "backward.py"
    path.write_text(hostile.source(course), encoding="utf-8")
    done = run_cli("check", LESSON, str(path), "--json", *hostile.cli_options, timeout=60)
    assert done.stderr == ""
    result = json.loads(done.stdout)
    report = "\n".join(f"{c['status']}: {c['name']}: {c['message'][:300]}" for c in result["checks"])
    assert result["status"] == expected.status, report
    assert done.returncode == (0 if expected.status == "pass" else 1)
    assert [c["name"] for c in result["checks"]] == list(course.lesson(LESSON).exercise.check_names)
    assert all(len(c["message"]) <= MESSAGE_MAX for c in result["checks"]), report
    if expected.status == "pass":
        assert expected.found_in(result["stdout"])
    else:
        first = next(c for c in result["checks"] if c["status"] != "pass")
        assert expected.found_in(first["message"]), report
    assert len(result["stdout"]) < 250_000  # what is kept of any flood


def test_no_process_outlives_its_check():
    # child_sleeps_on.py, child_detached.py, child_new_session.py and child_daemon.py started
    # these; the tests above have run them.
    assert processes_running("sleep 31.4159") == []
    assert processes_running("sleep 27.1828") == []
    assert processes_running("sleep 16.1803") == []
    assert processes_running("sleep 12.5663") == []
