"""The sandbox's ways of containing a check, `check --explain-sandbox`, and the report protocol.

The hostile files (test_hostile_cli.py) show what each way stops; these show which way is taken,
that a way this machine lacks hands over to the next, that what --explain-sandbox says is so,
and what the CLI accepts on the report pipe.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from linebyline.sandbox import _containment
from linebyline.sandbox._protocol import Protocol

from .conftest import run_cli, the_course
from .other_user import CliUser

NAMES = ["one", "two"]
ALL_PASS = "{0} / {0} checks pass:".format(
    len(the_course().lesson("7.5").exercise.check_names))
SOLUTION = Path(__file__).resolve().parents[1] / "courses/microgpt/lessons/7.5-backward/solution.py"


def passed(name: str) -> dict:
    return {"name": name, "status": "pass", "message": ""}


def honest(protocol: Protocol, names=NAMES, status="pass") -> None:
    protocol.take("code", {})
    for name in names:
        protocol.take("check", {"name": name})
        protocol.take("checked", {"name": name, "status": status, "message": "", "fix": "x"})


def result(*checks: dict, status: str = "pass") -> dict:
    return {"lesson": "1.1", "status": status, "checks": list(checks), "stdout": "",
            "traceback": ""}


# --- the report protocol --------------------------------------------------------------------

def test_an_honest_run_is_taken_with_every_key_it_has():
    protocol = Protocol(NAMES)
    honest(protocol)
    sent = result(passed("one"), passed("two"))
    protocol.take("result", sent)
    assert protocol.result == sent and not protocol.forged


def test_a_failing_run_and_a_starter_are_taken():
    protocol = Protocol(NAMES)
    honest(protocol, status="fail")
    protocol.take("result", result({"name": "one", "status": "fail", "message": "no"},
                                   {"name": "two", "status": "fail", "message": "no"},
                                   status="fail"))
    assert protocol.result is not None and not protocol.forged
    starter = Protocol(NAMES)
    starter.take("result", result({"name": "one", "status": "not-attempted", "message": ""},
                                  {"name": "two", "status": "not-attempted", "message": ""},
                                  status="not-attempted"))
    assert starter.result is not None and not starter.forged


def test_a_lone_passing_result_is_refused():
    protocol = Protocol(NAMES)
    protocol.take("code", {})
    protocol.take("result", result(passed("one"), passed("two")))
    assert protocol.result is None
    assert "which was not reported passing" in protocol.forged


def test_a_pass_the_check_did_not_report_is_refused():
    protocol = Protocol(NAMES)
    honest(protocol, status="fail")
    protocol.take("result", result(passed("one"), passed("two")))
    assert protocol.result is None and "refused" in protocol.forged


def test_a_check_out_of_turn_is_refused_and_nothing_after_counts():
    protocol = Protocol(NAMES)
    protocol.take("check", {"name": "two"})
    assert "out of turn" in protocol.forged
    protocol.take("result", result(passed("one"), passed("two")))
    assert protocol.result is None


def test_checks_reported_twice_are_refused():
    # What a file that calls the runtime's evaluate() itself, with the report function, makes.
    protocol = Protocol(NAMES)
    honest(protocol)
    protocol.take("check", {"name": "one"})
    assert "out of turn" in protocol.forged


def test_the_workers_word_that_its_report_function_was_called_refuses_the_run():
    protocol = Protocol(NAMES)
    protocol.take("forged", "“result” reported by <module> (backward.py, line 3)")
    protocol.take("result", result())
    assert protocol.result is None
    assert "your code called the checker's own report function" in protocol.forged


# --- the ways, and what --explain-sandbox says ------------------------------------------------

def explain(runner: CliUser, sandbox: str = "auto", path: str | None = None) -> str:
    env = {"PATH": path} if path is not None else {}
    done = runner.run("check", "--explain-sandbox", sandbox=sandbox, extra_env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(params=["root", "user"])
def runner(request, cli_root: CliUser, cli_user: CliUser) -> CliUser:
    return cli_root if request.param == "root" else cli_user


@pytest.fixture
def broken_bwrap():
    """A PATH whose `bwrap` fails as bubblewrap does where user namespaces are turned off (in a
    folder every user may enter)."""
    folder = Path(tempfile.mkdtemp(prefix="linebyline-bin-"))
    folder.chmod(0o755)
    fake = folder / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(0o755)
    yield f"{folder}:/usr/bin:/bin"
    shutil.rmtree(folder)


def test_explain_names_bubblewrap_and_every_protection(runner):
    text = explain(runner)
    assert "Checks run with bubblewrap" in text
    assert "✗" not in text.split("Never promised")[0]
    for words in ("PID namespace", "no network", "read-only", "IPC namespace"):
        assert words in text
    assert ("runs as `nobody`" in text) == (runner.user is None and os.geteuid() == 0)


def test_without_bubblewrap_namespaces_take_over(runner, tmp_path):
    text = explain(runner, path=str(tmp_path))  # no bwrap on this PATH
    assert "Checks run with namespaces set up by linebyline itself" in text
    assert "bwrap       bubblewrap: not available: bubblewrap is not installed" in text


def test_a_bubblewrap_that_cannot_start_hands_over_to_namespaces(runner, broken_bwrap):
    text = explain(runner, path=broken_bwrap)
    assert "Checks run with namespaces set up by linebyline itself" in text
    assert "not available: bwrap: setting up uid map: Permission denied" in text
    path = runner.write("backward.py", SOLUTION.read_text())
    done = runner.run("check", "7.5", str(path), "--json", extra_env={"PATH": broken_bwrap})
    assert (done.returncode, json.loads(done.stdout)["status"]) == (0, "pass"), done.stderr


def test_where_namespaces_are_denied_checks_fall_back_to_limits(cli_user):
    # The CLI runs where it may make no namespace at all (inside a bubblewrap that turned user
    # namespaces off): neither bubblewrap nor linebyline's own namespaces can start there.
    if cli_user.user is None and os.geteuid() == 0:
        pytest.skip("needs an ordinary user")
    home = str(cli_user.home)
    # A clone under /tmp (and the course in it) stays in sight of the CLI.
    tmp, repo = os.path.realpath("/tmp"), os.path.realpath(Path(__file__).parents[1])
    seen = _containment.kept_in_tmp() + ([repo] if repo.startswith(tmp + os.sep) else [])
    clone = [arg for path in seen for arg in ("--ro-bind", path, path)]
    jail = [shutil.which("bwrap"), "--unshare-user", "--disable-userns", "--ro-bind", "/", "/",
            "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", *clone,
            "--bind", home, home, "--"]
    text = " ".join(explain_within(cli_user, jail).split())
    assert "Checks run with limits only (no namespaces)" in text
    assert "bwrap bubblewrap: not available: bwrap:" in text
    assert "namespaces namespaces set up by linebyline itself: not available:" in text
    path = cli_user.write("backward.py", SOLUTION.read_text())
    done = cli_user.run("check", "7.5", str(path), within=jail)
    assert done.returncode == 0 and ALL_PASS in done.stdout, done.stdout + done.stderr


def explain_within(runner: CliUser, within: list[str]) -> str:
    done = runner.run("check", "--explain-sandbox", within=within)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_limits_alone_say_what_they_do_not_stop(runner):
    text = explain(runner, sandbox="limits")
    assert "Checks run with limits only (no namespaces)" in text
    assert "✗ network: your code can open connections" in text
    assert "✗ files: your code starts in a temporary folder" in text
    if runner.user is None and os.geteuid() == 0:
        assert "✓ every process your code starts ends with the check: a keeper" in text
    else:
        assert "✗ processes your code starts end with the check only while" in text


def test_asking_for_a_way_this_machine_lacks_is_a_usage_error(runner, tmp_path):
    path = runner.write("backward.py", SOLUTION.read_text())
    done = runner.run("check", "7.5", str(path), sandbox="bwrap", extra_env={"PATH": str(tmp_path)})
    assert done.returncode == 2
    assert "LINEBYLINE_SANDBOX=bwrap, but bubblewrap is not installed" in done.stderr
    text = " ".join(explain(runner, sandbox="bwrap", path=str(tmp_path)).split())
    assert ("LINEBYLINE_SANDBOX=bwrap asks for bubblewrap, which this machine does not have: "
            "bubblewrap is not installed") in text
    for args in (("check", "7.5", str(path)), ("check", "--explain-sandbox")):
        done = runner.run(*args, sandbox="jail")
        assert done.returncode == 2 and "'jail' is not one of auto, bwrap" in done.stderr


@pytest.mark.parametrize("way", ["bwrap", "namespaces", "limits"])
def test_each_way_passes_the_solution(runner, way):
    path = runner.write("backward.py", SOLUTION.read_text())
    done = runner.run("check", "7.5", str(path), sandbox=way)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ALL_PASS in done.stdout


def test_check_without_a_file_says_what_it_needs(tmp_path):
    done = run_cli("check", "7.5", cwd=tmp_path)  # no lesson folder and no backward.py there
    assert done.returncode == 2
    assert ("microgpt/7.5-backward/backward.py: no such file. `linebyline start 7.5` writes it "
            "there, or name your file: `linebyline check 7.5 FILE`") in done.stderr


def test_bubblewrap_is_installed_here():
    # scripts/system-deps.sh installs it: without it, the tests above would test one way less.
    assert shutil.which("bwrap"), "bubblewrap is missing: run scripts/system-deps.sh"
    assert sys.platform.startswith("linux")


def test_further_options_reach_the_check_runtime_as_they_are(course):
    # The runtime's evaluate() takes the options it knows; this one it does not, and says so.
    from linebyline.sandbox import check_source

    lesson = course.lesson("7.5")
    result = check_source(lesson, lesson.exercise.solution, not_an_option=[1, "two"])
    assert result.status == "error"
    assert "unexpected keyword argument 'not_an_option'" in result.checks[0].message


def test_the_keeper_and_the_cli_agree_on_their_numbers():
    # keeper.py runs alone (python -I -S, no package): it keeps its own copies.
    from linebyline.sandbox import _containment, _shared, keeper

    assert (keeper.TMP_MB, keeper.SHM_MB) == (_containment.TMP_MB, _containment.SHM_MB)
    assert keeper.SETUP_FAILED == _shared.SETUP_FAILED
