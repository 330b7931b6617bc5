"""Assembling the learner's own scripts (linebyline.mine.assemble).

Every lesson's solution, as a learner's draft, must give back exactly the reference program in
every script that has its lines; every other correct spelling in tests/lessons/ must either be
placed and run like the reference, or be refused with a reason; and what is not done stays the
reference, marked, with its reason.
"""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from linebyline.authoring.lesson_standard import learner_lines
from linebyline.course import Course
from linebyline.course.levels import switch_blocks
from linebyline.mine.assemble import (
    NOT_KEPT,
    Assembler,
    PlainCourse,
    ProgressError,
    Unchecked,
    Work,
    plain_course,
    read_progress,
)
from linebyline.mine.scripts import parse_step, run_source
from linebyline.mine.terminal import run_recorded, verdict

from .learner_files import learner_files

STEPS = 2  # enough for every script to reach its training loop and its samples
SAMPLES = 3  # names each run samples: every weight and the sampling code show in the first few


@pytest.fixture(scope="module")
def assembler(course: Course) -> Assembler:
    return Assembler(course)


def code_of(text: str) -> str:
    """A program's code, without comments and layout: two texts with the same are one program."""
    return ast.dump(ast.parse(text))


def output(text: str, name: str, dataset: Path) -> list[str]:
    return list(run_source(text, name, dataset, STEPS, samples=SAMPLES))


@pytest.fixture(scope="module")
def reference_outputs(assembler: Assembler, names_file: Path) -> dict[str, list[str]]:
    return {name: output(assembler.script(name).text, name, names_file)
            for name in assembler.script_names}


def solution(course: Course, number: str) -> str:
    return course.lesson(number).exercise.solution


def test_the_scripts_and_the_lessons_they_hold(assembler: Assembler):
    assert assembler.script_names == ["train0.py", "train1.py", "train2.py", "train3.py",
                                      "train4.py", "train5.py", "microgpt.py"]
    assert "2.1" in assembler.lessons_in("train0.py")
    assert "2.1" not in assembler.lessons_in("train2.py")  # train2 has no table of counts
    for name in ("train2.py", "microgpt.py"):
        assert {"3.1", "7.4", "7.5"} <= set(assembler.lessons_in(name))
    assert "6.3" in assembler.lessons_in("train1.py")  # backprop by hand lives in train1 only
    assert "6.3" not in assembler.lessons_in("microgpt.py")


def test_every_lesson_placed_in_every_script_that_has_its_lines(assembler: Assembler,
                                                                course: Course):
    """Each lesson alone, with its solution as the draft: all its regions are yours, and the
    file is the reference program itself."""
    checked = 0
    for lesson in course.lessons():
        progress = {lesson.number: Work("done", lesson.exercise.solution)}
        for name in assembler.script_names:
            if lesson.number not in assembler.lessons_in(name):
                continue
            assembly = assembler.assemble(name, progress)
            mine = [r for r in assembly.regions if r.lesson == lesson.number]
            assert mine and all(r.origin == "yours" for r in mine), (lesson.number, name, mine)
            assert code_of(assembly.text) == code_of(assembler.script(name).text), \
                (lesson.number, name)
            checked += 1
    assert checked > 100


def test_every_solution_at_once_runs_exactly_like_the_reference(
        assembler: Assembler, course: Course, names_file: Path, reference_outputs):
    progress = {lesson.number: Work("done", lesson.exercise.solution) for lesson in course.lessons()}
    for name in assembler.script_names:
        assembly = assembler.assemble(name, progress)
        assert assembly.yours == len(assembly.regions), [
            (r.lesson, r.reason) for r in assembly.regions if r.origin != "yours"]
        assert output(assembly.text, assembly.filename, names_file) == reference_outputs[name]


CORRECT = [f for f in learner_files() if f.status == "pass"]
# Correct in their lesson, and placed, but their module script then prints something else:
# each differs by design, and says how (a learner's run of them is told so on My microgpt).
PRINTS_OTHERWISE = {
    "1.1/alt_loop_concat.py": "labels its names another way",
    "1.1/alt_numbered.py": "labels its names another way",
    "1.1/alt_plain_join.py": "labels its names another way",
    "1.1/alt_sep.py": "labels its names another way",
    "5.5/alt_fsum_sorted.py": "sums with math.fsum: the last digits of the gradient check differ",
    "5.6/alt_thousands.py": "prints the parameter count as 3,184",
    "6.1/alt_loop.py": "adds the losses one by one: the last digits of the gradient check differ",
    # `=` passes 4.4's checks, where each gradient is written once, but train1 adds to each over
    # the positions of a name: the gradients differ, and My microgpt shows where the runs part.
    "4.4/alt_assign.py": "assigns gradients that train1 must add up",
}


@pytest.mark.parametrize("learner", CORRECT, ids=[f.id for f in CORRECT])
def test_another_correct_spelling_runs_like_the_reference_or_is_refused_with_a_reason(
        learner, assembler: Assembler, names_file: Path, reference_outputs):
    """Placed where it fits: the lesson's own module script then runs and prints what the
    reference prints. Where it does not fit, the reference stays and the region says why."""
    progress = {learner.lesson: Work("done", learner.path.read_text(encoding="utf-8"))}
    placed_in = []
    for name in assembler.script_names:
        if learner.lesson not in assembler.lessons_in(name):
            continue
        assembly = assembler.assemble(name, progress)
        compile(assembly.text, assembly.filename, "exec")
        regions = [r for r in assembly.regions if r.lesson == learner.lesson]
        if all(r.origin == "yours" for r in regions):
            placed_in.append((name, assembly))
        else:
            assert all(r.origin == "reference" and r.reason.startswith(("your code", "in "))
                       for r in regions), regions
    home = learner.path.parent.name
    module_script = next(m.script for m in assembler.course.modules
                         if m.number == int(home.split(".")[0]))
    for name, assembly in placed_in:
        if name == module_script:
            printed = output(assembly.text, assembly.filename, names_file)
            assert len(printed) == len(reference_outputs[name]), name
            if learner.id in PRINTS_OTHERWISE:
                assert printed != reference_outputs[name], f"{learner.id} now prints the same"
            else:
                assert printed == reference_outputs[name], name


def test_most_other_correct_spellings_are_placed(assembler: Assembler):
    placed = refused = 0
    for learner in CORRECT:
        progress = {learner.lesson: Work("done", learner.path.read_text(encoding="utf-8"))}
        for name in assembler.script_names:
            if learner.lesson not in assembler.lessons_in(name):
                continue
            regions = [r for r in assembler.assemble(name, progress).regions
                       if r.lesson == learner.lesson]
            if all(r.origin == "yours" for r in regions):
                placed += 1
            else:
                refused += 1
    assert placed > 4 * refused, (placed, refused)


def test_a_lesson_not_done_keeps_the_reference_and_says_why(assembler: Assembler, course: Course):
    progress = {"7.4": Work("in-progress", solution(course, "7.4")),
                "7.5": Work("done", solution(course, "7.5"))}
    assembly = assembler.assemble("train2.py", progress)
    by_lesson = {}
    for region in assembly.regions:
        by_lesson.setdefault(region.lesson, set()).add((region.origin, region.reason))
    assert by_lesson["7.4"] == {("reference", "in progress: its checks have not all passed yet")}
    assert by_lesson["7.5"] == {("yours", "")}
    assert by_lesson["3.1"] == {("reference", "not started yet")}
    assert assembly.yours == 2 and assembly.filename == "my_train2.py"


def test_regions_point_at_the_lines_they_hold(assembler: Assembler, course: Course):
    assembly = assembler.assemble("train2.py", {"7.5": Work("done", solution(course, "7.5"))})
    lines = assembly.text.splitlines()
    texts = [lines[r.first - 1:r.last] for r in assembly.regions if r.lesson == "7.5"]
    # both of 7.5's TODO lines; order.append(node) is 3.4's too, which is not done here
    assert [t.strip() for part in texts for t in part] == [
        "order.append(node)", "child.grad += local_grad * node.grad"]
    reference = assembler.script("train2.py").lines
    for region in assembly.regions:
        assert lines[region.first - 1:region.last] == \
            reference[region.reference_first - 1:region.reference_last]


def learner_75(course: Course, old: str, new: str) -> str:
    draft = solution(course, "7.5")
    assert old in draft
    return draft.replace(old, new)


def test_the_learners_own_lines_are_placed_re_indented(assembler: Assembler, course: Course):
    """Lesson 6.4 writes a line at one level of indentation, train1.py has it deeper."""
    draft = solution(course, "6.4").replace("worst, nudge = 0.0, 1e-5",
                                            "worst, nudge = 0.0, 0.00001  # my own")
    assembly = assembler.assemble("train1.py", {"6.4": Work("done", draft)})
    line = next(text for text in assembly.text.splitlines() if "# my own" in text)
    reference = next(text for text in assembler.script("train1.py").lines
                     if "worst, nudge = 0.0, 1e-5" in text)
    assert line.index("worst") == reference.index("worst") > 0


def test_todo_comments_the_learner_left_are_dropped(assembler: Assembler, course: Course):
    starter = course.lesson("7.5").exercise.starter
    draft = starter.replace("                pass\n",
                            "                child.grad += node.grad * local_grad\n")
    draft = draft.replace("                # TODO (one line): `node` takes its place in `order`",
                          "                order.append(node)\n"
                          "                # TODO (one line): `node` takes its place in `order`")
    assembly = assembler.assemble("train2.py", {"7.5": Work("done", draft)})
    assert "TODO" not in assembly.text
    assert "child.grad += node.grad * local_grad" in assembly.text
    assert all(r.origin == "yours" for r in assembly.regions if r.lesson == "7.5")


def test_a_rewritten_sort_takes_the_whole_function_body(assembler: Assembler, course: Course):
    """A different correct sort rewrites given lines too: they come with the learner's code."""
    draft = (Path(__file__).parent / "lessons" / "7.5" / "alt_users.py").read_text()
    assembly = assembler.assemble("microgpt.py", {"7.5": Work("done", draft)})
    mine = [r for r in assembly.regions if r.lesson == "7.5"]
    assert all(r.origin == "yours" for r in mine)
    assert "users[child] -= 1" in assembly.text and "reversed(order)" not in assembly.text
    compile(assembly.text, "my_microgpt.py", "exec")


# Lesson 7.4 is the subject of the next tests: it owns a block of train2.py no earlier lesson
# teaches (mul's local grads). 7.5 no longer does: its two lines are taught first by 3.3 (the
# append in visit) and 4.4 (the chain rule), whose blocks hold the reference when 7.5's code
# cannot be used.
MUL = "return Value(self.data * other.data, (self, other), (other.data, self.data))"


def learner_74(course: Course, old: str, new: str) -> str:
    draft = solution(course, "7.4")
    assert old in draft
    return draft.replace(old, new)


@pytest.mark.parametrize("draft, reason", [
    (None, "done, but no saved code came with it"),
    ("", "still has the TODO on line"),  # an empty draft: the TODOs are gone, not done
])
def test_done_without_usable_code_keeps_the_reference(assembler, course, draft, reason):
    if draft == "":
        draft = course.lesson("7.4").exercise.starter  # reset to the starter after passing
    assembly = assembler.assemble("train2.py", {"7.4": Work("done", draft)})
    regions = [r for r in assembly.regions if r.lesson == "7.4"]
    assert regions and all(r.origin == "reference" and reason in r.reason for r in regions)


def test_code_that_would_not_parse_keeps_the_reference(assembler: Assembler, course: Course):
    draft = learner_74(course, MUL, MUL.replace("(other.data, self.data))",
                                                "((other.data, self.data)"))
    assembly = assembler.assemble("train2.py", {"7.5": Work("done", solution(course, "7.5")),
                                                "7.4": Work("done", draft)})
    reasons = {r.reason for r in assembly.regions if r.lesson == "7.4"}
    assert len(reasons) == 1 and "would not run: SyntaxError" in reasons.pop()
    assert all(r.origin == "yours" for r in assembly.regions if r.lesson == "7.5")
    assert code_of(assembly.text) == code_of(assembler.script("train2.py").text)


def test_code_that_needs_a_helper_from_the_lesson_file_keeps_the_reference(assembler, course):
    draft = learner_74(course, MUL, MUL.replace("(other.data, self.data))",
                                                "pair(other.data, self.data))"))
    draft = draft.replace("class Value:", "def pair(a, b):\n    return (a, b)\n\n\nclass Value:")
    assembly = assembler.assemble("train2.py", {"7.4": Work("done", draft)})
    reasons = {r.reason for r in assembly.regions if r.lesson == "7.4"}
    assert reasons == {"your code uses `pair`, which train2.py does not define (is it defined "
                       "elsewhere in your lesson file?), so the reference is used"}


def test_code_that_drops_a_name_the_script_needs_keeps_the_reference(assembler, course):
    draft = solution(course, "2.3").replace("n = min(block_size, len(tokens) - 1)",
                                            "count = min(block_size, len(tokens) - 1)")
    draft = draft.replace("range(n)", "range(count)").replace("(1 / n)", "(1 / count)")
    assembly = assembler.assemble("train2.py", {"2.3": Work("done", draft)})
    reasons = {r.reason for r in assembly.regions if r.lesson == "2.3"}
    assert reasons == {"your code does not define `n`, which the rest of train2.py uses, so "
                       "the reference is used"}


def test_drafts_in_other_shapes_still_assemble(assembler: Assembler, course: Course):
    """Windows line ends and tabs (Python reads a tab as up to 8 spaces) change nothing."""
    draft = solution(course, "7.5").replace("\n", "\r\n")
    assembly = assembler.assemble("train2.py", {"7.5": Work("done", draft)})
    assert all(r.origin == "yours" for r in assembly.regions if r.lesson == "7.5")
    assert code_of(assembly.text) == code_of(assembler.script("train2.py").text)


def test_a_huge_draft_is_refused_by_its_size(assembler: Assembler, course: Course):
    draft = solution(course, "7.4") + "\n" * 5000
    assembly = assembler.assemble("train2.py", {"7.4": Work("done", draft)})
    reasons = {r.reason for r in assembly.regions if r.lesson == "7.4"}
    assert len(reasons) == 1 and "far longer than the lesson's file" in reasons.pop()


def test_the_assembled_file_runs_with_plain_python(assembler, course, names_file, tmp_path):
    progress = {"7.4": Work("done", solution(course, "7.4")),
                "7.5": Work("done", solution(course, "7.5"))}
    assembly = assembler.assemble("train2.py", progress)
    (tmp_path / assembly.filename).write_text(assembly.text.replace("num_steps = 1000",
                                                                    "num_steps = 2"))
    (tmp_path / "input.txt").write_bytes(names_file.read_bytes())
    done = subprocess.run([sys.executable, assembly.filename], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "step    2 / 2 | loss" in done.stdout and "sample 20:" in done.stdout


# --- progress files ---------------------------------------------------------------------------

def progress_file(**changes) -> dict:
    data = {"format": "linebyline-progress", "version": 1, "course": "microgpt",
            "lessons": {"7.5": {"status": "done", "draft": "x", "quiz": {}}}}
    data.update(changes)
    return data


def test_progress_files_of_version_1_and_2_are_read_and_only_passing_code_is_yours():
    for version in (1, 2):
        lessons, left_out = read_progress(progress_file(version=version), "microgpt")
        # A draft is not code that passed: it is kept aside, to be checked again.
        assert lessons == {"7.5": Unchecked("done", None, f"{NOT_KEPT}, so the reference is used",
                                            "x")} and left_out == []
    kept = progress_file(version=2, lessons={"7.5": {"status": "done", "draft": "failing edit",
                                                     "passedCode": "x", "passedAt": 5}})
    assert read_progress(kept, "microgpt")[0] == {"7.5": Work("done", "x")}


def test_a_lesson_that_cannot_be_read_is_left_out_and_named():
    data = progress_file(lessons={"7.4": {"status": "finished"}, "x": {"status": "done"},
                                  "7.5": {"status": "done", "draft": 3},
                                  "3.1": {"status": "in-progress"},
                                  "review-7": {"status": "done"}})  # a recall: no line of its own
    lessons, left_out = read_progress(data, "microgpt")
    assert lessons == {"7.5": Work("done", None, f"{NOT_KEPT}, so the reference is used"),
                       "3.1": Work("in-progress", None)}
    assert left_out == ["lesson 7.4: its status is missing or unknown",
                        "'x' is not a lesson number", "lesson 7.5: its draft is not text"]


@pytest.mark.parametrize("data, says", [
    ([], "it is not a JSON object"),
    (progress_file(format="something"), 'its "format" is not "linebyline-progress"'),
    (progress_file(version=3), "it is format version 3; this linebyline reads versions 1 and 2"),
    (progress_file(course="other"), "it is for the course 'other', not 'microgpt'"),
    (progress_file(lessons=[]), 'it has no "lessons"'),
])
def test_anything_else_is_refused(data, says):
    with pytest.raises(ProgressError, match=f"^{re.escape(says)}$"):
        read_progress(data, "microgpt")


# --- module 7: the learner's own train2, every lesson of the module done ----------------------

MODULE_7 = [f"7.{i}" for i in range(1, 8)]
# One other correct spelling per lesson, as a learner who wrote their own would bring.
MODULE_7_OTHERS = {"7.1": "alt_named_target.py", "7.2": "alt_list_and_float.py",
                   "7.3": "alt_loop_and_negation.py", "7.4": "alt_spelled_out.py",
                   "7.5": "alt_iterative.py", "7.6": "alt_loops.py", "7.7": "alt_loop.py"}
RECORDED_STEPS = 3


def recorded(text: str, filename: str, dataset: Path):
    return run_recorded(text, filename, dataset, RECORDED_STEPS, None, lambda line: None)


@pytest.fixture(scope="module")
def train2_reference(assembler: Assembler, names_file: Path):
    return recorded(assembler.script("train2.py").text, "train2.py", names_file)


def module_7_progress(course: Course, drafts: str) -> dict[str, Work]:
    folder = Path(__file__).parent / "lessons"
    return {number: Work("done", solution(course, number) if drafts == "solutions" else
                         (folder / number / MODULE_7_OTHERS[number]).read_text(encoding="utf-8"))
            for number in MODULE_7}


def test_every_module_7_lesson_has_its_place_in_train2(assembler: Assembler):
    assert set(MODULE_7) <= set(assembler.lessons_in("train2.py"))
    # 7.7's mlp is train2's own; the Value class and softmax of 7.2 and 7.3 go on into microgpt
    assert "7.7" not in assembler.lessons_in("microgpt.py")
    assert {"7.2", "7.3", "7.6"} <= set(assembler.lessons_in("microgpt.py"))


def test_a_change_across_lines_the_starter_imports_keeps_the_reference_and_says_why(
        assembler: Assembler):
    """7.6's train_step calls given.train2 (name_at, positions, decayed) where train2.py spells
    those lines out, so that later lessons' answers stay out of sight. Zeroing the grads at the
    top of train_step, away from the TODO, makes a change that spans those lines: train2.py does
    not have them, so the reference is used there, and the learner is told why."""
    draft = (Path(__file__).parent / "lessons" / "7.6" / "alt_zero_first.py").read_text(
        encoding="utf-8")
    assembly = assembler.assemble("train2.py", {"7.6": Work("done", draft)})
    regions = [r for r in assembly.regions if r.lesson == "7.6"]
    assert regions and all(r.origin == "reference" for r in regions)
    assert {r.reason for r in regions} == {
        "your code also rewrites lines around its TODOs, such as `doc = name_at(docs, step)`, "
        "which train2.py does not have, so it could not be placed"}


@pytest.mark.parametrize("drafts", ["solutions", "other spellings"])
def test_with_module_7_done_my_train2_is_mine_and_trains_like_the_reference(
        drafts, assembler: Assembler, course: Course, names_file: Path, train2_reference):
    """All seven lessons passed: every region of theirs in train2.py is the learner's code, and
    the file trains step by step like the reference (the same losses and weights, or apart only
    by rounding where a spelling adds in another order)."""
    assembly = assembler.assemble("train2.py", module_7_progress(course, drafts))
    mine = [r for r in assembly.regions if r.lesson in MODULE_7]
    assert {r.lesson for r in mine} == set(MODULE_7)
    assert all(r.origin == "yours" for r in mine), [(r.lesson, r.reason) for r in mine]
    if drafts == "solutions":
        assert code_of(assembly.text) == code_of(assembler.script("train2.py").text)
    else:
        assert code_of(assembly.text) != code_of(assembler.script("train2.py").text)
    run = recorded(assembly.text, assembly.filename, names_file)
    said = verdict(run, train2_reference)
    assert len(run.losses) == RECORDED_STEPS
    assert said.kind in (("same",) if drafts == "solutions" else ("same", "rounding")), said.text
    assert run.weights is not None and train2_reference.weights is not None
    assert max(abs(a - b) for a, b in zip(run.weights, train2_reference.weights)) < 1e-12


# --- module 8: the learner's own train3 ---------------------------------------------------------

MODULE_8 = [f"8.{i}" for i in range(1, 8)]
# Another correct spelling of each module-8 lesson that computes exactly the same numbers (no
# float arithmetic reordered), so the learner's train3 must match the reference bit for bit.
MODULE_8_OTHERS = {"8.1": "alt_named_rows.py", "8.2": "alt_spelled.py", "8.3": "alt_one_line.py",
                   "8.4": "alt_sqrt.py", "8.5": "alt_named.py", "8.6": "alt_plus_equals.py",
                   "8.7": "alt_named_logits.py"}


@pytest.fixture(scope="module")
def train3_reference(assembler: Assembler, names_file: Path):
    printed: list[str] = []
    run = run_recorded(assembler.script("train3.py").text, "train3.py", names_file,
                       RECORDED_STEPS, None, printed.append)
    return run, printed


def module_8_progress(course: Course, drafts: str) -> dict[str, Work]:
    folder = Path(__file__).parent / "lessons"
    return {number: Work("done", solution(course, number) if drafts == "solutions" else
                         (folder / number / MODULE_8_OTHERS[number]).read_text(encoding="utf-8"))
            for number in MODULE_8}


@pytest.mark.parametrize("drafts", ["solutions", "other spellings"])
def test_with_module_8_done_my_train3_is_mine_and_trains_exactly_like_the_reference(
        drafts, assembler: Assembler, course: Course, names_file: Path, train3_reference):
    """All seven lessons of module 8 passed (and every earlier lesson left to the reference):
    every region of theirs in train3.py is the learner's code, and the file trains step by step
    exactly like the reference, the same losses and weights to the last bit, the same names."""
    assembly = assembler.assemble("train3.py", module_8_progress(course, drafts))
    mine = [r for r in assembly.regions if r.lesson in MODULE_8]
    assert {r.lesson for r in mine} == set(MODULE_8)
    assert all(r.origin == "yours" for r in mine), [(r.lesson, r.reason) for r in mine]
    assert all(r.reason == "not started yet" for r in assembly.regions if r.lesson not in MODULE_8)
    reference = assembler.script("train3.py").text
    if drafts == "solutions":
        assert code_of(assembly.text) == code_of(reference)
    else:  # the learner's own lines are really there
        assert code_of(assembly.text) != code_of(reference)
        assert "tok_emb = weights['wte'][token]" in assembly.text and "keys += [k]" in assembly.text
    printed: list[str] = []
    run = recorded_with(assembly.text, assembly.filename, names_file, printed)
    ours, ours_printed = train3_reference
    said = verdict(run, ours)
    assert len(run.losses) == RECORDED_STEPS and said.kind == "same", said.text
    assert run.losses == ours.losses and run.marks == ours.marks
    assert run.weights is not None and run.weights == ours.weights
    assert printed == ours_printed and any(line.startswith("sample 20:") for line in printed)


def recorded_with(text: str, filename: str, dataset: Path, printed: list[str]):
    return run_recorded(text, filename, dataset, RECORDED_STEPS, None, printed.append)


def test_a_module_8_mistake_in_my_train3_shows_in_its_first_step(
        assembler: Assembler, course: Course, names_file: Path, train3_reference):
    """The comparison above can fail: 8.4 without the division by sqrt(n_embd), placed as the
    learner wrote it, changes train3's very first loss."""
    draft = solution(course, "8.4").replace(" / n_embd ** 0.5 for past_k in keys]",
                                            " for past_k in keys]")
    assembly = assembler.assemble("train3.py", {"8.4": Work("done", draft)})
    assert all(r.origin == "yours" for r in assembly.regions if r.lesson == "8.4")
    run = recorded_with(assembly.text, assembly.filename, names_file, [])
    said = verdict(run, train3_reference[0])
    assert said.kind != "same" and run.losses[0] != train3_reference[0].losses[0]
# --- module 9: the learner's own train4, trained beside the reference --------------------------

MODULE_9 = ("9.1", "9.2", "9.3", "9.4", "9.5")
# One other correct spelling per lesson of module 9, from tests/lessons/9.x: how a learner who
# wrote every line differently (the slice on two lines, plain loops, a def for w, ...) is placed.
MODULE_9_SPELLINGS = {"9.1": "alt_lo_then_hi.py", "9.2": "alt_plain_loops.py",
                      "9.3": "alt_hidden_named.py", "9.4": "alt_def_w.py",
                      "9.5": "alt_hidden_and_percent.py"}
TRAIN4_STEPS = 3


@cache
def _reference_train4(text: str, names_file: Path):
    """The reference train4's run, once per test process (its three steps take seconds)."""
    from linebyline.mine.terminal import run_recorded

    return run_recorded(text, "train4.py", names_file, TRAIN4_STEPS, None, lambda line: None)


def train4_beside_the_reference(assembler: Assembler, progress: dict[str, Work],
                                names_file: Path) -> tuple[object, list]:
    """My microgpt's run of the learner's train4 and the reference's, step by step (the same
    records and verdict as `linebyline train --mine`): (the verdict, the learner's regions)."""
    from linebyline.mine.terminal import run_recorded, verdict

    assembly = assembler.assemble("train4.py", progress)
    mine = run_recorded(assembly.text, assembly.filename, names_file, TRAIN4_STEPS, None,
                        lambda line: None)
    reference = _reference_train4(assembler.script("train4.py").text, names_file)
    assert len(mine.losses) == len(reference.losses) == TRAIN4_STEPS
    return verdict(mine, reference), [r for r in assembly.regions if r.lesson in MODULE_9]


def test_module_9_solutions_train4_matches_the_reference_step_by_step(
        assembler: Assembler, course: Course, names_file: Path):
    """Module 9's five lessons done (and nothing else): every line they teach in train4.py is
    the learner's, and the learner's train4 matches the reference at every step."""
    progress = {number: Work("done", solution(course, number)) for number in MODULE_9}
    result, regions = train4_beside_the_reference(assembler, progress, names_file)
    assert {r.lesson for r in regions} == set(MODULE_9)
    assert all(r.origin == "yours" for r in regions), regions
    assert result.kind == "same", result.text
    assert result.text.startswith("Matches the reference at every step")
    # The regions hold every line the learner writes in module 9, each where train4.py has it.
    script = assembler.script("train4.py").lines
    held = {" ".join(script[n - 1].split()) for r in regions
            for n in range(r.reference_first, r.reference_last + 1)}
    written = {line for number in MODULE_9 for line in learner_lines(course.lesson(number))}
    assert written and written <= held, written - held


def test_module_9_in_other_spellings_train4_matches_the_reference_step_by_step(
        assembler: Assembler, course: Course, names_file: Path):
    progress = {number: Work("done", (Path(__file__).parent / "lessons" / number / name)
                             .read_text(encoding="utf-8"))
                for number, name in MODULE_9_SPELLINGS.items()}
    result, regions = train4_beside_the_reference(assembler, progress, names_file)
    assert all(r.origin == "yours" for r in regions), regions
    assert result.kind == "same", result.text
    assembly = assembler.assemble("train4.py", progress)
    for mine in ("lo = h * head_dim", "for past_k in keys[layer]:", "hidden = [h.relu() for h in hidden]",
                 "def w(name):", "hidden = 4 * n_embd"):
        assert mine in assembly.text, mine


def test_a_module_9_mistake_parts_from_the_reference(assembler: Assembler, course: Course,
                                                     names_file: Path):
    """A learner whose 9.2 divides by √n_embd (train3's scale) sees where their run parts."""
    draft = solution(course, "9.2").replace("past_k[lo:hi])) / head_dim ** 0.5",
                                            "past_k[lo:hi])) / n_embd ** 0.5")
    result, _ = train4_beside_the_reference(assembler, {"9.2": Work("done", draft)}, names_file)
    assert result.kind == "parted" and result.step == 1, result.text
# --- module 10: the learner's own train5 and microgpt.py, Adam written in six lessons --------

MODULE_10 = [f"10.{i}" for i in range(1, 7)]
# One other correct spelling per lesson, as a learner who wrote their own would bring.
MODULE_10_OTHERS = {"10.1": "alt_sqrt.py", "10.2": "alt_spelled.py",
                    "10.3": "alt_comprehensions.py", "10.4": "alt_weights_named.py",
                    "10.5": "alt_steps_left.py", "10.6": "alt_named_steps.py"}
ADAM_LINES = [153, 154, 155, 171, 172, 173, 174, 175]  # written in lessons (170, the loop, is given)
# The original microgpt's published losses are those of its first 5 steps; the other 15 are what
# microgpt.py printed in the run that reproduced them (tests/test_program.py).
FIRST_20 = ("3.3660 3.4243 3.1778 3.0664 3.2209 2.9452 3.2894 3.3245 2.8990 3.2229 "
            "2.7964 2.9345 3.0544 3.0905 3.0651 2.7337 2.8839 2.8977 2.7073 2.7453").split()
PRINTS_OTHERWISE["10.1/alt_abs.py"] = "divides by abs(m_hat), the size of a running mean in microgpt"


def everything_done(course: Course, drafts: str) -> dict[str, Work]:
    """Every published lesson passed with its solution; module 10's with other spellings too."""
    folder = Path(__file__).parent / "lessons"
    progress = {lesson.number: Work("done", lesson.exercise.solution)
                for lesson in course.lessons()}
    if drafts == "other spellings":
        for number, name in MODULE_10_OTHERS.items():
            progress[number] = Work("done", (folder / number / name).read_text(encoding="utf-8"))
    return progress


def test_every_module_10_lesson_has_its_place_in_train5_and_microgpt(assembler: Assembler):
    for name in ("train5.py", "microgpt.py"):
        assert set(MODULE_10) <= set(assembler.lessons_in(name)), name
    # train4 steps with plain SGD: of Adam's lessons only the decaying lr (10.5, 10.6) is there.
    assert set(MODULE_10) & set(assembler.lessons_in("train4.py")) == {"10.5", "10.6"}


@pytest.fixture(scope="module")
def train5_reference(assembler: Assembler, names_file: Path):
    return recorded(assembler.script("train5.py").text, "train5.py", names_file)


@pytest.mark.parametrize("drafts", ["solutions", "other spellings"])
@pytest.mark.parametrize("script", ["train5.py", "microgpt.py"])
def test_with_module_10_done_my_adam_is_mine_and_trains_like_the_reference(
        script, drafts, assembler: Assembler, course: Course, names_file: Path,
        train5_reference):
    """Every lesson passed: each of Adam's lines in the script is the learner's code, from one
    module 10 lesson or another (where two lessons wrote the same line, one of them is used),
    and the file trains step by step like the reference: the same losses and weights, or apart
    only by rounding where a spelling works in another order."""
    assembly = assembler.assemble(script, everything_done(course, drafts))
    owner = {line: region for region in assembly.regions if region.origin == "yours"
             for line in range(region.reference_first, region.reference_last + 1)}
    assert all(line in owner and owner[line].lesson in MODULE_10 for line in ADAM_LINES), [
        (line, owner.get(line)) for line in ADAM_LINES]
    same_code = code_of(assembly.text) == code_of(assembler.script(script).text)
    assert same_code == (drafts == "solutions")
    run = recorded(assembly.text, assembly.filename, names_file)
    said = verdict(run, train5_reference)  # train5.py and microgpt.py run alike
    assert len(run.losses) == 3
    assert said.kind in (("same",) if drafts == "solutions" else ("same", "rounding")), said.text
    assert max(abs(a - b) for a, b in zip(run.weights, train5_reference.weights)) < 1e-12


@pytest.mark.slow
def test_my_microgpt_from_every_lesson_prints_the_published_first_20_losses(
        assembler: Assembler, course: Course, names_file: Path):
    """The whole of microgpt.py assembled from the learners' code of every published lesson,
    run on the makemore names file: its first 20 losses are the original microgpt's."""
    assembly = assembler.assemble("microgpt.py", everything_done(course, "solutions"))
    mine = {line for region in assembly.regions if region.origin == "yours"
            and region.lesson in MODULE_10
            for line in range(region.reference_first, region.reference_last + 1)}
    assert set(ADAM_LINES) <= mine
    losses = []
    lines = run_source(assembly.text, assembly.filename, names_file)  # num_steps stays 1000
    try:
        for line in lines:
            step = parse_step(line)
            if step is not None:
                losses.append(step.loss)
            if len(losses) == len(FIRST_20):
                break
    finally:
        lines.close()  # ends the rest of the 1000-step run
    assert losses == FIRST_20


def guided_and_own_drafts(course: Course, number: str, fill: dict[str, str]) -> tuple[str, str]:
    """A learner's draft made from the guided starter (its TODO comments left in), and the same
    draft made from the on-my-own starter: the two differ in those comments only."""
    exercise = course.lesson(number).exercise
    guided = exercise.starter
    for old, new in fill.items():
        assert guided.count(old) == 1, old
        guided = guided.replace(old, new)
    own = switch_blocks(guided, exercise.level_pairs(), "own")
    assert own != guided and own.count("TODO") == guided.count("TODO")
    assert [line for line in own.split("\n") if not line.lstrip().startswith("#")] == \
        [line for line in guided.split("\n") if not line.lstrip().startswith("#")]
    return guided, own


@pytest.mark.parametrize("number, script, fill", [
    ("7.5", "train2.py", {
        "                pass\n": "                child.grad += node.grad * local_grad\n",
        "                # TODO (one line): `node` takes its place in `order`":
        "                order.append(node)\n                # TODO (one line): `node` takes its "
        "place in `order`"}),
    ("10.5", "microgpt.py", {
        "    lr = 0.0\n": "    lr = learning_rate * (1 - step / num_steps)\n",
        "        p.grad = 0\n": "        p.data -= lr * m_hat / (v_hat ** 0.5 + eps)\n"
                               "        p.grad = 0\n"}),
])
def test_a_draft_started_on_my_own_assembles_like_one_started_guided(assembler: Assembler,
                                                                     course: Course, number,
                                                                     script, fill):
    guided, own = guided_and_own_drafts(course, number, fill)
    mine = assembler.assemble(script, {number: Work("done", guided)})
    theirs = assembler.assemble(script, {number: Work("done", own)})
    assert all(r.origin == "yours" for r in theirs.regions if r.lesson == number)
    assert theirs.to_dict() == mine.to_dict() and "TODO" not in theirs.text
    # The browser's Python assembles from the course as plain data: the same there.
    plain = Assembler(PlainCourse(json.loads(json.dumps(plain_course(course)))))
    assert plain.assemble(script, {number: Work("done", own)}).to_dict() == mine.to_dict()
