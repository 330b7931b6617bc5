"""Lesson 12.2's experiment() is microgpt.py with its settings as parameters: with microgpt's own
settings it trains exactly as the file does (the same seed, the same shuffle, the same weights
drawn in the same order), so every comparison the page makes is against the file's true run.

microgpt.py itself runs here (a few steps, with the course's own helper that sets its
`num_steps` line), and its losses are held to experiment()'s digit for digit; the figures the
page quotes (facts) and what the lesson's Run prints are held to the same run.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
from functools import cache
from pathlib import Path

from linebyline.authoring.computed import compute_lesson
from linebyline.course import default_course_path
from linebyline.course.dataset import names_file
from linebyline.mine.scripts import parse_step, run_source
from linebyline.runtime.library import CourseModules

from .conftest import the_course

COURSE = default_course_path()


@cache
def lesson():
    return the_course().lesson("12.2")


@cache
def facts() -> dict:
    computed = compute_lesson(lesson())
    assert not computed.problems, computed.problems
    return computed.facts


def names() -> list[str]:
    with open(names_file(), encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


def solution(name: str = "experiment_solution") -> dict:
    namespace = {"__name__": name}
    with CourseModules(lesson().exercise.library):  # the parts it imports from given.*
        exec(compile(lesson().exercise.solution, "experiment.py", "exec"), namespace)
    return namespace


@cache
def microgpt_run(steps: int) -> tuple[list[str], list[float]]:
    """microgpt.py run for `steps` steps (its num_steps line set to that): the losses it
    prints, and the exact loss of every step."""
    source = (COURSE / "microgpt.py").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "record.jsonl"
        printed = [step.loss for line in run_source(source, "microgpt.py", names_file(), steps,
                                                    record=record, samples=0)
                   if (step := parse_step(line))]
        exact = [entry["loss"] for entry in map(json.loads, record.read_text().splitlines())
                 if "loss" in entry]
    return printed, exact


def test_experiment_with_microgpts_settings_is_microgpt_py_to_the_last_digit():
    steps = facts()["steps"]  # the length of the page's experiments
    printed, exact = microgpt_run(steps)
    docs = names()
    result = solution()["experiment"](docs, num_steps=steps)
    assert [f"{loss:.4f}" for loss in result["losses"]] == printed
    assert result["losses"] == exact  # not only the 4 printed decimals: every bit
    assert result["params"] == 4192 and result["vocab_size"] == 27
    assert docs == names()  # the caller's list keeps its order: experiment() shuffles a copy


def test_the_pages_figures_are_microgpt_pys_own():
    found = facts()
    printed, exact = microgpt_run(found["steps"])
    assert found["base_first"] == exact[0]
    assert f"{found['base_first']:.4f}" == printed[0]
    assert found["base_loss"] == sum(exact) / len(exact)
    program = (COURSE / "microgpt.py").read_text(encoding="utf-8").splitlines()
    for key, start in (("seed_line", "random.seed(42)"), ("chars_line", "chars = sorted("),
                       ("n_line", "n = min(block_size"), ("lr_line", "lr = learning_rate"),
                       ("end_line", 'print(f"step ')):
        assert program[found[key] - 1].strip().startswith(start), key
    # The four lines the learner writes are those lines of microgpt.py: three word for word, and
    # the seed line with the experiment's own seed where microgpt.py writes its number (the seed
    # is a setting of experiment(), microgpt's by default).
    written = [line.strip() for line in lesson().exercise.solution.splitlines()]
    for key in ("chars_line", "n_line", "lr_line"):
        assert program[found[key] - 1].strip() in written, key
    code = [line.split("#")[0].strip() for line in written]
    seed_line = program[found["seed_line"] - 1].split("#")[0].strip()
    assert seed_line == f"random.seed({found['seed']})"
    assert "random.seed(seed)" in code and seed_line not in code
    assert solution()["experiment"].__defaults__[-1] == found["seed"]


def test_the_seed_is_the_experiments_own():
    """Two runs with one seed give the same losses, another seed gives others, and the default
    seed is microgpt.py's: its run is microgpt.py's (the test above)."""
    experiment = solution()["experiment"]
    docs, tiny = ["ab", "ba", "abba"], {"n_embd": 4, "n_head": 2, "block_size": 4, "num_steps": 2}
    default = experiment(docs, **tiny)["losses"]
    assert experiment(docs, seed=facts()["seed"], **tiny)["losses"] == default
    assert experiment(docs, seed=7, **tiny)["losses"] == experiment(docs, seed=7, **tiny)["losses"]
    assert experiment(docs, seed=7, **tiny)["losses"] != default


def test_runs_printed_losses_are_the_pages(tmp_path: Path):
    """Run prints one line per experiment: the same mean losses the page quotes."""
    (tmp_path / "input.txt").write_bytes(names_file().read_bytes())
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            solution("__main__")
    finally:
        os.chdir(here)
    lines = out.getvalue().splitlines()
    found = facts()
    means = [float(re.search(r"mean loss ([0-9.]+)", line)[1]) for line in lines]
    assert means == [round(found[key], 3) for key in ("base_loss", "deep_loss", "wide_loss")]
    sizes = [int(re.search(r"([0-9,]+) params", line)[1].replace(",", "")) for line in lines]
    assert sizes == [found[key] for key in ("base_params", "deep_params", "wide_params")]


def test_the_page_states_no_timing_ratio_measured_elsewhere():
    """A cost in time depends on the machine: the lesson's prose points to the learner's own
    measurements (Run's seconds per step, the lab's cost column), and quotes no fixed ratio."""
    page = [lesson().watch, lesson().where, lesson().explore.params.get("caption", "")]
    for text in page:
        assert "_cost" not in text and "_time" not in text
        assert not re.search(r"\d(\.\d+)?\s*(×|times)", text), text
