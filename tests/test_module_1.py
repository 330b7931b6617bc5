"""Module 1, Names in, names out (lessons 1.1-1.6): what is worth pinning beyond the lint.

The lint already proves each exercise both ways and every known mistake's message. Here: the
lessons' shape (titles, files, unlocked lines), that the 1.1 file really is train0.py under
microgpt's docstring, the data the widgets are given (computed by each lesson's own code), the
widget kinds' validation, and diagnoses whose logic is clever enough to deserve their own test.
"""
from __future__ import annotations

import io
import random
import shutil
from contextlib import redirect_stdout
from functools import cache

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits, default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.fields import Fields
from linebyline.course.widgets import KINDS
from linebyline.course.yamlfile import Mapping
from linebyline.mine.scripts import run_script
from linebyline.runtime import run_checks
from linebyline.runtime.program import run_program

from .conftest import the_course

LESSONS = {
    "1.1": ("The demo", "the-demo", "train0.py", ((1, 1), (3, 7), (191, 191)), "train-run"),
    "1.2": ("Imports and the seed", "imports-and-the-seed", "seed.py", ((8, 9), (11, 11)),
            "program-runs"),
    "1.3": ("Documents and shuffling", "documents-and-shuffling", "documents.py", ((13, 16),),
            "program-runs"),
    "1.4": ("Characters become ids", "characters-become-ids", "chars.py", ((18, 19),),
            "program-runs"),
    "1.5": ("BOS and vocab_size", "bos-and-vocab-size", "vocab.py", ((20, 22),), "token-strip"),
    "1.6": ("Encoding a name", "encoding-a-name", "encode.py", ((159, 159),), "token-strip"),
}


@cache
def course():
    return the_course()


def lesson(number):
    found = course().lesson(number)
    assert found is not None, f"lesson {number} is not published"
    return found


@cache
def names():
    with open(names_file(), encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


@pytest.fixture
def in_learner_folder(tmp_path, monkeypatch):
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)


def run(number, source):
    exercise = lesson(number).exercise
    return run_checks(source, exercise.checks_source, lesson=number, filename=exercise.filename,
                      reference=exercise.solution, library=exercise.library)


@pytest.mark.parametrize("number", LESSONS)
def test_lesson_shape(number):
    title, slug, filename, unlocks, kind = LESSONS[number]
    this = lesson(number)
    assert (this.title, this.slug, this.module, this.script) == (title, slug, 1, "train0.py")
    assert this.exercise.filename == filename
    assert this.unlocks == unlocks
    assert this.explore.kind == kind
    assert "https://karpathy.github.io/2026/02/12/microgpt/" in this.watch
    assert 300 <= len(this.watch.split()) <= 700
    assert 3 <= len(this.exercise.hints) <= 4
    assert len(this.exercise.mistakes) >= 3
    assert 3 <= len(this.quiz) <= 5
    assert any(question.kind == "predict" for question in this.quiz)
    for question in this.quiz:
        if question.kind == "choice":
            assert sum(choice.correct for choice in question.choices) == 1
            assert all(choice.explain for choice in question.choices)


@pytest.mark.parametrize("number", LESSONS)
def test_codealong_turns_the_starter_into_the_solution(number):
    exercise = lesson(number).exercise
    text = exercise.starter
    for chapter in exercise.codealong:
        assert text.count(chapter.find) == 1
        text = text.replace(chapter.find, chapter.type, 1)
    assert text == exercise.solution


@pytest.mark.parametrize("number", LESSONS)
def test_every_mistake_has_its_own_message_from_its_check(number, in_learner_folder):
    exercise = lesson(number).exercise
    messages = [mistake.message for mistake in exercise.mistakes]
    assert len(set(messages)) == len(messages)
    for mistake in exercise.mistakes:
        result = run(number, apply_edits(exercise.solution, mistake.edits))
        first = next(check for check in result.checks if check.status != "pass")
        assert (first.name, first.status, first.message) == (mistake.check, "fail", mistake.message)
        assert first.fix == mistake.fix


def test_the_demo_file_is_train0_under_microgpts_docstring(in_learner_folder):
    """1.1's file is microgpt's docstring over train0.py in outline: its parts come from the
    course library (later lessons have the learner write them), and it prints what train0.py
    prints, once its last line, the one the learner writes, is in."""
    path = default_course_path()
    program = (path / "microgpt.py").read_text(encoding="utf-8").split("\n")
    exercise = lesson("1.1").exercise
    solution = exercise.solution
    assert solution.startswith("\n".join(program[:7]) + "\n# What follows is train0.py")
    assert "from given.train0 import" in solution
    starter = exercise.starter
    last = program[190]  # line 191, the print of each name: the one line the learner writes
    assert solution.endswith(last + "\n") and last not in starter
    assert starter.split("    # TODO")[0] == solution[:solution.index(last)]
    train0 = (path / "train0.py").read_text(encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        outcome = run_program(solution, exercise.filename, library=exercise.library)
    assert outcome.status == "ok"
    assert out.getvalue().splitlines() == list(run_script(path / "train0.py", names_file()))
    assert last in train0.split("\n")


def test_demo_checks_work_out_train0s_names_on_their_own(in_learner_folder):
    """The names the checks expect are the ones train0.py itself prints."""
    source = (default_course_path() / "train0.py").read_text(encoding="utf-8")
    result = run("1.1", source)
    assert result.status == "pass", result.checks
    printed = [line.split(": ", 1)[1] for line in result.stdout.split("\n") if line.startswith("sample")]
    assert len(printed) == 20
    said = {check.name: check.message for check in result.checks}
    assert said["the 20 names train0 invents"] == (
        f"The 20 invented names, from {printed[0]!r} to {printed[-1]!r}.")


def test_another_names_file_says_input_txt_was_right_only_when_it_was(in_learner_folder):
    """The raw list printed is wrong on input.txt too: the last check must not call it right."""
    solution = lesson("1.1").exercise.solution
    line = "    print(f\"sample {sample + 1:2d}: {''.join(name)}\")\n"
    assert line in solution
    said = {c.name: c.message for c in run("1.1", solution.replace(line, "    print(name)\n")).checks}
    other = said["the names of another names file"]
    assert "your names were right" not in other and "one name per line, as the checks above say" in other


def test_the_seed_check_names_the_seed_that_was_used(in_learner_folder):
    solution = lesson("1.2").exercise.solution
    for seed in (0, 7, 123, 1000):
        result = run("1.2", solution.replace("random.seed(42)", f"random.seed({seed})"))
        assert f"the way random.seed({seed}) shuffles it" in result.checks[1].message
    beyond = run("1.2", solution.replace("random.seed(42)", "random.seed(4242)"))
    assert "in none of the orders that the seeds 0 to 1000 give" in beyond.checks[1].message


@pytest.mark.parametrize("bos", ["0", "-3", "None", "'<BOS>'"])
def test_a_bos_that_is_no_id_of_its_own_points_back_to_the_first_check(bos, in_learner_folder):
    # The second check builds on the first: with BOS = 0 it used to say "leaves the ids 26 to -1
    # unused" (and with None, crash on None - 1).
    solution = lesson("1.5").exercise.solution
    result = run("1.5", solution.replace("BOS = len(chars)", f"BOS = {bos}"))
    first, second = result.checks[:2]
    assert first.status == "fail"
    assert second.status == "fail" and "fix the check above first" in second.message
    assert "unused" not in second.message


def test_seed_runs_repeat_and_unseeded_runs_do_not():
    variants = {v["label"]: v for v in compute_lesson(lesson("1.2")).data["variants"]}
    assert set(variants) == {"random.seed(42)", "random.seed(7)", "no seed",
                             "the seed after the shuffle"}
    for label in ("random.seed(42)", "random.seed(7)"):
        runs = variants[label]["runs"]
        assert len(runs) == 3 and all(run == runs[0] for run in runs)
    assert variants["random.seed(42)"]["runs"][0] != variants["random.seed(7)"]["runs"][0]
    unseeded = [tuple(run["out"]) for run in variants["no seed"]["runs"]]
    assert len(set(unseeded)) > 1
    after = [run["out"] for run in variants["the seed after the shuffle"]["runs"]]
    assert len({out[0] for out in after}) > 1  # the shuffle changes from run to run ...
    assert len({tuple(out[1:]) for out in after}) == 1  # ... the draws after the seed do not
    generator = random.Random(42)  # and the seeded run prints what Python gives
    first = names()[:5]
    generator.shuffle(first)
    assert variants["random.seed(42)"]["runs"][0]["out"][:2] == [repr(first), repr(generator.random())]


def test_documents_widget_shows_the_classic_mistakes_on_the_real_file():
    variants = {v["label"]: v for v in compute_lesson(lesson("1.3")).data["variants"]}
    right = variants["strip, then shuffle"]["runs"][0]
    assert right["out"][0] == str(len(names())) and right["error"] is None
    assert "\\n'" in variants["no strip"]["runs"][0]["out"][1]
    crashed = variants["docs = random.shuffle(docs)"]["runs"][0]
    assert crashed["out"] == [] and crashed["error"].startswith("TypeError")
    assert variants["shuffle a copy"]["runs"][0]["out"][1] == repr(names()[:4])


def test_chars_widget_shows_a_set_order_that_changes_and_a_sorted_one_that_does_not():
    variants = {v["label"]: v for v in compute_lesson(lesson("1.4")).data["variants"]}
    chars = sorted(set("".join(names())))
    right = [run["out"] for run in variants["sorted(set(''.join(docs)))"]["runs"]]
    assert right == [[f"how many: {len(chars)}", f"the first ten: {chars[:10]!r}",
                      f"id of 'e': {chars.index('e')}"]] * 3
    unsorted = [tuple(run["out"]) for run in variants["no sorted: list(set(...))"]["runs"]]
    assert len(set(unsorted)) == 3
    assert variants["no join: set(docs)"]["runs"][0]["error"].startswith("ValueError")


@pytest.mark.parametrize("number", ["1.5", "1.6"])
def test_token_strip_gets_the_real_vocabulary(number):
    chars = sorted(set("".join(names())))
    data = compute_lesson(lesson(number)).data
    assert data == {"chars": chars, "BOS": len(chars), "vocab_size": len(chars) + 1}


def fields(data: dict, errors: list) -> Fields:
    mapping = Mapping(data)
    mapping.line, mapping.lines = 1, {}
    return Fields("lesson.yaml", mapping, errors)


def test_widget_kinds_reject_bad_params():
    errors: list = []
    KINDS["token-strip"].validate(fields({"mistakes": ["bos-zero", "bos-typo"]}, errors))
    KINDS["token-strip"].validate(fields({"mistakes": ["ord"]}, errors))  # needs encode: true
    KINDS["token-strip"].validate(fields({"name": "emma"}, errors))
    KINDS["program-runs"].validate(fields({"caption": "ok", "colour": "red"}, errors))
    said = [error.message for error in errors]
    assert any("unknown mistake 'bos-typo'" in text for text in said)
    assert any("mistake 'ord'" in text and "encode: true" in text for text in said)
    assert any("`name`" in text for text in said)
    assert any("unknown key `colour`" in text for text in said)
    errors.clear()
    KINDS["token-strip"].validate(fields({"encode": True, "name": "emma", "mistakes": ["ord"]}, errors))
    assert errors == []


def test_widget_kinds_reject_bad_data():
    check_runs, check_strip = KINDS["program-runs"].check_data, KINDS["token-strip"].check_data
    run = {"out": ["1"], "error": None}
    good = {"label": "a", "code": "print(1)", "mistake": False, "note": "", "runs": [run]}
    assert check_runs({"variants": [good]}) is None
    assert "right version" in check_runs({"variants": [{**good, "mistake": True}]})
    assert "twice" in check_runs({"variants": [good, good]})
    assert "printed nothing" in check_runs({"variants": [{**good, "runs": [{"out": [], "error": None}]}]})
    assert "1 to 5 runs" in check_runs({"variants": [{**good, "runs": [run] * 6}]})
    assert check_strip({"chars": ["a", "b"], "BOS": 2, "vocab_size": 3}) is None
    assert "BOS" in check_strip({"chars": ["a", "b"], "BOS": 0, "vocab_size": 3})
    assert "sorted" in check_strip({"chars": ["b", "a"], "BOS": 2, "vocab_size": 3})
    assert "vocab_size" in check_strip({"chars": ["a", "b"], "BOS": 2, "vocab_size": 2})


def test_the_demo_quotes_raw_counts_of_the_names():
    """'After k, the next letter was a ... times': the names' own count, not the +1 table's."""
    from linebyline.course.prose import fill_facts

    def after_k(then):
        return sum(1 for name in names() for a, b in zip(name, name[1:] + "$")
                   if (a, b) == ("k", then))

    facts = compute_lesson(lesson("1.1")).facts
    assert (facts["k_then_a"], facts["k_then_e"], facts["k_then_end"]) == (
        after_k("a"), after_k("e"), after_k("$"))
    watch = fill_facts(lesson("1.1").watch, facts)
    assert f"`a` {after_k('a'):,} times" in watch
    assert "{{" not in watch
