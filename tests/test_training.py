"""linebyline.mine.training: what a learner is told when a run fails or differs from the reference."""
from __future__ import annotations

import sys

import pytest

from linebyline.mine.training import SetupError, compare, configure, train

ENDLESS_WALK = """
class Node:
    def __init__(self):
        self.children = []

node = Node()
node.children.append(node)  # a cycle: a walk that never skips what it has seen never ends

def visit(n, order):
    for child in n.children:
        visit(child, order)
    order.append(n)

num_steps = 1
for step in range(num_steps):
    visit(node, [])
"""


def test_a_recursion_error_says_what_to_change():
    status, error, _ = train(ENDLESS_WALK, "mine.py", lambda *_: "")
    assert status == "error"
    assert 'File "mine.py", line 11, in visit' in error
    assert f"more than {sys.getrecursionlimit():,} times deep" in error
    assert "check that it skips nodes it has seen" in error
    assert "a loop with a list as a stack" in error


def test_runs_are_compared_in_words():
    losses = [3.3, 3.2, 3.1]
    assert compare(losses, losses, ["a", "b", "c"], ["a", "b", "c"]).kind == "same"
    weights_apart = compare(losses, losses, ["a", "x", "y"], ["a", "b", "c"], [1.0], [1.0 + 1e-13])
    assert weights_apart.kind == "rounding" and weights_apart.step == 2
    assert "rounding, not a bug" in weights_apart.text
    assert "13 significant digits" in weights_apart.text
    last_digit = compare([3.3, 3.2000000000000006], [3.3, 3.2])
    assert last_digit.kind == "rounding" and "15 significant digits" in last_digit.text
    one_step = compare([3.3], [3.3], ["a"], ["a"])
    assert one_step.kind == "same" and "for its one step." in one_step.text
    assert "for all 3 steps." in compare(losses, losses, ["a", "b", "c"], ["a", "b", "c"]).text
    parted = compare([3.3, 3.5], [3.3, 3.2])
    assert parted.kind == "parted" and parted.step == 2
    assert "Parts from the reference at step 2" in parted.text and "not rounding" in parted.text


def test_a_script_is_configured_by_its_lines_and_refused_without_them():
    source = ("num_steps = 1000\ntemperature = 0.5  # sharper\n"
              "for step in range(num_steps):\n    pass\nfor sample in range(20):\n    pass\n")
    shaped = configure(source, steps=2, temperature=1.0, samples=3)
    assert shaped == ("num_steps = 2\ntemperature = 1.0  # sharper\n"
                      "for step in range(num_steps):\n    pass\nfor sample in range(3):\n    pass\n")
    with pytest.raises(SetupError, match="for sample in range"):
        configure(source.replace("for sample in range(20):", "while True:"), samples=3)
