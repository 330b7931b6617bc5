"""The traceback a learner sees: their own frames only, told as Python would tell them, and
quickly even when a function called itself hundreds of thousands of times."""
from __future__ import annotations

import sys
import traceback

import pytest

from linebyline.runtime import learner_traceback

FILE = "your_code.py"
CASES = {
    "a plain error": "x = [1]\nprint(x[3])\n",
    "three calls deep": "def f(n):\n    if n == 2:\n        raise ValueError(n)\n    return f(n + 1)\nf(0)\n",
    "five calls deep": "def f(n):\n    if n == 4:\n        raise ValueError(n)\n    return f(n + 1)\nf(0)\n",
    "two functions in turn": "def a(n):\n    return b(n + 1)\ndef b(n):\n"
                             "    return a(n + 1) if n < 40 else 1 / 0\na(0)\n",
    "raised from another": "try:\n    1 / 0\nexcept Exception as e:\n    raise KeyError('k') from e\n",
    "inside the library": "import json\njson.loads('{')\n",
    "a generator": "def g():\n    yield 1\n    raise RuntimeError('done')\nlist(g())\n",
}


def _raised(source: str) -> BaseException:
    try:
        exec(compile(source, FILE, "exec"), {})
    except BaseException as error:  # noqa: BLE001 - the error is what is tested
        return error
    raise AssertionError("the code raised nothing")


def _pythons_own(error: BaseException) -> str:
    """Python's traceback, with every frame outside the learner's file left out."""
    summary = traceback.TracebackException.from_exception(error)
    summary.stack = traceback.StackSummary.from_list(
        [frame for frame in summary.stack if frame.filename == FILE])
    summary.__cause__ = summary.__context__ = None
    return "".join(summary.format())


@pytest.mark.parametrize("source", CASES.values(), ids=CASES.keys())
def test_the_learners_frames_read_as_pythons_own(source):
    error = _raised(source)
    text, line = learner_traceback(error, FILE)
    assert text == _pythons_own(error)
    assert line == [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                    if frame.filename == FILE][-1]


def test_a_deep_recursion_is_counted_not_listed():
    depth = 20_000
    source = f"def f(n):\n    return f(n + 1) if n < {depth} else 1 / 0\nf(0)\n"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 100)
    try:
        error = _raised(source)
    finally:
        sys.setrecursionlimit(limit)
    text, line = learner_traceback(error, FILE)
    assert line == 2
    assert f"[Previous line repeated {depth - 2} more times]" in text
    assert len(text.splitlines()) < 20
    assert text == _pythons_own(error)
