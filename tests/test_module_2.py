"""Module 2, counting bigrams (lessons 2.1-2.5): the exercises, the known mistakes, the widgets'
computed data checked against train0.py itself, and the data checks of the three widget kinds.
"""
from __future__ import annotations

import contextlib
import io
import math
import random
import re
import shutil
from functools import cache
from pathlib import Path

import pytest

from linebyline.authoring.computed import compute_lesson
from linebyline.course import apply_edits, default_course_path
from linebyline.course.dataset import names_file
from linebyline.course.widgets import bigram_table, name_surprise, sample_steps
from linebyline.mine.scripts import run_script
from linebyline.runtime import run_checks
from linebyline.runtime.program import run_program

from .conftest import the_course

NUMBERS = ["2.1", "2.2", "2.3", "2.4", "2.5"]
TITLES = {
    "2.1": "The 27×27 table",
    "2.2": "Counts to probabilities",
    "2.3": "Loss as surprise (−log p)",
    "2.4": "Sampling until BOS",
    "2.5": "What one letter of memory can and cannot do",
}
UNLOCKS = {"2.1": (), "2.2": (), "2.3": ((152, 152), (157, 157), (160, 160), (162, 163), (166, 166)),
           "2.4": ((179, 179), (181, 182), (184, 185), (188, 190)), "2.5": ()}
KINDS = {"2.1": "bigram-table", "2.2": "bigram-table", "2.3": "name-surprise",
         "2.4": "sample-steps", "2.5": "name-surprise"}


@pytest.fixture(autouse=True)
def in_learner_folder(tmp_path, monkeypatch):
    """The learner's files read the names as input.txt from their working folder."""
    shutil.copyfile(names_file(), tmp_path / "input.txt")
    monkeypatch.chdir(tmp_path)


@cache
def course():
    return the_course()


def lesson(number):
    found = course().lesson(number)
    assert found is not None, f"lesson {number} is not in the course"
    return found


def run(number, source):
    exercise = lesson(number).exercise
    return run_checks(source, exercise.checks_source, lesson=number, starter=exercise.starter,
                      filename=exercise.filename, checks_filename=str(exercise.checks_path),
                      reference=exercise.solution, library=exercise.library)


@cache
def table():
    """The names, shuffled as train0 shuffles them, and train0's table, computed here."""
    docs = [line.strip() for line in names_file().read_text(encoding="utf-8").splitlines()
            if line.strip()]
    random.seed(42)
    random.shuffle(docs)
    chars = sorted(set("".join(docs)))
    bos = len(chars)
    counts = [[1] * (bos + 1) for _ in range(bos + 1)]
    for doc in docs:
        ids = [bos] + [chars.index(ch) for ch in doc] + [bos]
        for a, b in zip(ids, ids[1:]):
            counts[a][b] += 1
    return docs, chars, counts


@cache
def train0_output():
    script = default_course_path() / "train0.py"
    return list(run_script(script, names_file()))


@pytest.mark.parametrize("number", NUMBERS)
def test_lesson_header(number):
    this = lesson(number)
    assert this.title == TITLES[number]
    assert this.module == 2 and this.script == "train0.py"
    assert this.unlocks == UNLOCKS[number]
    assert this.explore.kind == KINDS[number]
    assert "https://karpathy.github.io/2026/02/12/microgpt/" in this.watch
    words = len(this.watch.split())
    assert 300 <= words <= 700, f"{number}: the Watch has {words} words"


@pytest.mark.parametrize("number", NUMBERS)
def test_solution_passes_and_starter_is_not_attempted(number):
    exercise = lesson(number).exercise
    assert run(number, exercise.solution).status == "pass"
    assert run(number, exercise.starter).status == "not-attempted"
    edited = run_checks(exercise.starter, exercise.checks_source, lesson=number,
                        filename=exercise.filename, reference=exercise.solution,
                        library=exercise.library)
    assert edited.status == "fail"  # the starter runs: it is unfinished, not broken


MISTAKES = [(number, index) for number in NUMBERS
            for index in range(len(lesson(number).exercise.mistakes))]


@pytest.mark.parametrize("number, index", MISTAKES,
                         ids=[f"{n}-{lesson(n).exercise.mistakes[i].name}" for n, i in MISTAKES])
def test_mistake_gets_its_own_message(number, index):
    exercise = lesson(number).exercise
    mistake = exercise.mistakes[index]
    result = run(number, apply_edits(exercise.solution, mistake.edits))
    first = next(check for check in result.checks if check.status != "pass")
    # A mistake that stops the file (2.3's off-by-one) is an error, explained by its check.
    status = "error" if mistake.message.startswith("Running your code raised") else "fail"
    assert (first.name, first.status, first.message) == (mistake.check, status, mistake.message)
    assert first.fix == mistake.fix


def test_each_lesson_has_enough_known_mistakes():
    for number in NUMBERS:
        assert len(lesson(number).exercise.mistakes) >= 3, number
        assert 3 <= len(lesson(number).exercise.hints) <= 4, number


def printed_by(exercise, source):
    """What ``source`` prints when Run runs it, with the course library (give it no demo)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        outcome = run_program(source, exercise.filename, library=exercise.library)
    assert outcome.status == "ok", outcome
    return out.getvalue().splitlines()


def test_the_last_lesson_is_the_whole_of_train0():
    """2.5's file is train0.py, but for the lines that later lessons ask for again, which it
    calls from the course library: it prints exactly what train0.py prints."""
    exercise = lesson("2.5").exercise
    program, demo = exercise.solution.split('\n\nif __name__ == "__main__":')
    train0 = (default_course_path() / "train0.py").read_text(encoding="utf-8")
    assert program.startswith(train0.split("import math")[0])  # train0's own docstring
    assert "from given.train0 import" in program
    assert printed_by(exercise, program) == train0_output()
    assert "olivia" in demo


def test_the_table_widgets_show_train0s_table():
    docs, chars, counts = table()
    first = compute_lesson(lesson("2.1"))
    assert not first.problems, first.problems
    assert first.data["labels"] == chars + ["BOS"]
    assert first.data["counts"] == counts
    # The mistake: the same pairs counted from 0.
    assert first.data["mistake"]["counts"] == [[c - 1 for c in row] for row in counts]

    second = compute_lesson(lesson("2.2"))
    assert not second.problems, second.problems
    for a, row in enumerate(counts):
        for b, c in enumerate(row):
            assert second.data["probs"][a][b] == pytest.approx(c / sum(row), rel=1e-12)
    grand = sum(map(sum, counts))
    q = chars.index("q")
    assert sum(second.data["mistake"]["probs"][q]) == pytest.approx(sum(counts[q]) / grand)


def test_the_surprise_widgets_data():
    docs, chars, counts = table()
    for number in ("2.3", "2.5"):
        computed = compute_lesson(lesson(number))
        assert not computed.problems, computed.problems
        assert computed.data["counts"] == counts
        assert computed.data["block_size"] == 16
    references = {ref["label"]: ref["value"] for ref in computed.data["references"]}
    bos = len(chars)

    def loss(doc):
        ids = [bos] + [chars.index(ch) for ch in doc] + [bos]
        return sum(-math.log(counts[a][b] / sum(counts[a])) for a, b in zip(ids, ids[1:])) / (len(ids) - 1)

    assert references[f"the mean loss of all {len(docs):,} names of the data"] == pytest.approx(
        sum(map(loss, docs)) / len(docs))
    assert references["a table that knows nothing (every token 1/27)"] == pytest.approx(math.log(27))


def test_the_sampling_widget_replays_the_names_train0_prints():
    computed = compute_lesson(lesson("2.4"))
    assert not computed.problems, computed.problems
    labels = computed.data["labels"]
    names = ["".join(labels[step["to"]] for step in steps if labels[step["to"]] != "BOS")
             for steps in computed.data["samples"]]
    printed = [line.split(": ", 1)[1] if ": " in line else "" for line in train0_output()
               if line.startswith("sample ")]
    assert names == printed and len(names) == 20
    assert [labels[step["to"]] for step in computed.data["greedy"]] == ["a", "BOS"]


def test_the_loss_lesson_prints_train0s_losses():
    """What the learner's 2.3 file prints, step by step, is what train0.py prints."""
    steps = [line for line in train0_output() if line.startswith("step ")]
    exercise = lesson("2.3").exercise
    program = exercise.solution.split('\n\nif __name__ == "__main__":')[0]
    assert [line for line in printed_by(exercise, program) if line.startswith("step ")] == steps


def test_bigram_table_data_is_checked():
    good = {"labels": ["a", "BOS"], "counts": [[1, 2], [3, 1]], "probs": [[1 / 3, 2 / 3], [0.75, 0.25]]}
    assert bigram_table.check_data(good) is None
    assert "sums to" in bigram_table.check_data({**good, "probs": [[0.5, 0.6], [0.75, 0.25]]})
    assert "whole number" in bigram_table.check_data({**good, "counts": [[1.5, 2], [3, 1]]})
    assert "unknown keys" in bigram_table.check_data({**good, "extra": 1})
    assert "mistake" in bigram_table.check_data({**good, "mistake": {"other": []}})
    # start_count: what every cell started at, a whole number no count of its table is below.
    from_zero = {"counts": [[0, 1], [2, 0]]}
    assert bigram_table.check_data({**good, "start_count": 1, "mistake": from_zero}) is None
    assert "below its start_count" in bigram_table.check_data({**good, "start_count": 2})
    assert "whole number" in bigram_table.check_data({**good, "start_count": 0.5})
    assert "whole number" in bigram_table.check_data({**good, "start_count": True})
    assert "mistake.counts` holds 0" in bigram_table.check_data(
        {**good, "mistake": {**from_zero, "start_count": 1}})
    assert "needs `mistake.counts`" in bigram_table.check_data(
        {**good, "mistake": {"probs": good["probs"], "start_count": 1}})
    assert "mistake" in bigram_table.check_data({**good, "mistake": {"start_count": 0}})


def test_name_surprise_data_is_checked():
    good = {"labels": ["a", "BOS"], "counts": [[1, 2], [3, 1]], "probs": [[1 / 3, 2 / 3], [0.75, 0.25]],
            "block_size": 16}
    assert name_surprise.check_data(good) is None
    assert "above 0" in name_surprise.check_data({**good, "probs": [[0, 1], [0.75, 0.25]]})
    assert "block_size" in name_surprise.check_data({**good, "block_size": 0})
    assert "reference" in name_surprise.check_data({**good, "references": [{"label": "x"}]})


def test_sample_steps_data_is_checked():
    probs = [[0.5, 0.5], [0.25, 0.75]]
    good = {"labels": ["a", "BOS"], "probs": probs,
            "samples": [[{"from": 1, "u": 0.1, "to": 0}, {"from": 0, "u": 0.9, "to": 1}]],
            "greedy": [{"from": 1, "to": 1}]}
    assert sample_steps.check_data(good) is None
    wrong_land = {**good, "samples": [[{"from": 1, "u": 0.5, "to": 0}, {"from": 0, "u": 0.9, "to": 1}]]}
    assert "does not land" in sample_steps.check_data(wrong_land)
    wrong_row = {**good, "samples": [[{"from": 0, "u": 0.9, "to": 1}]]}
    assert "row of the token before" in sample_steps.check_data(wrong_row)
    assert "likeliest" in sample_steps.check_data({**good, "greedy": [{"from": 1, "to": 0}]})


def learner_file(number, name):
    return (Path(__file__).parent / "lessons" / number / name).read_text(encoding="utf-8")


def test_the_off_by_one_crash_is_explained_by_n():
    """n = len(tokens) reads tokens[n]: the error comes with what n is, should be, and why."""
    result = run("2.3", learner_file("2.3", "crash.py"))
    first = result.checks[0]
    assert result.status == "error" and first.name == "n is the number of pairs in the name"
    assert first.message.startswith("Running your code raised IndexError")
    docs, _, _ = table()
    assert f"at its first name, {docs[0]!r}" in first.message
    assert (f"n should be {len(docs[0]) + 1}, but it is {len(docs[0]) + 2}" in first.message)
    assert first.fix and "len(tokens) - 1" in first.fix
    assert "IndexError" in result.traceback  # the Output panel shows where it happened
    assert all(check.message.startswith("Not run") for check in result.checks[1:])


def test_a_sampler_that_continues_on_bos_is_told_the_truth():
    """The sample the message quotes has the number of letters the message says."""
    result = run("2.4", learner_file("2.4", "wrong_continue.py"))
    first = next(check for check in result.checks if check.status != "pass")
    found = re.search(r"Sample (\d+) is '([a-z]*)', (\d+) letters, but train0 ends it at '([a-z]*)'",
                      first.message)
    assert found, first.message
    index, name, letters, right = int(found[1]), found[2], int(found[3]), found[4]
    assert len(name) == letters and name.startswith(right) and len(right) < letters
    printed = [line.split(": ", 1)[1] for line in train0_output() if line.startswith("sample ")]
    assert printed[index - 1] == right  # train0's own sample, stopped at BOS


def test_the_lessons_quote_the_data():
    """Numbers the prose quotes are the data's: raw counts of the names where it says so."""
    docs, chars, counts = table()
    q, u = chars.index("q"), chars.index("u")
    facts = compute_lesson(lesson("2.2")).facts
    assert (facts["qu_raw"], facts["q_pairs"]) == (counts[q][u] - 1, sum(counts[q]) - len(counts))
    raw = sum(1 for doc in docs for a, b in zip(doc, doc[1:]) if (a, b) == ("q", "u"))
    assert facts["qu_raw"] == raw
    facts = compute_lesson(lesson("2.3")).facts
    assert facts["longest"] == max(map(len, docs))
