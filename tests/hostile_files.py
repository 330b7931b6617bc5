"""The hostile learner files of tests/hostile/ (see its README), made into whole files.

Each piece goes into lesson 7.5's solution, or into the solution with its first known mistake
(so that a cheat that worked would turn a failing file into a pass).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from linebyline.course import Course, apply_edits

FOLDER = Path(__file__).parent / "hostile"
LESSON = "7.5"
HEADER = re.compile(r"^#\s*(base|at|expect|cli|browser|timeout|memory|contained):\s*(.*?)\s*$")
PLACEHOLDER = re.compile(r"<([A-Z]+)>")


@dataclass(frozen=True)
class Expected:
    status: str  # pass, fail or error
    says: str  # part of the first message that is not a pass (for pass: of the output)

    def found_in(self, text: str) -> bool:
        """Whether `text` says it: alternatives (where Python versions differ) are split by ||."""
        return any(part.strip() in text for part in self.says.split("||"))


@dataclass(frozen=True)
class HostileFile:
    path: Path
    header: dict[str, str]

    @property
    def id(self) -> str:
        return self.path.stem

    def expected(self, where: str) -> Expected | None:
        """What `where` ("cli" or "browser") must say about this file; None: not run there."""
        text = self.header.get(where) or self.header.get("expect")
        if not text or text == "skip":
            return None
        status, _, says = (part.strip() for part in text.partition("|"))
        assert status in ("pass", "fail", "error"), f"{self.path}: unknown verdict {status!r}"
        return Expected(status, says)

    @property
    def cli_options(self) -> list[str]:
        return ["--timeout", self.header.get("timeout", "10"),
                "--memory", self.header.get("memory", "512")]

    @property
    def contained(self) -> bool:
        """Whether it is also run as root and as another user, in each kind of namespaces."""
        return self.header.get("contained") == "yes"

    def source(self, course: Course, **values: str) -> str:
        """The whole file; each <NAME> in the piece becomes values[NAME] (<NUL>: a NUL)."""
        exercise = course.lesson(LESSON).exercise
        base = exercise.solution
        if self.header["base"] == "mistake":
            base = apply_edits(base, exercise.mistakes[0].edits)
        values = {"NUL": "\0", **values}
        piece = "\n".join(line for line in self.path.read_text().splitlines()
                          if not HEADER.match(line))
        piece = PLACEHOLDER.sub(lambda match: values[match.group(1)], piece).strip("\n") + "\n"
        if self.header.get("at") == "start":
            return piece + "\n" + base
        return base.rstrip("\n") + "\n\n" + piece


def hostile_files() -> list[HostileFile]:
    found = []
    for path in sorted(FOLDER.glob("*.py")):
        header = {}
        for line in path.read_text().splitlines():
            match = HEADER.match(line)
            if match:
                header[match.group(1)] = match.group(2)
        assert header.get("base") in ("solution", "mistake"), f"{path}: needs a # base: line"
        found.append(HostileFile(path, header))
    return found
