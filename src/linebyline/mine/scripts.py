"""Run the course's training scripts (train0.py ... microgpt.py) on a chosen data set.

The scripts are plain programs that read ``input.txt`` from their working folder, like the
learner's own copy does in the browser. To run one on any data set, we give it a fresh working
folder whose ``input.txt`` is that data set. To shorten training we rewrite its one
``num_steps = N`` line, which every script has (the lint checks it).
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..course.dataset import check_dataset
from .training import NUM_STEPS as NUM_STEPS  # the lint reads them from here
from .training import TRAINING_LOOP as TRAINING_LOOP
from .training import SetupError, configure

STEP_LINE = re.compile(r"^step\s+(\d+) / (\d+) \| loss ([0-9.]+|nan|inf)$")


class ScriptError(Exception):
    """A script that cannot be run as asked: unknown name, or no num_steps line to rewrite."""


@dataclass(frozen=True)
class Step:
    number: int
    total: int
    loss: str  # exactly as printed, 4 decimals


def find_script(course_path: Path, name: str) -> Path:
    """``train2``, ``train2.py`` or ``microgpt`` -> the script's path in the course folder."""
    path = course_path / (name if name.endswith(".py") else f"{name}.py")
    if not path.is_file() or path.parent != course_path:
        known = sorted(p.stem for p in course_path.glob("*.py"))
        raise ScriptError(f"no script named {name!r} (known: {', '.join(known)})")
    return path


def with_steps(source: str, steps: int) -> str:
    try:
        return configure(source, steps)
    except SetupError as error:
        raise ScriptError(str(error)) from None


def run_script(script: Path, dataset: Path, steps: int | None = None) -> Iterator[str]:
    """Run a script on ``dataset`` and yield its output lines as they come.

    Raises DatasetError for an unusable data file before anything starts, and
    subprocess.CalledProcessError (with the script's stderr) if the script fails.
    """
    yield from run_source(script.read_text(encoding="utf-8"), script.name, dataset, steps)


def run_source(source: str, filename: str, dataset: Path, steps: int | None = None,
               temperature: float | None = None, record: Path | None = None,
               samples: int | None = None) -> Iterator[str]:
    """Run a script's text as ``filename`` on ``dataset``, yielding its output lines
    (``steps`` training steps and ``samples`` names, when given).

    With ``record``, it runs under linebyline.mine.training, which writes every step's exact loss and
    weights fingerprint, then the final weights, to that file as JSON lines."""
    check_dataset(dataset)
    if steps is not None and steps < 1:
        raise ScriptError("--steps must be at least 1")
    try:
        source = configure(source, steps, temperature, samples)
    except SetupError as error:
        raise ScriptError(f"{filename}: {error}") from None
    with tempfile.TemporaryDirectory(prefix="linebyline-train-") as folder:
        work = Path(folder)
        shutil.copyfile(dataset, work / "input.txt")
        (work / filename).write_text(source, encoding="utf-8")
        command = [sys.executable, "-u", filename] if record is None else \
            [sys.executable, "-u", "-m", "linebyline.mine.training", filename, str(record)]
        process = subprocess.Popen(
            command, cwd=work, text=True, encoding="utf-8",
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        try:
            assert process.stdout is not None
            for line in process.stdout:
                yield line.rstrip("\n")
            stderr = process.stderr.read() if process.stderr else ""
            if process.wait() != 0:
                raise subprocess.CalledProcessError(process.returncode, filename, stderr=stderr)
        finally:
            if process.poll() is None:  # the caller stopped early: end the script too
                process.kill()
                process.wait()
            for stream in (process.stdout, process.stderr):
                if stream:
                    stream.close()


def parse_step(line: str) -> Step | None:
    match = STEP_LINE.match(line)
    return Step(int(match[1]), int(match[2]), match[3]) if match else None
