"""What a course is made of, once its files are loaded and validated."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Edit:
    """Replace the one occurrence of ``find`` with ``replace``."""

    find: str
    replace: str


@dataclass(frozen=True)
class Mistake:
    """A classic wrong version of the solution and the exact message a check must give it."""

    name: str
    edits: tuple[Edit, ...]
    check: str
    message: str  # the diagnosis the check must give
    line: int  # in lesson.yaml, for lint reports
    fix: str = ""  # the literal change the check must hold back for later ("" when none)


@dataclass(frozen=True)
class Adapted:
    """A line the learner writes that is a line of the program changed on purpose (12.2's seed
    line takes the experiment's own seed where microgpt.py writes 42), and why."""

    line: int  # the program's line it adapts
    text: str  # the line as the solution writes it (stripped)
    why: str
    yaml_line: int = 0  # in lesson.yaml, for lint reports


@dataclass(frozen=True)
class Chapter:
    """One chapter of the code-along: a caption, then ``type`` typed in place of ``find``."""

    title: str
    caption: str
    find: str
    type: str


@dataclass(frozen=True)
class Exercise:
    filename: str  # what the learner's file is called, e.g. building_value.py
    starter: str
    solution: str
    checks_source: str
    checks_path: Path
    check_names: tuple[str, ...]
    mistakes: tuple[Mistake, ...]
    hints: tuple[str, ...]
    codealong: tuple[Chapter, ...]
    # The course's modules the code may import ({"given/train3.py": source}), see library.py.
    library: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # The on-my-own level (levels.py): one text per TODO block of the starter, and the starter
    # with those texts in place of the blocks; () and "" for a lesson without `on_my_own`.
    on_my_own: tuple[str, ...] = ()
    own_starter: str = ""
    on_my_own_lines: tuple[int, ...] = field(default=(), compare=False)  # in lesson.yaml
    # Lines the learner writes that are the program's lines changed on purpose (`adapted:`).
    adapted: tuple[Adapted, ...] = ()

    @property
    def starters(self) -> dict[str, str]:
        """{"guided": starter, "own": on-my-own starter}, the second only when the lesson has it."""
        return {"guided": self.starter, **({"own": self.own_starter} if self.own_starter else {})}

    def level_pairs(self) -> list[tuple[str, str]]:
        """Each TODO block as (guided lines, on-my-own lines); [] without `on_my_own`."""
        from .levels import level_pairs

        return level_pairs(self.starter, self.on_my_own)


@dataclass(frozen=True)
class Widget:
    kind: str
    params: dict[str, Any]
    compute: str = ""  # code run after the solution, setting `data` (see linebyline.authoring.computed)
    line: int = 0  # of `explore:` in lesson.yaml, for reports


@dataclass(frozen=True)
class Choice:
    text: str
    correct: bool
    explain: str


@dataclass(frozen=True)
class WrongAnswer:
    """A number a learner is likely to give, computed like the answer, with its own feedback."""

    compute: str  # code run after the solution that sets `answer`
    explain: str  # the slip that gives this number
    line: int = 0


@dataclass(frozen=True)
class Question:
    kind: str  # "choice" or "predict"
    prompt: str
    explain: str
    choices: tuple[Choice, ...] = ()
    compute: str = ""  # predict: code run after the solution that sets `answer`
    tolerance: float = 0.0
    line: int = 0  # in lesson.yaml, for reports
    wrong: tuple[WrongAnswer, ...] = ()  # predict: expected wrong numbers
    worked: str = ""  # predict: the worked answer shown after two misses (else `explain`)
    # Why the page's match for the answer (lint's "printed above the quiz") is not a giveaway.
    not_given_away: str = ""


@dataclass(frozen=True)
class Lesson:
    number: str  # "7.4"
    slug: str
    title: str
    lead: str  # one or two sentences under the title: why this lesson matters for the program
    minutes: int
    module: int
    script: str
    unlocks: tuple[tuple[int, int], ...]  # inclusive line ranges of the program
    where: str  # Markdown: where the unlocked lines live and run in the finished program
    original: tuple[tuple[int, int], ...]  # the matching lines of the original program
    watch: str  # Markdown
    explore: Widget
    exercise: Exercise
    quiz: tuple[Question, ...]
    path: Path
    facts: str = ""  # code run after the solution that sets `facts`, numbers the prose quotes

    kind = "lesson"  # what the terminal calls it: "lesson 7.5", "recall review-7"

    @property
    def key(self) -> tuple[int, ...]:
        return tuple(int(part) for part in self.number.split("."))

    def unlocked_lines(self) -> set[int]:
        return {n for start, end in self.unlocks for n in range(start, end + 1)}


@dataclass(frozen=True)
class Recall:
    """A module's recall exercise: its code written again from memory, in one file.

    It answers to what a lesson's Build does (a number, a title, an exercise), so the checking,
    the progress and the terminal's commands take it as they take a lesson; its checks are
    those of the module's lessons together (``lessons``), gathered by the runtime's gather().
    """

    module: int
    exercise: Exercise
    path: Path  # the review's YAML file
    lessons: tuple[str, ...]  # whose checks judge it, in order
    kind = "recall"

    @property
    def number(self) -> str:
        return recall_number(self.module)

    @property
    def slug(self) -> str:
        return "from-memory"

    @property
    def title(self) -> str:
        return f"Module {self.module} from memory"

    @property
    def key(self) -> tuple[int, ...]:
        return (self.module, 1000)  # after every lesson of its module

    def unlocked_lines(self) -> set[int]:
        return set()  # it teaches no new line: it asks again for the module's


def recall_number(module: int) -> str:
    """A recall exercise's name in progress, URLs and commands: review-7."""
    return f"review-{module}"


@dataclass(frozen=True)
class Review:
    """A module's review: what the learner built, and questions that tie its lessons together."""

    summary: str  # Markdown
    quiz: tuple[Question, ...]
    path: Path  # the review's YAML file
    facts: str = ""  # code that sets `facts`, run after the module's last solution
    recall: Recall | None = None


@dataclass
class Module:
    number: int
    title: str
    script: str
    planned: tuple[str, ...]  # lesson titles of the curriculum, published or not
    lessons: list[Lesson] = field(default_factory=list)
    review: Review | None = None
    # The Build's Graph tab on this module's lessons: "chain" (backward() steps are held to the
    # chain rule), "paths" (to counting paths, module 3), or "" for no Graph tab.
    graph: str = ""


@dataclass
class Course:
    slug: str
    title: str
    path: Path
    program_name: str  # microgpt.py
    program: str  # its text
    original_url: str  # the guide a lesson links to
    original_code: str  # the original program's page; line anchors are added to it
    modules: list[Module]

    def lessons(self) -> Iterator[Lesson]:
        for module in self.modules:
            yield from module.lessons

    def lesson(self, number: str) -> Lesson | None:
        return next((lesson for lesson in self.lessons() if lesson.number == number), None)

    def recalls(self) -> Iterator[Recall]:
        for module in self.modules:
            if module.review is not None and module.review.recall is not None:
                yield module.review.recall

    def item(self, number: str) -> Lesson | Recall | None:
        """What a learner can check under ``number``: a lesson (7.5) or a recall (review-7)."""
        return self.lesson(number) or next(
            (recall for recall in self.recalls() if recall.number == number), None)

    def program_lines(self) -> list[str]:
        return self.program.split("\n")

    def countable_lines(self) -> set[int]:
        """Line numbers (1-based) of the program's non-blank lines: what a learner can learn."""
        return {n for n, text in enumerate(self.program_lines(), 1) if text.strip()}

    def original_lines_url(self, start: int, end: int) -> str:
        """A link to lines start-end of the original program (a GitHub gist's line anchors)."""
        name = self.program_name.replace(".", "-")
        return f"{self.original_code}#file-{name}-L{start}-L{end}"

    def uncovered_lines(self) -> list[int]:
        covered = set().union(*(lesson.unlocked_lines() for lesson in self.lessons()))
        return sorted(self.countable_lines() - covered)
