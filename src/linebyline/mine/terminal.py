"""The learner's own script from a terminal: read an exported progress file, assemble, train it
beside the reference, and say how the two runs compare (`linebyline assemble`, `train --mine`)."""
from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..course import Course
from ..course.cached import cache_dir
from .assemble import Assembly, ProgressError, Unchecked, Work, read_progress
from .blank import Judgement
from .scripts import run_source
from .training import Verdict, compare, configure

if TYPE_CHECKING:
    from ..progress.local import LocalProgress

MAX_PROGRESS_BYTES = 64_000_000  # a file of every lesson's longest draft is about 15 MB
RECORD_PROTOCOL = "1"  # bump when what a record holds changes


class MineError(Exception):
    """A progress file or a request that cannot be used as given; the message says why."""


def load_progress(path: Path, course: Course) -> tuple[dict[str, Work], list[str]]:
    """The lessons of the progress file the course home exports (format version 1 or 2), and the
    lessons left out because they could not be read."""
    if not path.exists():
        raise MineError(f"{path}: no such file")
    if not path.is_file():
        raise MineError(f"{path}: is a folder, not a progress file")
    if path.stat().st_size > MAX_PROGRESS_BYTES:
        raise MineError(f"{path}: is {path.stat().st_size:,} bytes, far more than a progress file "
                        "can be; is it the file the course home exported?")
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise MineError(f"{path}: is not UTF-8 text, so it is not a progress file") from None
    except json.JSONDecodeError as error:
        raise MineError(f"{path}: is not JSON (line {error.lineno}: {error.msg}); export your "
                        "progress from the course home and use that file") from None
    except RecursionError:
        raise MineError(f"{path}: is nested too deeply to be a progress file") from None
    try:
        return read_progress(data, course.slug)
    except ProgressError as error:
        raise MineError(f"{path}: is not linebyline progress for this course: {error}") from None


def check_again(course: Course, progress: dict[str, Work], wanted: list[str],
                local: LocalProgress | None) -> dict[str, Work]:
    """Lessons marked done whose code was never kept as passing (older progress, a file edited
    by hand) have their saved draft checked again (in the sandbox, as `check` does): used only
    if it passes now, and then kept as the code that passed in `local`, when given."""
    from ..sandbox import check_source

    checked = dict(progress)
    for number in wanted:
        work = progress.get(number)
        lesson = course.lesson(number)
        if not isinstance(work, Unchecked) or lesson is None:
            continue
        print(f"Lesson {number} is marked done, but no code that passed was kept with it: "
              "checking its saved code again…", file=sys.stderr)
        result = check_source(lesson, work.unchecked)
        if result.status == "pass":
            checked[number] = Work("done", work.unchecked)
            if local is not None:
                local.record_passed(number, work.unchecked)
            continue
        passed = sum(check.status == "pass" for check in result.checks)
        checked[number] = Work("done", None, f"done, but the code saved with it does not pass "
                               f"its checks now ({passed} of {len(result.checks)} pass), so the "
                               "reference is used")
    return checked


def describe(assembly: Assembly) -> list[str]:
    """The regions of an assembled script, one line each, for a terminal."""
    lines = [f"{assembly.filename}: {assembly.yours} of {len(assembly.regions)} regions are yours; "
             "the rest is the reference."]
    for region in assembly.regions:
        where = f"lines {region.first}-{region.last}" if region.last > region.first \
            else f"line {region.first}"
        origin = "yours    " if region.origin == "yours" else "reference"
        why = f": {region.reason}" if region.reason else ""
        lines.append(f"  {where:<14} {origin}  {region.lesson} {region.title}{why}")
    lines.extend(f"  note: {note}" for note in assembly.notes)
    return lines


# --- runs and their records -------------------------------------------------------------------

@dataclass
class Record:
    """What a run under linebyline.mine.training wrote: exact losses, weights fingerprints, and the
    final weights (when it ran to its end)."""

    losses: list[float | None] = field(default_factory=list)
    marks: list[str] = field(default_factory=list)
    weights: list[float] | None = None

    @classmethod
    def read(cls, text: str) -> Record:
        record = cls()
        for line in text.splitlines():
            entry = json.loads(line)
            if "weights" in entry:
                record.weights = entry["weights"]
            else:
                record.losses.append(entry["loss"])
                record.marks.append(entry["mark"])
        return record


def run_recorded(source: str, filename: str, dataset: Path, steps: int | None,
                 temperature: float | None, on_line: Callable[[str], None]) -> Record:
    """Run a script under linebyline.mine.training; its output lines go to on_line as they come.
    Raises subprocess.CalledProcessError if the script fails."""
    with tempfile.TemporaryDirectory(prefix="linebyline-record-") as folder:
        record = Path(folder) / "record.jsonl"
        for line in run_source(source, filename, dataset, steps, temperature, record):
            on_line(line)
        return Record.read(record.read_text(encoding="utf-8"))


def reference_key(source: str, dataset: Path, steps: int | None,
                  temperature: float | None) -> str:
    """Everything a reference run's numbers depend on, this Python and machine included."""
    digest = hashlib.sha256()
    for part in (RECORD_PROTOCOL, configure(source, steps), repr(temperature), sys.version,
                 platform.machine(), hashlib.sha256(dataset.read_bytes()).hexdigest()):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:32]


class ReferenceRun:
    """The reference script's run for the same steps, data and temperature: read from the cache,
    or run alongside the learner's (in a thread, so both go at once) and then cached."""

    def __init__(self, source: str, filename: str, dataset: Path, steps: int | None,
                 temperature: float | None) -> None:
        self.path = cache_dir() / f"reference-{reference_key(source, dataset, steps, temperature)}.jsonl"
        self.record: Record | None = None
        self.error = ""
        self.steps_done = 0
        self._stopping = False
        self._thread: threading.Thread | None = None
        if self.path.is_file():
            self.record = Record.read(self.path.read_text(encoding="utf-8"))
            return
        self._thread = threading.Thread(
            target=self._run, args=(source, filename, dataset, steps, temperature), daemon=True)
        self._thread.start()

    @property
    def cached(self) -> bool:
        return self._thread is None

    def _run(self, *args) -> None:
        def count(line: str) -> None:
            if self._stopping:
                raise _Stopped  # ends the generator, which ends the script's process
            if line.startswith("step"):
                self.steps_done += 1
        try:
            self.record = run_recorded(*args, on_line=count)
        except _Stopped:
            return
        except subprocess.CalledProcessError as error:
            self.error = error.stderr.strip().splitlines()[-1] if error.stderr.strip() else "it failed"
            return
        self._store()

    def _store(self) -> None:
        assert self.record is not None
        lines = [json.dumps({"loss": loss, "mark": mark})
                 for loss, mark in zip(self.record.losses, self.record.marks)]
        if self.record.weights is not None:
            lines.append(json.dumps({"weights": self.record.weights}))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.path.parent, delete=False,
                                             suffix=".tmp", encoding="utf-8") as file:
                file.write("\n".join(lines) + "\n")
            os.replace(file.name, self.path)
        except OSError:
            pass  # a cache that cannot be written only makes the next run slower

    def stop(self) -> None:
        """End the run (at its next printed line) and wait for its process to end."""
        self._stopping = True
        if self._thread is not None:
            self._thread.join(30)

    def wait(self) -> Iterator[int]:
        """Wait for the run to end, yielding how many steps it has done now and then."""
        while self._thread is not None and self._thread.is_alive():
            self._thread.join(0.2)
            yield self.steps_done


class _Stopped(Exception):
    pass


def verdict(mine: Record, reference: Record) -> Verdict:
    return compare(mine.losses, reference.losses, mine.marks, reference.marks,
                   mine.weights, reference.weights)


# --- the program from a blank page (`linebyline start microgpt`, `check microgpt FILE`) -----

def blank_page_target(course: Course) -> str:
    """What the blank-page recall is called on the command line: the program's name, `microgpt`."""
    return Path(course.program_name).stem


def judge_blank_page(course: Course, path: Path, dataset: Path,
                     on_step: Callable[[int], None]) -> Judgement:
    """Run the learner's whole program (their own file, on their own machine, as `python`
    would) until it has printed its first steps, and judge it against the course's."""
    from .blank import KEPT, Watched, judge, lessons_teaching, regions

    kept = course.path / KEPT
    if not kept.is_file():
        raise MineError(f"this course keeps no first steps of {course.program_name} ({kept})")
    reference = Watched.from_json(kept.read_text(encoding="utf-8"))
    program = (course.path / course.program_name).read_text(encoding="utf-8")
    source = path.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="linebyline-blank-") as folder:
        shutil.copyfile(dataset, Path(folder) / "input.txt")
        (Path(folder) / course.program_name).write_text(source, encoding="utf-8")
        process = subprocess.Popen(
            [sys.executable, "-u", "-m", "linebyline.mine.blank", course.program_name, str(kept)],
            cwd=folder, text=True, encoding="utf-8", stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        try:
            said: list[str] = []
            assert process.stderr is not None and process.stdout is not None
            for line in process.stderr:
                if line.startswith("progress "):
                    on_step(int(line.split()[1]))
                else:
                    said.append(line)
            printed = process.stdout.read().strip().splitlines()
            process.wait()
        finally:
            if process.poll() is None:  # Ctrl-C: the program ends with the command
                process.kill()
                process.wait()
    if process.returncode != 0 or not printed:
        raise MineError("the program could not be run: " + ("".join(said[-5:]) or
                                                             f"exit code {process.returncode}"))
    mine = Watched.from_json(printed[-1])
    teaches = lessons_teaching({lesson.number: list(lesson.unlocks) for lesson in course.lessons()})
    return judge(mine, reference, regions(program), course.program_name, teaches)
