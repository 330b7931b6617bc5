"""Learner files for the lessons, in tests/lessons/<number>/, and what each must get.

A file says what it expects on one of its first lines:

    # expect: pass
    # expect: fail | <name of the first check that must not pass> | <part of its message>
    # expect: error | <name of that check> | <part of its message>

Files without such a line are used by a lesson's own tests only (a loop that never ends, say).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).parent / "lessons"
HEAD = 6  # lines in which the expectation must be
EXPECT = re.compile(r"^#\s*expect:\s*(pass|fail|error)\s*(?:\|\s*(.*?)\s*\|\s*(.*?)\s*)?$")


@dataclass(frozen=True)
class LearnerFile:
    lesson: str
    path: Path
    status: str  # pass, fail or error: the verdict for the whole file
    check: str = ""  # the first check that does not pass
    says: str = ""  # part of that check's message

    @property
    def id(self) -> str:
        return f"{self.lesson}/{self.path.name}"


def expectation(path: Path) -> tuple[str, str, str] | None:
    for line in path.read_text(encoding="utf-8").splitlines()[:HEAD]:
        match = EXPECT.match(line.strip())
        if match:
            return match.group(1), match.group(2) or "", match.group(3) or ""
    return None


def learner_files() -> list[LearnerFile]:
    found = []
    for folder in sorted(p for p in FOLDER.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.py")):
            expected = expectation(path)
            if expected:
                found.append(LearnerFile(folder.name, path, *expected))
    return found
