"""The `linebyline` command as a learner uses it from a terminal."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from linebyline.course import apply_edits, load_course

from .conftest import ROOT, run_cli

FIXTURES = ROOT / "tests" / "lessons" / "7.5"


def check_json(lesson: str, path: Path, *extra: str) -> tuple[int, dict]:
    done = run_cli("check", lesson, str(path), "--json", *extra)
    assert done.stderr == ""
    return done.returncode, json.loads(done.stdout)


def write(tmp_path: Path, text: str, name: str = "backward.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["lessons", "start", "show", "hint", "solution", "quiz",
                                     "check", "watch", "run", "progress", "lint", "assemble",
                                     "train", "serve", "login", "logout", "config", "graph"])
def test_every_command_has_help(command):
    done = run_cli(command, "--help")
    assert done.returncode == 0 and "usage: linebyline" in done.stdout


def test_no_command_prints_help():
    done = run_cli()
    assert done.returncode == 0 and "lessons" in done.stdout and "check" in done.stdout


def without_the_last_lesson(copy):
    """A copy of the course whose last lesson is planned but not written yet: (number, title)."""
    course = load_course(copy)
    last = list(course.lessons())[-1]
    shutil.rmtree(next((copy / "lessons").glob(f"{last.number}-*")))
    return last.number, last.title


def test_lessons_lists_modules_scripts_minutes_and_what_is_coming(course, copy):
    done = run_cli("lessons")
    assert done.returncode == 0
    assert f"{len(course.countable_lines())} lines to learn" in done.stdout
    assert "Module 7  Autograd = automatic chain rule  (train2.py)" in done.stdout
    assert "7.4  Building Value" in done.stdout and "25 min" in done.stdout
    assert "7.5  backward(): let the graph do calculus" in done.stdout
    assert "7.1  What gets deleted" in done.stdout
    published = {lesson.title for lesson in course.lessons()}
    assert all(title in published for module in course.modules for title in module.planned)
    assert "coming soon" not in done.stdout
    # A lesson planned but not written yet says so.
    number, title = without_the_last_lesson(copy)
    done = run_cli("--course", str(copy), "lessons")
    line = next(line for line in done.stdout.splitlines() if f"{number}  {title}" in line)
    assert "(coming soon)" in line


def test_start_writes_the_starter_and_never_overwrites_work(tmp_path, course):
    lesson = course.lesson("7.5")
    done = run_cli("start", "7.5", str(tmp_path / "work"))
    target = tmp_path / "work" / lesson.exercise.filename
    assert done.returncode == 0 and str(target) in done.stdout
    assert target.read_text() == lesson.exercise.starter

    target.write_text("my precious work")
    again = run_cli("start", "7.5", str(tmp_path / "work"))
    assert again.returncode == 2 and "already exists" in again.stderr and "--force" in again.stderr
    assert target.read_text() == "my precious work"

    forced = run_cli("start", "7.5", str(tmp_path / "work"), "--force")
    assert forced.returncode == 0 and target.read_text() == lesson.exercise.starter


def test_start_puts_each_lesson_in_a_folder_of_its_own_with_its_input(tmp_path, course):
    assert run_cli("start", "1.1", cwd=tmp_path).returncode == 0
    assert run_cli("start", "2.3", cwd=tmp_path).returncode == 0
    for number in ("1.1", "2.3"):
        lesson = course.lesson(number)
        folder = tmp_path / "microgpt" / f"{number}-{lesson.slug}"
        assert (folder / lesson.exercise.filename).read_text() == lesson.exercise.starter
        assert (folder / "input.txt").stat().st_size > 100_000  # the names it reads
    # The starter runs with plain `python` where it was written.
    folder = tmp_path / "microgpt" / f"1.1-{course.lesson('1.1').slug}"
    ran = subprocess.run([sys.executable, course.lesson("1.1").exercise.filename], cwd=folder,
                         capture_output=True, text=True, timeout=120)
    assert "FileNotFoundError" not in ran.stderr


def test_check_passes_the_solution_with_exit_code_0(tmp_path, course):
    lesson = course.lesson("7.5")
    code, result = check_json("7.5", write(tmp_path, lesson.exercise.solution))
    assert code == 0
    assert result["lesson"] == "7.5" and result["status"] == "pass"
    assert [c["name"] for c in result["checks"]] == list(lesson.exercise.check_names)
    assert all(c["status"] == "pass" for c in result["checks"])
    assert set(result) == {"lesson", "status", "checks", "stdout", "traceback"}


def test_check_calls_the_untouched_starter_not_attempted(tmp_path, course):
    code, result = check_json("7.5", write(tmp_path, course.lesson("7.5").exercise.starter))
    assert code == 1 and result["status"] == "not-attempted"
    assert {c["status"] for c in result["checks"]} == {"not-attempted"}


def test_check_explains_a_known_mistake(tmp_path, course):
    lesson = course.lesson("7.5")
    mistake = lesson.exercise.mistakes[0]
    code, result = check_json("7.5", write(tmp_path, apply_edits(lesson.exercise.solution,
                                                                 mistake.edits)))
    assert code == 1 and result["status"] == "fail"
    failed = [c for c in result["checks"] if c["status"] != "pass"]
    assert failed[0]["name"] == mistake.check and failed[0]["message"] == mistake.message


def test_check_half_done_file_passes_some_and_fails_others():
    code, result = check_json("7.5", FIXTURES / "half_done.py")
    assert code == 1 and result["status"] == "fail"
    statuses = [c["status"] for c in result["checks"]]
    assert "pass" in statuses and "fail" in statuses


def test_check_reports_a_crash_with_the_learners_line():
    code, result = check_json("7.5", FIXTURES / "crash.py")
    assert code == 1
    errors = [c for c in result["checks"] if c["status"] == "error"]
    assert errors and "NameError" in errors[0]["message"]
    assert "of your code" in errors[0]["message"]


def test_check_stops_an_infinite_loop_at_the_time_limit():
    started = time.monotonic()
    code, result = check_json("7.5", FIXTURES / "loop.py", "--timeout", "2")
    assert time.monotonic() - started < 8
    assert code == 1 and result["status"] in ("error", "fail")
    stopped = [c for c in result["checks"] if "2 s time limit" in c["message"]]
    assert stopped and stopped[0]["status"] == "error"


def test_check_stops_a_memory_bomb_at_the_memory_limit():
    code, result = check_json("7.5", FIXTURES / "memory.py", "--memory", "256")
    assert code == 1
    stopped = [c for c in result["checks"] if "256 MB memory limit" in c["message"]]
    assert stopped and stopped[0]["status"] == "error"


def test_check_human_output(tmp_path, course):
    done = run_cli("check", "7.5", str(write(tmp_path, course.lesson("7.5").exercise.starter)))
    assert done.returncode == 1
    assert "Lesson 7.5" in done.stdout and "not-attempted" in done.stdout
    assert "Fill in the TODOs" in done.stdout


def test_learner_prints_are_kept_apart_from_the_result(tmp_path, course):
    noisy = course.lesson("7.5").exercise.solution + '\nprint("{not json")\n'
    code, result = check_json("7.5", write(tmp_path, noisy))
    assert code == 0 and result["stdout"] == "{not json\n"


@pytest.mark.parametrize("args, message", [
    (["check", "9.9", "x.py"], "there is no lesson '9.9'"),
    (["check", "7.5", "/nonexistent/backward.py"], "/nonexistent/backward.py: no such file"),
    (["start", "7,4"], "there is no lesson '7,4'; did you mean 7.4?"),
    (["show", "75"], "did you mean 7.5?"),
    (["train", "--script", "train9"], "no script named 'train9'"),
    (["lint", "/nonexistent"], "/nonexistent: not a course folder"),
])
def test_usage_errors_exit_2_with_a_clear_message(args, message):
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr


def test_a_lesson_still_to_come_is_coming_soon_not_a_list(copy):
    number, title = without_the_last_lesson(copy)
    done = run_cli("--course", str(copy), "start", number)
    assert done.returncode == 2
    assert f"{number} is coming soon (“{title}”)" in done.stderr


def test_check_refuses_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "backward.py"
    path.write_bytes("x = 'é'\n".encode("latin-1"))
    done = run_cli("check", "7.5", str(path))
    assert done.returncode == 2 and "is not UTF-8 text" in done.stderr


def test_train_shows_progress_loss_and_samples(names_file):
    done = run_cli("train", "--steps", "2", "--dataset", str(names_file))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["documents: 32033", "vocab size: 27", "parameters: 4192"]
    assert "step    1 / 2 | loss 3.3660" in lines
    assert "--- samples ---" in lines and lines[-1].startswith("sample 20: ")
    assert "2/2" in done.stderr  # the progress bar


def test_train_runs_a_module_script_on_the_bundled_names():
    done = run_cli("train", "--steps", "1", "--script", "train0")
    assert done.returncode == 0, done.stderr
    assert "documents: 32000" in done.stdout and "sample 20: " in done.stdout


def test_serve_refuses_an_unusable_names_file(tmp_path):
    bad = tmp_path / "names.txt"
    bad.write_bytes(b"")
    env = {**os.environ, "LINEBYLINE_DATA_DIR": str(tmp_path / "data"),
           "LINEBYLINE_NAMES_FILE": str(bad)}
    done = subprocess.run([sys.executable, "-m", "linebyline", "serve", "--port", "0"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 1
    assert f"the names file for the browser is unusable: {bad}: is empty" in done.stderr


def test_serve_reports_a_port_in_use(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "LINEBYLINE_DATA_DIR": str(tmp_path / "data")}
        done = subprocess.run([sys.executable, "-m", "linebyline", "serve", "--port", str(port)],
                              capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


@pytest.mark.parametrize("args, message", [
    (["check", "7.5", "x.py", "--timeout", "nan"], "argument --timeout: must be a number of seconds"),
    (["check", "7.5", "x.py", "--timeout", "inf"], "argument --timeout: must be a number of seconds"),
    (["check", "7.5", "x.py", "--timeout", "0"], "argument --timeout: must be a number of seconds"),
    (["check", "7.5", "x.py", "--timeout", "-1"], "argument --timeout: must be a number of seconds"),
    (["check", "7.5", "x.py", "--timeout", "soon"], "argument --timeout: must be a number of seconds"),
    (["check", "7.5", "x.py", "--memory", "99999999999999"],
     "argument --memory: must be a whole number of MB from 64 to 1,048,576"),
    (["check", "7.5", "x.py", "--memory", "32"], "argument --memory: must be a whole number of MB"),
    (["check", "7.5", "x.py", "--memory", "1.5"], "argument --memory: must be a whole number of MB"),
    (["serve", "--port", "70000"], "argument --port: must be a port number from 0 to 65535"),
    (["train", "--steps", "0"], "argument --steps: must be a whole number of steps from 1"),
])
def test_numeric_options_are_validated_with_a_usage_error(args, message):
    done = run_cli(*args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_file_too_big_to_be_a_lesson_is_refused_before_it_is_read(tmp_path):
    path = write(tmp_path, "# " + "x" * 1_000_001)
    done = run_cli("check", "7.5", str(path))
    assert done.returncode == 2 and "more than the 1,000,000 a lesson's file can be" in done.stderr


# The CLI's own peak resident memory: VmHWM belongs to this program's memory, which starts afresh
# at exec. (ru_maxrss would not do: Linux carries the forking parent's size into it, and pytest's
# process grows past the limit below as the suite runs.)
MEASURED = """
import json, re, sys
from linebyline.cli.main import main
code = main(sys.argv[1:])
with open("/proc/self/status") as status:
    peak_kb = int(re.search(r"VmHWM:\\s*(\\d+)", status.read()).group(1))
print(json.dumps([code, peak_kb]), file=sys.stderr)
"""


def test_a_file_writing_a_gigabyte_costs_the_cli_no_memory_and_what_is_kept_is_shown(
        tmp_path, course):
    flood = "import os\nchunk = b'y' * (1 << 20)\nfor i in range(1024):\n    os.write(1 + i % 2, chunk)\n"
    path = write(tmp_path, course.lesson("7.5").exercise.solution + "\n" + flood)
    done = subprocess.run([sys.executable, "-c", MEASURED, "check", "7.5", str(path), "--json"],
                          capture_output=True, text=True, timeout=300)
    code, peak_kb = json.loads(done.stderr.strip().splitlines()[-1])
    result = json.loads(done.stdout)
    assert code == 0 and result["status"] == "pass"
    assert peak_kb < 200 * 1024  # resident memory of the CLI process at its peak
    assert result["stdout"].startswith("y" * 1000)
    assert result["stdout"].rstrip().endswith(
        f"[output cut: your code wrote {1 << 30:,} bytes straight to the terminal; the first "
        f"{64 * 1024:,} are shown]")


@pytest.mark.parametrize(("typed", "meant"), [(["chek", "7.5"], "linebyline check"),
                                              (["lesons"], "linebyline lessons"),
                                              (["teacher", "ad", "x"], "linebyline teacher add")])
def test_a_mistyped_command_is_told_the_one_it_is_likely_to_mean(typed, meant):
    done = run_cli(*typed)
    assert done.returncode == 2 and f"did you mean `{meant}`?" in done.stderr


def test_a_command_like_no_other_gets_no_guess():
    done = run_cli("zzz")
    assert done.returncode == 2 and "invalid choice: 'zzz'" in done.stderr
    assert "did you mean" not in done.stderr


def test_check_all_checks_every_started_file_one_line_each_and_records_nothing(tmp_path, course,
                                                                             learner_folders):
    assert run_cli("start", "1.1", cwd=tmp_path).returncode == 0
    assert run_cli("start", "2.3", cwd=tmp_path).returncode == 0
    folder = tmp_path / "microgpt"
    passing = folder / "1.2-imports-and-the-seed" / course.lesson("1.2").exercise.filename
    passing.parent.mkdir(parents=True)
    passing.write_text(course.lesson("1.2").exercise.solution, encoding="utf-8")
    loss = folder / "2.3-loss-as-surprise" / "loss.py"
    loss.write_text(course.lesson("2.3").exercise.solution.replace(
        "for pos in range(n):", "for pos in range(len(tokens) - 1):"), encoding="utf-8")
    done = run_cli("check", "--all", cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # a started file does not pass
    numbers = [item.number for item in [*course.lessons(), *course.recalls()]]
    lines = {line.split()[0]: line for line in done.stdout.splitlines()
             if line.split() and line.split()[0] in numbers}
    assert lines["1.1"].endswith("the starter, untouched")
    assert lines["1.2"].endswith("✓ 3 / 3 checks pass")
    assert "✗ 4 / 5: first not passing, 'a name longer than block_size" in lines["2.3"]
    assert lines["1.3"].endswith("not started") and lines["review-12"].endswith("not started")
    assert list(lines) == numbers
    assert done.stdout.splitlines()[-1].startswith("1 of 3 files you started pass")
    as_json = json.loads(run_cli("check", "--all", "--json", cwd=tmp_path).stdout)
    assert [row["status"] for row in as_json[:3]] == ["not-attempted", "pass", "not-started"]
    # A look over the work, not 78 attempts: the progress shows no check of any lesson.
    progress = json.loads(run_cli("progress", "--export", "-", cwd=tmp_path).stdout or "{}")
    assert all(not lesson.get("checks") for lesson in progress.get("lessons", {}).values())
    both = run_cli("check", "1.1", "--all", cwd=tmp_path)
    assert both.returncode == 2 and "give no lesson number with it" in both.stderr
