"""The check runtime on its own: statuses, messages, and that it is pure standard library."""
from __future__ import annotations

import ast
import io
import sys
from pathlib import Path

import pytest

import linebyline.runtime
from linebyline.runtime import Limits, StopRun, close, nudge_grads, run_checks, slope

CHECKS = '''
from linebyline.runtime import calling, check, fail

@check("double doubles")
def _(code):
    with calling("double(21)"):
        got = code.double(21)
    if got != 42:
        fail(f"double(21) should return 42, but returned {got!r}.")

@check("half halves")
def _(code):
    with calling("half(8)"):
        got = code.half(8)
    if got != 4:
        fail(f"half(8) should return 4, but returned {got!r}.")
'''
STARTER = "def double(x):\n    return x  # TODO\n\ndef half(x):\n    return x  # TODO\n"
RIGHT = "def double(x):\n    return 2 * x\n\ndef half(x):\n    return x / 2\n"


def statuses(result):
    return [check.status for check in result.checks]


def test_right_code_passes_every_check():
    result = run_checks(RIGHT, CHECKS, lesson="t", starter=STARTER)
    assert result.status == "pass"
    assert statuses(result) == ["pass", "pass"]
    assert [check.name for check in result.checks] == ["double doubles", "half halves"]


def test_untouched_starter_is_not_attempted_even_with_trailing_spaces():
    result = run_checks(STARTER.replace("\n", "  \r\n") + "\n\n", CHECKS, starter=STARTER)
    assert result.status == "not-attempted"
    assert statuses(result) == ["not-attempted", "not-attempted"]


def test_half_done_code_fails_with_a_message_saying_what_came_back():
    half_done = RIGHT.replace("x / 2", "x")
    result = run_checks(half_done, CHECKS, starter=STARTER)
    assert result.status == "fail"
    assert statuses(result) == ["pass", "fail"]
    assert result.checks[1].message == "half(8) should return 4, but returned 8."


def test_an_exception_names_the_call_the_error_and_the_learners_line():
    crashing = RIGHT.replace("return x / 2", "return x / zero")
    result = run_checks(crashing, CHECKS, starter=STARTER, filename="mine.py")
    assert statuses(result) == ["pass", "error"]
    assert result.checks[1].message == (
        "Calling `half(8)` raised NameError: name 'zero' is not defined (line 5 of your code).")


def test_a_syntax_error_is_reported_with_its_line_and_nothing_runs():
    result = run_checks("def double(x):\n    return 2 *\n", CHECKS, starter=STARTER)
    assert result.status == "error"
    assert result.checks[0].message.startswith("Your code has a syntax error on line 2")
    assert result.checks[1].message.startswith("Not run")


def test_code_that_fails_at_top_level_is_an_error_for_every_check():
    result = run_checks(RIGHT + "print('hi')\n1 / 0\n", CHECKS, starter=STARTER)
    assert result.status == "error"
    assert "ZeroDivisionError" in result.checks[0].message and "line 7" in result.checks[0].message
    assert result.stdout == "hi\n"


def test_a_missing_name_fails_clearly():
    result = run_checks("def double(x):\n    return 2 * x\n", CHECKS, starter=STARTER)
    assert statuses(result) == ["pass", "fail"]
    assert "does not define `half`" in result.checks[1].message


def test_prints_are_captured_and_capped():
    result = run_checks(RIGHT + "print('x' * 200_000)\n", CHECKS)
    assert result.status == "pass"
    assert len(result.stdout) < 105_000
    assert "[output cut: your code printed 200,001 characters in 1 line; the 96,001 " \
        "characters between its first 100,000 and its last 4,000 are not shown]" in result.stdout


COUNTING = '''
from linebyline.runtime import check, fail, printed

@check("three steps printed")
def _(code):
    steps = [line for line in printed(code).splitlines() if line.startswith("step")]
    if len(steps) != 3:
        fail(f"3 step lines, but {len(steps)} were printed.")
'''


def test_a_check_counts_the_whole_output_however_much_else_was_printed():
    # A debug print of 300,000 characters before the steps: they are still all counted.
    noisy = "print('debug ' * 25_000)\nfor step in range(3):\n    print(f'step {step}')\n"
    result = run_checks(noisy, COUNTING)
    assert result.status == "pass", result.checks[0].message


def test_output_past_what_the_checks_read_is_said_plainly_never_miscounted():
    flood = "for step in range(3):\n    print(f'step {step}')\n    print('x' * 3_000_000)\n"
    result = run_checks(flood, COUNTING)
    assert result.status == "fail"
    assert result.checks[0].message.startswith(
        "Your code printed 9,000,024 characters in 6 lines, more than the 8,000,000 characters "
        "the checks read, so this check cannot judge what it printed.")
    assert "[output cut: your code printed 9,000,024 characters in 6 lines;" in result.stdout
    assert result.stdout.endswith("x" * 3_000 + "\n")  # its end is shown too


def test_a_stop_on_the_time_limit_says_how_much_was_printed_by_then():
    printing = "print('y' * 500_000)\n" + RIGHT.replace("return 2 * x", "raise StopRun_()")
    code = "from linebyline.runtime import StopRun as StopRun_\n" + printing
    result = run_checks(code, CHECKS, filename="mine.py",
                        limits=Limits(time="the 3 s time limit", stopped=lambda: "time"))
    assert "ran past the 3 s time limit" in result.checks[0].message
    assert "By then it had printed 500,001 characters in 1 line: printing that much takes " \
        "time too" in result.checks[0].message


def test_a_stop_from_outside_ends_the_run_with_the_time_limit_named():
    looping = RIGHT.replace("return 2 * x", "raise StopRun_()")
    namespace_hook = "from linebyline.runtime import StopRun as StopRun_\n"
    result = run_checks(namespace_hook + looping, CHECKS, filename="mine.py",
                        limits=Limits(time="the 3 s time limit", stopped=lambda: "time"))
    assert statuses(result) == ["error", "error"]
    assert "ran past the 3 s time limit" in result.checks[0].message
    assert result.checks[1].message == "Not run: the run was stopped."
    assert issubclass(StopRun, BaseException) and not issubclass(StopRun, Exception)


def test_a_stop_the_learners_code_raises_itself_is_not_called_a_time_limit():
    for raised in ("StopRun_()", "KeyboardInterrupt"):
        code = "from linebyline.runtime import StopRun as StopRun_\n" + RIGHT.replace(
            "return 2 * x", f"raise {raised}")
        result = run_checks(code, CHECKS, filename="mine.py")
        assert statuses(result) == ["error", "pass"], raised  # the next check still runs
        assert "ran past" not in result.checks[0].message
        assert result.checks[0].message.startswith("Calling `double(21)` raised")


def test_the_stop_button_is_named_as_such():
    code = RIGHT.replace("return x / 2", "raise KeyboardInterrupt")
    result = run_checks(code, CHECKS, limits=Limits(stopped=lambda: "user"))
    assert result.checks[1].message == "Calling `half(8)` was stopped by you before it finished."


def test_exit_ends_the_file_and_the_checks_then_run():
    for ending in ("exit()", "quit()", "import sys; sys.exit(0)", "import sys; sys.exit(2)",
                   "raise SystemExit"):
        result = run_checks(RIGHT + "print('bye')\n" + ending + "\nprint('never')\n", CHECKS)
        assert result.status == "pass", ending
        assert result.stdout == "bye\n"


def test_exit_with_a_message_prints_it_as_python_does():
    result = run_checks(RIGHT + "import sys\nsys.exit('stopping here')\n", CHECKS)
    assert result.status == "pass" and result.stdout == "stopping here\n"


def test_exit_before_a_definition_says_where_the_file_ended():
    result = run_checks("def double(x):\n    return 2 * x\n\nexit()\n\ndef half(x):\n"
                        "    return x / 2\n", CHECKS)
    assert statuses(result) == ["pass", "fail"]
    assert result.checks[1].message == (
        "Your code does not define `half`: your file ended on line 4 with exit() or sys.exit(), "
        "so the lines after it never ran.")


def test_exit_inside_a_function_a_check_calls_is_an_error_of_that_check_only():
    code = RIGHT.replace("return 2 * x", "import sys; sys.exit(0)")
    result = run_checks(code, CHECKS, filename="mine.py")
    assert statuses(result) == ["error", "pass"]
    assert result.checks[0].message.startswith(
        "Calling `double(21)` ended the whole program with exit() or sys.exit() (line 2 of your "
        "code).")


def test_a_nul_character_is_found_and_placed():
    result = run_checks(RIGHT + "x = 1  # pasted \0 here\n", CHECKS)
    assert result.status == "error"
    assert result.checks[0].message.startswith(
        "Your code contains a NUL character (code 0) on line 6, column 17")


def test_a_system_error_after_a_raised_recursion_limit_is_explained():
    limit = sys.getrecursionlimit()
    try:
        code = "import sys\nsys.setrecursionlimit(10 ** 7)\nraise SystemError('error return')\n"
        result = run_checks(code, CHECKS)
    finally:
        sys.setrecursionlimit(limit)
    assert result.status == "error"
    assert "after your code raised the recursion limit to 10,000,000" in result.checks[0].message
    assert sys.getrecursionlimit() == limit  # left as it was for the next run


@pytest.mark.parametrize("code, says", [
    ("class Boom(BaseException): pass\nraise Boom('out of the blue')\n",
     "Running your code raised Boom: out of the blue (line 2 of your code)."),
    ("class E(Exception):\n    def __str__(self): raise ValueError\nraise E()\n",
     "Running your code raised E: (its message could not be shown) (line 3 of your code)."),
    ("raise GeneratorExit\n", "Running your code raised GeneratorExit (line 1 of your code)."),
    ("input()\n", "raised EOFError"),
])
def test_odd_exceptions_are_named(code, says, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    result = run_checks(code, CHECKS)
    assert result.status == "error"
    assert says in result.checks[0].message


def test_a_huge_error_message_is_cut():
    result = run_checks("raise ValueError('x' * 1_000_000)\n", CHECKS)
    assert 1_000 < len(result.checks[0].message) < 1_200


def test_patching_what_the_checks_use_changes_nothing():
    """A wrong file that patches math, builtins and this package still fails (see seal.py)."""
    import builtins
    import math

    import linebyline.runtime.numeric
    saved = math.isclose, builtins.all, linebyline.runtime.numeric.close
    cheat = ("import math, builtins, linebyline.runtime.numeric as n\n"
             "math.isclose = lambda *a, **k: True\nbuiltins.all = lambda items: True\n"
             "n.close = lambda *a, **k: True\n")
    checks = CHECKS.replace("if got != 42:", "if not close(got, 42):").replace(
        "import calling, check, fail", "import calling, check, close, fail")
    try:
        result = run_checks(cheat + RIGHT.replace("2 * x", "3 * x"), checks)
    finally:
        math.isclose, builtins.all, linebyline.runtime.numeric.close = saved
    assert statuses(result) == ["fail", "pass"]


def test_a_lesson_without_checks_passes_nothing():
    assert run_checks(RIGHT, "").status == "error"


def test_the_verdict_is_written_as_json_without_the_json_module():
    import json

    from linebyline.runtime.seal import to_json

    value = {"a": ["x\"\\\n\t\0", "é ☃ 𝄞", True, False, None, 12, -3],
             "b": {"c": "\ud800 lone"}}
    assert json.loads(to_json(value)) == value


def test_checks_are_listed_as_dicts_for_json():
    data = run_checks(RIGHT, CHECKS).to_dict()
    assert set(data) == {"lesson", "status", "checks", "stdout", "traceback"}
    assert set(data["checks"][0]) == {"name", "status", "message", "fix"}


def test_two_checks_with_one_name_are_refused():
    with pytest.raises(ValueError, match="two checks are named"):
        run_checks(RIGHT, CHECKS + CHECKS)


def test_slope_and_nudge_grads_measure_derivatives():
    assert slope(lambda x: x ** 3, 2.0) == pytest.approx(12.0, rel=1e-6)

    class Box:
        def __init__(self, data):
            self.data = data

    a, b = Box(3.0), Box(-2.0)
    grads = nudge_grads(lambda: a.data * b.data + a.data ** 2, [a, b])
    assert grads == pytest.approx([-2.0 + 6.0, 3.0], rel=1e-6)
    assert (a.data, b.data) == (3.0, -2.0)  # left exactly as they were


def test_close_rejects_non_numbers():
    assert close(1.0, 1.0 + 1e-9)
    assert not close(True, 1.0) and not close("1", 1.0) and not close(None, 0.0)


def test_runtime_imports_only_the_standard_library():
    # The browser runs these very files in Pyodide, which has no third-party packages.
    folder = Path(linebyline.runtime.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", f"{path}: {name}"


def test_replacing_stands_in_for_a_learner_name_and_puts_it_back():
    checks = '''
from linebyline.runtime import check, fail, replacing

@check("the stand-in is used, then the original is back")
def _(code):
    with replacing(code, "helper", lambda: "stand-in"):
        if code.outer() != "stand-in":
            fail("the learner's function did not see the stand-in")
    if code.outer() != "real":
        fail("the original was not put back")
    with replacing(code.random, "random", lambda: 0.5):
        if code.draw() != 0.5:
            fail("the learner's random module did not see the stand-in")
    if code.draw() == 0.5:
        fail("random.random was not put back")
'''
    source = ("import random\n\ndef helper():\n    return 'real'\n\ndef outer():\n"
              "    return helper()\n\ndef draw():\n    return random.random()\n")
    result = run_checks(source, checks)
    assert result.status == "pass", result.checks


def test_a_lessons_checks_are_compiled_once_and_run_afresh_each_time():
    """seal.py keeps checks.py's code object between runs, never what running it made."""
    import warnings

    checks = r'''
from linebyline.runtime import check, fail

WANT = {"double": 42}
PATTERN = "\d"  # an invalid escape sequence: compiling this file warns, running it does not

@check("double doubles")
def _(code):
    if code.double(21) != WANT["double"]:
        fail("double(21) came back wrong")
'''
    # The learner's double() reaches into the check's own globals, through the frame that
    # called it (seal.py does not stop that), and changes what the check expects.
    reaching = ("import sys\n\ndef double(x):\n"
                "    sys._getframe(1).f_globals['WANT']['double'] = 3 * x\n    return 3 * x\n")
    honest_but_wrong = "def double(x):\n    return 3 * x\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = run_checks(reaching, checks)
        second = run_checks(honest_but_wrong, checks)
        third = run_checks("def double(x):\n    return 2 * x\n", checks)
    # Compiled on the first run only (the warning is a SyntaxWarning from Python 3.12 on).
    assert ["invalid escape sequence" in str(w.message) for w in caught] == [True]
    assert first.status == "pass"  # fooled on purpose, within that run
    assert second.status == "fail"  # the next run executes checks.py afresh: WANT is 42 again
    assert third.status == "pass"


def test_until_the_first_failure_the_later_checks_are_not_run():
    # What lint asks of a known mistake: the first check that does not pass, and nothing after
    # (run, the second check would say what half(8) returned).
    from linebyline.runtime import seal
    from linebyline.runtime.runner import NOT_CHECKED

    both_wrong = RIGHT.replace("2 * x", "x").replace("x / 2", "x")
    whole = seal.evaluate(both_wrong, CHECKS, lesson="t")
    assert [c["status"] for c in whole["checks"]] == ["fail", "fail"]
    first = seal.evaluate(both_wrong, CHECKS, lesson="t", until_first_failure=True)
    assert [c["status"] for c in first["checks"]] == ["fail", "error"]
    assert first["checks"][0]["message"] == whole["checks"][0]["message"]
    assert first["checks"][1]["message"] == NOT_CHECKED
    assert first["status"] == "fail"
    right = seal.evaluate(RIGHT, CHECKS, lesson="t", until_first_failure=True)
    assert [c["status"] for c in right["checks"]] == ["pass", "pass"]
