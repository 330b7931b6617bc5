"""The course from a terminal, as a learner meets it: local progress, hints and fixes, the quiz,
what "yours" means (only code that passed), and the small things that must each be one clear
line with the right exit code. Each runs the real `linebyline` command in a process of its own."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits
from linebyline.progress.local import LocalProgress
from linebyline.terminal.quiz import seeded_order

from .conftest import ROOT, run_cli


def solution(course, number: str) -> str:
    return course.lesson(number).exercise.solution


def mistake(course, number: str, name: str) -> str:
    lesson = course.lesson(number)
    found = next(m for m in lesson.exercise.mistakes if m.name == name)
    return apply_edits(lesson.exercise.solution, found.edits)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_debug_print_does_not_change_the_verdict(tmp_path, course):
    # The loop prints its surprises as well as its step line: 230,000 characters in all.
    noisy = solution(course, "2.3").replace(
        "    loss = (1 / n) * sum(losses)\n",
        "    loss = (1 / n) * sum(losses)\n    print('debug', losses, tokens, doc, n)\n")
    assert noisy != solution(course, "2.3")
    done = run_cli("check", "2.3", str(write(tmp_path, "loss.py", noisy)), "--json")
    result = json.loads(done.stdout)
    assert done.returncode == 0, [c["message"] for c in result["checks"]]
    assert result["status"] == "pass"


def test_check_records_progress_and_lessons_shows_it(tmp_path, course):
    work = write(tmp_path, "backward.py", course.lesson("7.5").exercise.starter)
    assert run_cli("check", "7.5", str(work)).returncode == 1  # untouched: not an attempt
    assert "7.5" not in LocalProgress("microgpt").lessons()
    work.write_text(mistake(course, "7.5", course.lesson("7.5").exercise.mistakes[0].name))
    assert run_cli("check", "7.5", str(work)).returncode == 1
    listed = run_cli("lessons").stdout
    assert "✗   7.5  backward()" in listed
    work.write_text(solution(course, "7.5"))
    passed = run_cli("check", "7.5", str(work))
    assert passed.returncode == 0
    assert passed.stdout.rstrip().splitlines()[-1].startswith("Next: ")
    listed = run_cli("lessons")
    assert "✓   7.5  backward()" in listed.stdout and "1 lesson done" in listed.stdout
    # 7.5 teaches one line: every count of one reads in the singular.
    assert "1 line yours" in listed.stdout and "min  +1 line\n" in listed.stdout
    assert not re.search(r"\b1 (lines|lessons)\b", listed.stdout), listed.stdout
    exported = json.loads(run_cli("progress", "--export", "-").stdout)
    lesson = exported["lessons"]["7.5"]
    assert exported["format"] == "linebyline-progress" and exported["version"] == 2
    assert lesson["status"] == "done" and lesson["passedCode"] == solution(course, "7.5")
    assert lesson["checks"] == {"passed": len(course.lesson("7.5").exercise.check_names),
                                "total": len(course.lesson("7.5").exercise.check_names)}
    assert lesson["draftDevice"].startswith("cli-")


def test_a_browser_export_imports_and_what_was_here_stays(tmp_path, course):
    write(tmp_path, "backward.py", solution(course, "7.5"))
    assert run_cli("check", "7.5", str(tmp_path / "backward.py")).returncode == 0
    browser = {"format": "linebyline-progress", "version": 1, "course": "microgpt",
               "lessons": {"7.4": {"status": "done", "draft": "x = 1\n", "hintsShown": 2}}}
    write(tmp_path, "export.json", json.dumps(browser))
    imported = run_cli("progress", "--import", str(tmp_path / "export.json"))
    assert imported.returncode == 0 and "Imported 1 lesson from" in imported.stdout
    summary = run_cli("progress").stdout
    assert "2 of" in summary and "7.4✓ 7.5✓" in summary
    refused = run_cli("progress", "--import", str(write(tmp_path, "bad.json", "{}")))
    assert refused.returncode == 2 and "is not linebyline progress" in refused.stderr


def test_hints_are_counted_and_the_last_one_opens_the_fixes(tmp_path, course):
    lesson = course.lesson("7.5")
    wrong = mistake(course, "7.5", lesson.exercise.mistakes[0].name)
    work = write(tmp_path, "backward.py", wrong)
    first = run_cli("check", "7.5", str(work))
    assert "What to write:" not in first.stdout
    count = len(lesson.exercise.hints)
    for number in range(1, count + 1):
        shown = run_cli("hint", "7.5")
        assert shown.returncode == 0 and f"Hint {number} of {count}" in shown.stdout
    assert "That is the last hint" in shown.stdout
    assert LocalProgress("microgpt").lesson("7.5")["hintsShown"] == count
    again = run_cli("check", "7.5", str(work))
    assert "What to write:" in again.stdout


def test_a_checks_fix_shows_after_it_failed_three_times_in_a_row(tmp_path, course):
    lesson = course.lesson("7.5")
    work = write(tmp_path, "backward.py", mistake(course, "7.5", lesson.exercise.mistakes[0].name))
    runs = [run_cli("check", "7.5", str(work)).stdout for _ in range(3)]
    assert ["What to write:" in run for run in runs] == [False, False, True]


def test_failing_code_is_never_assembled_as_yours(tmp_path, course):
    """A pass, then a failing edit: `assemble` uses the code that passed, not the draft."""
    work = write(tmp_path, "loss.py", solution(course, "2.3"))
    assert run_cli("check", "2.3", str(work)).returncode == 0
    work.write_text(mistake(course, "2.3", "the sum instead of the mean"))
    assert run_cli("check", "2.3", str(work)).returncode == 1
    assembled = run_cli("assemble", "train0", "--out", "-")
    assert assembled.returncode == 0, assembled.stderr
    assert "loss = (1 / n) * sum(losses)" in assembled.stdout
    assert "    loss = sum(losses)\n" not in assembled.stdout


def test_a_file_that_says_done_without_passing_code_is_checked_again(tmp_path, course):
    """What an account kept before: 2.3 done, and the failing file as its draft."""
    failing = mistake(course, "2.3", "the sum instead of the mean")
    progress = write(tmp_path, "progress.json", json.dumps({
        "format": "linebyline-progress", "version": 2, "course": "microgpt",
        "lessons": {"2.3": {"status": "done", "draft": failing}}}))
    assembled = run_cli("assemble", "train0", "--progress", str(progress), "--out", "-")
    assert assembled.returncode == 0, assembled.stderr
    assert "    loss = sum(losses)\n" not in assembled.stdout
    assert re.search(r"2\.3 Loss as surprise \(−log p\): done, but the code saved with it does "
                     r"not pass its checks now \(\d of \d pass\), so the reference is used",
                     assembled.stderr), assembled.stderr


@pytest.mark.slow
def test_train_mine_exits_1_when_the_learners_run_parts_from_the_reference(tmp_path, course):
    parting = mistake(course, "2.3", "the sum instead of the mean")
    progress = write(tmp_path, "progress.json", json.dumps({
        "format": "linebyline-progress", "version": 2, "course": "microgpt",
        "lessons": {"2.3": {"status": "done", "draft": parting, "passedCode": parting,
                            "passedAt": 1}}}))
    done = run_cli("train", "--mine", "--progress", str(progress), "--script", "train0",
                   "--steps", "3", timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    same = run_cli("train", "--mine", "--script", "train0", "--steps", "3", timeout=300)
    assert same.returncode == 0, same.stdout + same.stderr  # nothing of mine: the reference


def test_quiz_judges_as_the_browser_and_keeps_the_answers(course):
    lesson = course.lesson("2.3")
    local = LocalProgress("microgpt")
    with local.changing_notes() as notes:
        notes["device"] = "cli-0123456789ab"
    computed = compute_lesson(lesson).answers  # the lesson's own numbers, as the browser gets them
    answers = []
    for index, question in enumerate(lesson.quiz):
        if question.kind == "predict":
            answers += [f"{computed[index]:.6f}"]
        else:
            order = seeded_order(len(question.choices), f"cli-0123456789ab:2.3-q{index + 1}")
            right = next(k for k, i in enumerate(order) if question.choices[i].correct)
            answers += ["abcdefgh"[right]]
    done = subprocess.run([sys.executable, "-m", "linebyline", "quiz", "2.3"],
                          input="\n".join(answers) + "\n", capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"{len(lesson.quiz)} of {len(lesson.quiz)} right the first time." in done.stdout
    kept = LocalProgress("microgpt").lesson("2.3")["quiz"]
    assert all(answer["correct"] for answer in kept.values()) and len(kept) == len(lesson.quiz)


def test_the_quiz_orders_choices_as_the_browser_does(tmp_path):
    bundle = tmp_path / "quiz.mjs"
    subprocess.run([str(ROOT / "frontend" / "node_modules" / ".bin" / "esbuild"), "src/quiz.ts",
                    "--bundle", "--format=esm", f"--outfile={bundle}", "--log-level=warning"],
                   cwd=ROOT / "frontend", check=True)
    seeds = ["account-7:2.3-q3", "b-abcdefghijkl:7.4-q1", "cli-0123456789ab:review2-q4", ""]
    script = (f"import {{ seededOrder }} from {json.dumps(bundle.as_uri())};\n"
              f"console.log(JSON.stringify({json.dumps(seeds)}.map((s) => "
              "[3, 4, 5].map((n) => seededOrder(n, s)))));")
    node = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True,
                          text=True, check=True)
    assert json.loads(node.stdout) == [[seeded_order(n, s) for n in (3, 4, 5)] for s in seeds]


def test_solution_asks_first_and_says_so_without_a_terminal(course):
    refused = run_cli("solution", "7.5")
    assert refused.returncode == 2 and "add --yes" in refused.stderr
    shown = run_cli("solution", "7.5", "--yes")
    assert shown.returncode == 0 and shown.stdout.rstrip("\n") == solution(course, "7.5").rstrip("\n")
    assert "The solution of lesson 7.5" in shown.stderr  # `--yes > file` leaves a Python file


def test_show_prints_the_lesson(course):
    shown = run_cli("show", "2.3")
    assert shown.returncode == 0
    assert course.lesson("2.3").lead.split(".")[0] in shown.stdout
    assert "| pair | p | −log p |" in shown.stdout  # the Watch text's tables, as written
    assert "linebyline watch 2.3" in shown.stdout


def test_run_runs_the_file_beside_its_input(tmp_path, course):
    assert run_cli("start", "1.1", cwd=tmp_path).returncode == 0
    done = run_cli("run", "1.1", cwd=tmp_path)
    assert done.returncode == 0 and "step 1000 / 1000" in done.stdout, done.stderr
    folder = tmp_path / "microgpt" / f"1.1-{course.lesson('1.1').slug}"
    write(folder, course.lesson("1.1").exercise.filename,
          "print(open('input.txt').readline().strip())\nraise SystemExit(3)\n")
    done = run_cli("run", "1.1", cwd=tmp_path)
    assert done.returncode == 3 and done.stdout.strip() == "james"  # the bundled names


def test_check_reads_any_file_it_is_given(tmp_path):
    empty = run_cli("check", "2.3", "/dev/null")
    assert empty.returncode == 1 and "no such file" not in empty.stderr
    folder = run_cli("check", "2.3", str(tmp_path))
    assert folder.returncode == 2 and "is a folder" in folder.stderr


def test_a_full_disk_is_one_line_not_a_traceback():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "linebyline", "lessons"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == ("linebyline lessons: could not write its output (No space "
                                   "left on device)")


def test_ctrl_c_at_any_moment_of_starting_is_not_a_traceback():
    """A Ctrl-C while linebyline loads (its first few tenths of a second) ends it quietly. One
    that lands while Python itself starts (`site`, runpy finding the package), before any code
    of ours runs, is Python's to report: not counted."""
    ours = 0
    for delay in (0.05, 0.08, 0.12, 0.15, 0.2, 0.3, 0.4):
        process = subprocess.Popen([sys.executable, "-m", "linebyline", "lessons"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
        if "Traceback" in stderr and "/linebyline/" not in stderr:
            continue  # Python's own start-up
        ours += 1
        assert "Traceback" not in stderr, (delay, stderr)
        assert process.returncode in (0, 130, -signal.SIGINT), (delay, stderr)
    assert ours >= 3


def test_an_unreadable_progress_file_is_kept_aside_not_overwritten(tmp_path, course):
    data = Path(os.environ["LINEBYLINE_DATA_DIR"])
    data.mkdir(parents=True)
    (data / "progress-microgpt.json").write_text("{not json")
    work = write(tmp_path, "backward.py", solution(course, "7.5"))
    done = run_cli("check", "7.5", str(work))
    assert done.returncode == 0 and "could not be read" in done.stderr
    kept = list(data.glob("progress-microgpt.unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == "{not json"


def test_a_check_never_waits_on_a_server_that_does_not_answer(tmp_path, course):
    """Signed in to a server that takes the connection and never answers: the check is over at
    once, its result kept here, and `progress` says the account does not have it yet."""
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # connections wait in the backlog: never accepted, never answered
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        config = Path(os.environ["LINEBYLINE_CONFIG_DIR"])
        config.mkdir(parents=True)
        (config / "login.json").write_text(json.dumps({
            "url": url, "token": "lbl_x", "username": "ada", "device": "cli-0123456789ab"}))
        work = write(tmp_path, "backward.py", solution(course, "7.5"))
        started = time.monotonic()
        done = run_cli("check", "7.5", str(work))
        took = time.monotonic() - started
        assert took < 8, took  # a check takes a second or two here; the server's wait was 15 s
        assert done.returncode == 0 and "in the background" in done.stdout
        assert LocalProgress("microgpt").lesson("7.5")["status"] == "done"
        assert "not all of it is in the account yet" in run_cli("progress").stdout


def test_progress_into_a_pipe_is_lines_not_a_redrawn_bar():
    """A log of `train` (stderr a pipe) holds lines, never a bar's carriage returns."""
    done = run_cli("train", "--steps", "3", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "\r" not in done.stdout
    assert "microgpt.py: 3/3 steps" in done.stderr.splitlines()
    assert "step    3 / 3 | loss" in done.stdout


def test_a_syntax_error_shows_the_line_and_a_caret_where_python_stopped(tmp_path, course):
    text = solution(course, "7.5").replace("    def backward(self):", "    def backward(self)", 1)
    (tmp_path / "mine.py").write_text(text)
    done = run_cli("check", "7.5", str(tmp_path / "mine.py"))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    at = lines.index("      def backward(self)")
    assert lines[at + 1] == " " * 24 + "^" and lines[at + 2] == "  SyntaxError: expected ':'"
    assert "syntax error on line" in done.stdout  # the check's own message stays
    # A file Python reads is never given this part.
    (tmp_path / "mine.py").write_text(solution(course, "7.5").replace("self.grad = 1", "pass", 1))
    assert "Where Python could not read" not in run_cli("check", "7.5", str(tmp_path / "mine.py")).stdout
