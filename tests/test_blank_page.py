"""The last recall: microgpt.py from a blank page (linebyline.mine.blank), judged by its first
training steps against the course's kept ones, in words that name the step, the numbers and the
lines of microgpt.py to reread; from a terminal with `linebyline start/check microgpt`."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from linebyline.course.dataset import names_file
from linebyline.mine.blank import (
    KEPT,
    Watched,
    judge,
    judge_json,
    lessons_teaching,
    regions,
    watch,
)

from .conftest import run_cli, the_course

COURSE = the_course()
PROGRAM = (COURSE.path / COURSE.program_name).read_text(encoding="utf-8")
REFERENCE = Watched.from_json((COURSE.path / KEPT).read_text(encoding="utf-8"))
NAME = COURSE.program_name
TEACHES = lessons_teaching({lesson.number: list(lesson.unlocks) for lesson in COURSE.lessons()})
SHORT = 3  # steps a mistake needs to show; the kept run's first ones are compared


def changed(old: str, new: str) -> str:
    assert PROGRAM.count(old) == 1, old
    return PROGRAM.replace(old, new)


@pytest.fixture
def in_names_folder(tmp_path: Path, monkeypatch) -> Path:
    """A folder whose input.txt is the names the kept run was trained on (the bundled ones)."""
    (tmp_path / "input.txt").write_bytes(names_file().read_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def judged(source: str):
    mine = watch(source, NAME, SHORT, reference=REFERENCE.losses)
    return judge(mine, REFERENCE, regions(PROGRAM), NAME, TEACHES, steps=SHORT)


def test_the_kept_first_steps_are_todays_program(in_names_folder):
    again = watch(PROGRAM, NAME, SHORT)
    assert again.header == REFERENCE.header == ["documents: 32000", "vocab size: 27",
                                                "parameters: 4192"]
    assert again.losses == REFERENCE.losses[:SHORT] and again.weights == REFERENCE.weights[:SHORT]
    assert again.drawn == REFERENCE.drawn and again.drawn_after == "parameters"
    kept_run = json.loads((COURSE.path / "runs" / "microgpt.json").read_text(encoding="utf-8"))
    assert REFERENCE.losses == kept_run["losses"][:len(REFERENCE.losses)]
    assert len(REFERENCE.losses) == 30 and not REFERENCE.error


def test_the_regions_are_the_programs_own_lines():
    parts = regions(PROGRAM)
    lines = PROGRAM.splitlines()
    forward = "\n".join(lines[parts.forward[0] - 1:parts.forward[1]])
    update = "\n".join(lines[parts.update[0] - 1:parts.update[1]])
    assert "gpt(" in forward and "loss =" in forward and "backward" not in forward
    assert update.lstrip().startswith("loss.backward()") and "p.data -=" in update
    assert "print" in lines[parts.step_line - 1] and "step" in lines[parts.step_line - 1]
    assert set(parts.printing) == {"documents", "vocab size", "parameters"}


def test_the_program_itself_passes(in_names_folder):
    verdict = judged(PROGRAM)
    assert verdict.passed and "to the last digit" in verdict.text and verdict.step == 0


def test_an_update_that_differs_is_found_after_the_step_that_matched(in_names_folder):
    verdict = judged(changed("m[i] = beta1 * m[i] + (1 - beta1) * p.grad",
                             "m[i] = beta1 * m[i] + (1 - beta1) * p.grad * 1.01"))
    assert not verdict.passed and verdict.step == 2
    assert verdict.lines == regions(PROGRAM).update
    assert "Step 1 gives the same loss, but the weights after step 1" in verdict.text
    assert "the reference's 3.26153" in verdict.text and "(lessons" in verdict.text


def test_a_forward_pass_that_differs_shows_at_step_1(in_names_folder):
    verdict = judged(changed("(mean_square + 1e-5)", "(mean_square + 1e-4)"))
    assert not verdict.passed and verdict.step == 1 and verdict.lines == regions(PROGRAM).forward
    assert f"Your weights as drawn are {NAME}'s, so step 1's forward pass" in verdict.text


def test_weights_drawn_otherwise_are_told_before_the_forward_pass(in_names_folder):
    verdict = judged(changed("random.seed(42)", "random.seed(7)"))
    assert not verdict.passed and verdict.step == 1
    assert "not microgpt.py's even before training starts" in verdict.text
    start, end = verdict.lines
    assert end == regions(PROGRAM).printing["parameters"] and start > 1


def test_a_line_printed_before_training_is_compared_first(in_names_folder):
    verdict = judged(changed("vocab_size = len(chars) + 1", "vocab_size = len(chars) + 2"))
    assert not verdict.passed and verdict.step == 0
    assert "`vocab size: 28`, where microgpt.py prints `vocab size: 27`" in verdict.text
    assert verdict.lines == (regions(PROGRAM).printing["vocab size"],) * 2


def test_an_error_shows_the_learners_own_lines(in_names_folder):
    verdict = judged(changed("    loss.backward()", "    loss.backwards()"))
    assert not verdict.passed
    assert "stopped with an error before printing a training step" in verdict.text
    assert "loss.backwards()" in verdict.text and "AttributeError" in verdict.text


def test_too_few_steps_and_an_empty_file_say_what_is_compared(in_names_folder):
    few = judged(changed("for step in range(num_steps):", "for step in range(2):")
                 .replace("for sample in range(20):", "for sample in range(1):"))
    assert not few.passed and "printed only 2 training steps; the first 3 are compared" in few.text
    empty = judged("\n  \n")
    assert not empty.passed and empty.text.startswith("Your file is empty.")


def test_a_later_step_parts_by_its_forward_pass_when_the_weights_still_agree():
    steps = 5
    weights = [[0.1 * k, 0.2] for k in range(steps)]
    reference = Watched(losses=[3.0 + k for k in range(steps)], weights=weights)
    mine = Watched(losses=[3.0, 4.0, 5.5, 6.0, 7.0], weights=weights)
    verdict = judge(mine, reference, regions(PROGRAM), NAME, TEACHES, steps=steps)
    assert verdict.step == 3 and verdict.lines == regions(PROGRAM).forward
    assert "weights going into step 3 are still microgpt.py's" in verdict.text


def test_the_browsers_way_in_says_the_same_in_json(in_names_folder):
    unlocks = json.dumps({lesson.number: lesson.unlocks for lesson in COURSE.lessons()})
    parts = regions(PROGRAM)
    assert type(parts).from_dict(json.loads(json.dumps(parts.to_dict()))) == parts
    source = changed("(mean_square + 1e-5)", "(mean_square + 1e-4)")
    said = json.loads(judge_json(source, NAME, REFERENCE.to_json(), json.dumps(parts.to_dict()),
                                 unlocks, steps=SHORT))
    assert said == {"passed": False, "step": 1, "lines": list(parts.forward),
                    "text": judged(source).text}


def test_rounding_is_not_a_difference_but_a_later_step_that_parts_is():
    steps = 3
    reference = Watched(losses=[3.0, 2.5, 2.0], weights=[[0.5], [0.4], [0.3]])
    rounded = Watched(losses=[3.0 + 4e-16, 2.5, 2.0], weights=[[0.5 + 1e-16], [0.4], [0.3]])
    assert judge(rounded, reference, regions(PROGRAM), NAME, TEACHES, steps=steps).passed
    assert "differ only by rounding" in judge(rounded, reference, regions(PROGRAM), NAME,
                                              TEACHES, steps=steps).text
    later = Watched(losses=[3.0 + 4e-16, 2.5001, 2.0], weights=[[0.51], [0.4], [0.3]])
    verdict = judge(later, reference, regions(PROGRAM), NAME, TEACHES, steps=steps)
    assert not verdict.passed and verdict.step == 2 and verdict.lines == regions(PROGRAM).update


def test_lessons_teaching_names_the_lessons_of_a_range():
    teaches = lessons_teaching({"1.1": [(1, 5)], "2.1": [(6, 9)], "3.1": [(10, 12)],
                                "10.2": [(13, 14)]})
    assert teaches(2, 3) == "lesson 1.1"
    assert teaches(5, 7) == "lessons 1.1 and 2.1"
    assert teaches(1, 12) == "lessons 1.1, 2.1 and 3.1"
    assert teaches(1, 14) == "lessons 1.1 to 10.2"
    assert teaches(20, 30) == ""


def test_the_terminal_starts_an_empty_file_and_checks_it(tmp_path: Path):
    work = tmp_path / "work"
    work.mkdir()
    started = run_cli("start", "microgpt", cwd=work)
    assert started.returncode == 0, started.stderr
    mine = work / "microgpt" / "microgpt" / NAME
    assert mine.read_text() == "" and (mine.parent / "input.txt").is_file()
    again = run_cli("start", "microgpt", cwd=work)
    assert again.returncode == 2 and "already exists" in again.stderr
    empty = run_cli("check", "microgpt", "--json", cwd=work)
    assert empty.returncode == 1 and json.loads(empty.stdout)["status"] == "fail"
    mine.write_text(changed("m[i] = beta1 * m[i] + (1 - beta1) * p.grad",
                            "m[i] = beta1 * m[i] + (1 - beta1) * p.grad * 1.01"))
    parted = run_cli("check", "microgpt", "--json", cwd=work, timeout=300)
    verdict = json.loads(parted.stdout)
    assert parted.returncode == 1 and verdict["step"] == 2, parted.stderr
    assert "2/30" in parted.stderr and "3/30" not in parted.stderr  # it stopped where it parted
    assert verdict["lines"] == list(regions(PROGRAM).update)
    mine.write_text(PROGRAM)
    passed = run_cli("check", "microgpt", str(mine), cwd=tmp_path, timeout=300)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.startswith("✓ Your program runs, and its first 30 losses")


def test_checking_a_missing_file_is_a_usage_error(tmp_path: Path):
    done = run_cli("check", "microgpt", cwd=tmp_path)
    assert done.returncode == 2 and "no such file" in done.stderr
    assert "`linebyline start microgpt`" in done.stderr
    assert not os.listdir(tmp_path)
