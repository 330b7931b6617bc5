"""`linebyline graph FILE`: the graph of a Value the learner's file makes, written as SVG or DOT,
with their backward()'s wrong steps printed; and every way it can have nothing to draw."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from linebyline.course import default_course_path

from .conftest import run_cli

LESSONS = default_course_path() / "lessons"
SVG = "{http://www.w3.org/2000/svg}"


def solution(number: str) -> str:
    return (next(LESSONS.glob(f"{number}-*")) / "solution.py").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str, name: str = "backward.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def boxes(svg_file: Path) -> list[list[str]]:
    """Each node's lines of text, from the SVG as any viewer parses it."""
    root = ET.parse(svg_file).getroot()
    assert root.tag == f"{SVG}svg"
    return [[t.text or "" for t in g.iter(f"{SVG}text")] for g in root.iter(f"{SVG}g")]


def test_a_correct_file_is_drawn_as_svg_with_every_step_agreeing(tmp_path):
    path = write(tmp_path, solution("7.5"))
    done = run_cli("graph", str(path))
    assert done.returncode == 0, done.stderr
    assert "y = 12.0" in done.stdout  # the learner's own output, as `run` shows it
    assert "Wrote" in done.stdout and "the graph of y, 3 nodes" in done.stdout
    assert "every step agrees with the chain rule" in done.stdout
    drawn = boxes(tmp_path / "backward.graph.svg")
    assert ["x", "data 3", "grad 7"] in drawn and ["y (+)", "data 12", "grad 1"] in drawn
    assert "#b3261e" not in (tmp_path / "backward.graph.svg").read_text()


def test_a_replaced_grad_is_printed_with_its_line_and_outlined(tmp_path):
    path = write(tmp_path, solution("7.5").replace("child.grad +=", "child.grad ="))
    line = solution("7.5").splitlines().index(
        next(x for x in solution("7.5").splitlines() if "child.grad +=" in x)) + 1
    done = run_cli("graph", str(path), "--output", str(tmp_path / "mine.svg"))
    assert done.returncode == 0, done.stderr
    assert f"line {line}: x.grad already held 1 from another path, and this step replaced it" in done.stdout
    assert "1 node(s) end with a grad the chain rule does not give" in done.stdout
    assert ["x", "data 3", "grad 3", "should be 7"] in boxes(tmp_path / "mine.svg")


def test_dot_and_a_chosen_value(tmp_path):
    path = write(tmp_path, solution("7.5"))
    done = run_cli("graph", str(path), "--dot", "--value", "x")
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "backward.graph.dot").read_text()
    assert text.startswith('digraph "x" {') and "n0 [label=\"x\\ndata 3\\ngrad 1\"];" in text
    assert "This Value has no backward() yet" not in done.stdout


def test_module_3s_file_is_held_to_counting_paths(tmp_path):
    path = write(tmp_path, solution("3.5"), name="backward_paths.py")
    done = run_cli("graph", str(path))
    assert done.returncode == 0, done.stderr
    assert "the graph of L, 6 nodes" in done.stdout and "every step agrees with counting paths" in done.stdout


def test_nothing_to_draw_says_why(tmp_path):
    no_values = run_cli("graph", str(write(tmp_path, "n = 3\nprint(n)\n")))
    assert no_values.returncode == 1 and "holds no Value and no list of numbers" in no_values.stderr
    path = write(tmp_path, solution("7.5"))
    unknown = run_cli("graph", str(path), "--value", "loss")
    assert unknown.returncode == 1 and "has no name loss. Names that can be drawn: x, y" in unknown.stderr
    a_list = run_cli("graph", str(write(tmp_path, "probs = [0.25, 0.75]\n", "p.py")))
    assert a_list.returncode == 1 and "probs is a list (0.25, 0.75), not a Value" in a_list.stderr
    ended = run_cli("graph", str(write(tmp_path, "import os\nos._exit(3)\n", "e.py")))
    assert ended.returncode == 1
    assert "Python ended (exit code 3) before your Values could be read" in ended.stderr
    missing = run_cli("graph", str(tmp_path / "nope.py"))
    assert missing.returncode == 2 and "nope.py: no such file" in missing.stderr
    assert not list(tmp_path.glob("*.svg"))


def test_an_error_in_the_file_still_draws_what_was_made(tmp_path):
    source = solution("7.5").replace('    print("y ="', '    raise ValueError("late")\n    print("y ="')
    done = run_cli("graph", str(write(tmp_path, source)))
    assert done.returncode == 0 and "ValueError: late" in done.stderr
    assert "the graph of y, 3 nodes" in done.stdout


def test_a_whole_forward_pass_lists_its_blocks_and_draws_one(tmp_path):
    path = write(tmp_path, solution("7.7"), name="train2.py")
    whole = run_cli("graph", str(path))
    assert whole.returncode == 0, whole.stderr
    assert "the graph of loss, 500 of its" in whole.stdout
    assert "Its blocks, each named by the weights its part uses last: numbers (" in whole.stdout
    block = run_cli("graph", str(path), "--block", "mlp_fc1", "-o", str(tmp_path / "fc1.svg"))
    assert block.returncode == 0, block.stderr
    assert "the graph of the block mlp_fc1 of loss" in block.stdout
    titles = [lines[0] for lines in boxes(tmp_path / "fc1.svg") if lines]
    assert any(t.startswith("relu node") for t in titles) and not any(t.startswith("log") for t in titles)
    nope = run_cli("graph", str(path), "--block", "attn")
    assert nope.returncode == 1 and "loss's graph has no block attn: it has numbers, wte" in nope.stderr
