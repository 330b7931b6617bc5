"""The course's own modules (courses/NAME/library): starters import them, so no answer sits in
an editor; every run gets fresh copies, so a learner's patch reaches neither the reference nor
the next run."""
from __future__ import annotations

import io
import subprocess
import sys
from contextlib import redirect_stdout

import pytest

from linebyline.runtime import run_checks
from linebyline.runtime.program import run_program

LIBRARY = {
    "given/__init__.py": '"""Finished parts."""\n',
    "given/maths.py": "def double(x):\n    return 2 * x\n\nCALLS = []\n",
}
CHECKS = '''
from linebyline.runtime import calling, check, fail, reference

@check("quadruple")
def _(code):
    with calling("quadruple(5)"):
        got = code.quadruple(5)
    want = reference(code).quadruple(5)
    if got != want:
        fail(f"quadruple(5) is {got!r} but should be {want!r}.")
'''
SOLUTION = "from given.maths import double\n\ndef quadruple(x):\n    return double(double(x))\n"


def test_a_file_imports_the_course_modules_it_is_given():
    result = run_checks(SOLUTION, CHECKS, lesson="t", reference=SOLUTION, library=LIBRARY)
    assert result.status == "pass", result


def test_without_the_library_the_import_fails_and_says_so():
    result = run_checks(SOLUTION, CHECKS, lesson="t", reference=SOLUTION)
    assert result.status == "error"
    assert "given" in result.checks[0].message


def test_a_patch_of_a_course_module_does_not_reach_the_reference():
    # The learner "fixes" their wrong answer by patching the module the reference uses too.
    patched = ("import given.maths\n"
               "given.maths.double = lambda x: 3 * x\n"
               "from given.maths import double\n\n"
               "def quadruple(x):\n    return double(double(x))\n")
    result = run_checks(patched, CHECKS, lesson="t", reference=SOLUTION, library=LIBRARY)
    assert result.status == "fail"
    assert "is 45 but should be 20" in result.checks[0].message


def test_a_finder_added_by_the_learner_does_not_serve_the_reference():
    hostile = '''
import sys, types
class Fake:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("given"):
            from importlib.machinery import ModuleSpec
            return ModuleSpec(name, self, is_package=name == "given")
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        module.double = lambda x: 3 * x
        module.__path__ = []
for name in [n for n in sys.modules if n.startswith("given")]:
    del sys.modules[name]
sys.meta_path.insert(0, Fake())
from given.maths import double

def quadruple(x):
    return double(double(x))
'''
    result = run_checks(hostile, CHECKS, lesson="t", reference=SOLUTION, library=LIBRARY)
    assert result.status == "fail", result
    assert "should be 20" in result.checks[0].message


def test_a_course_module_imports_the_modules_the_learners_file_has():
    """A check that patches `code.random` reaches the draws of a course module the file imports:
    the module's imports are the learner's modules, never the checks' private copies."""
    library = {"given/__init__.py": "",
               "given/dice.py": "import random\n\n\ndef roll():\n    return random.choice([1, 2, 3])\n"}
    solution = "import random\n\nfrom given.dice import roll\n"
    checks = '''
from linebyline.runtime import check, fail, replacing

@check("the patch reaches the course module")
def _(code):
    with replacing(code.random, "choice", lambda options: 42):
        got = code.roll()
    if got != 42:
        fail(f"roll() gave {got!r}: the course module drew from another random module")
'''
    result = run_checks(solution, checks, lesson="t", reference=solution, library=library)
    assert result.status == "pass", result


def test_the_course_modules_are_gone_after_a_run():
    run_checks(SOLUTION, CHECKS, lesson="t", reference=SOLUTION, library=LIBRARY)
    assert not [name for name in sys.modules if name.partition(".")[0] == "given"]


def test_run_imports_them_too():
    out = io.StringIO()
    with redirect_stdout(out):
        outcome = run_program(SOLUTION + "print(quadruple(3))\n", "mine.py", library=LIBRARY)
    assert outcome.status == "ok"
    assert out.getvalue() == "12\n"


def test_the_browser_bundle_carries_the_course_library(settings):
    import json

    from linebyline.course import default_course_path
    from linebyline.course.library import library_sources
    from linebyline.web.pages import runtime_sources

    bundled = json.loads(runtime_sources()["linebyline/course_library.json"])
    assert bundled == library_sources(default_course_path())
    assert "given/__init__.py" in bundled


def test_linebyline_run_can_import_the_course_library(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text("import given\nprint('imported', given.__file__)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "linebyline", "run", "1.1", str(mine)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "imported" in done.stdout and "library" in done.stdout


@pytest.mark.parametrize("way", ["bwrap", "namespaces", "limits"])
def test_the_terminal_check_imports_them_in_every_way(course, monkeypatch, way):
    from dataclasses import replace

    from linebyline.sandbox import check_source

    monkeypatch.setenv("LINEBYLINE_SANDBOX", way)
    lesson = course.lesson("7.5")
    exercise = replace(lesson.exercise, checks_source=CHECKS, check_names=("quadruple",),
                       solution=SOLUTION, starter=SOLUTION.replace("double(double(x))", "x"),
                       library=LIBRARY)
    lesson = replace(lesson, exercise=exercise)
    assert check_source(lesson, SOLUTION).status == "pass"
    wrong = SOLUTION.replace("double(double(x))", "double(x)")
    result = check_source(lesson, wrong)
    assert result.status == "fail" and "is 10 but should be 20" in result.checks[0].message


def test_lint_names_an_answer_planted_in_an_earlier_starter(course):
    from dataclasses import replace

    from linebyline.authoring.lesson_standard import answer_leaks, answers_to_write

    before = set(answer_leaks(course))
    later = course.lesson("7.5")
    line = next(iter(answers_to_write(later)))  # e.g. child.grad+=local_grad*node.grad
    module = next(m for m in course.modules if m.number == 3)
    first = module.lessons[0]
    planted = first.exercise.starter + "\n# a helper, finished\n" + line + "\n"
    module.lessons[0] = replace(first, exercise=replace(first.exercise, starter=planted))
    try:
        found = set(answer_leaks(course)) - before
    finally:
        module.lessons[0] = first
    assert (line, "7.5", f"the starter of lesson {first.number}") in found


def test_lint_names_an_answer_spelled_in_the_starters_own_comments(course):
    from dataclasses import replace

    from linebyline.authoring.lesson_standard import answer_leaks, answers_to_write

    leaked = {(line, number) for line, number, _ in answer_leaks(course)}
    module, index, lesson, line = next(
        (module, index, lesson, line) for module in course.modules
        for index, lesson in enumerate(module.lessons) if lesson.exercise
        for line in answers_to_write(lesson) if (line, lesson.number) not in leaked)
    spelled = f"# TODO: write {line}\n" + lesson.exercise.starter
    module.lessons[index] = replace(lesson, exercise=replace(lesson.exercise, starter=spelled))
    try:
        found = answer_leaks(course)
    finally:
        module.lessons[index] = lesson
    assert (line, lesson.number, "its own starter's comments") in found
