"""The Parsons rung of "Stuck?": the code-along's lines to put in order, with one wrong line
among them, drawn from the lesson's known mistakes."""
from __future__ import annotations

import re

from .model import Exercise


def _code(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def answer_lines(exercise: Exercise) -> list[str]:
    """The code lines the code-along types, in file order, as written (indentation kept; the
    comments it types are not lines to put in order). Its chapters may teach them in another
    order, and a chapter may type into a line an earlier one typed: so the chapters are played
    on the starter, each code line tagged, and the tags read back in file order. The page does
    the same (parsons.ts)."""
    text, lines = exercise.starter, []
    for chapter in exercise.codealong:
        typed = []
        for line in chapter.type.splitlines(keepends=True):
            if _code(line):
                typed.append(f"\0{len(lines)}\0{line}")
                lines.append(line.rstrip("\n"))
            else:
                typed.append(line)
        if chapter.find not in text:  # it finds a line typed before: chapter order it is
            return [line for c in exercise.codealong for line in c.type.splitlines() if _code(line)]
        text = text.replace(chapter.find, "".join(typed), 1)
    return [lines[int(tag)] for tag in re.findall(r"\0(\d+)\0", text)]


def distractor(exercise: Exercise) -> str:
    """A line of the answer as a known mistake writes it (`child.grad = ...` for `+=`), or ""
    when no mistake changes a single answer line into a line that is not one of them."""
    answer = answer_lines(exercise)
    stripped = {line.strip() for line in answer}
    for mistake in exercise.mistakes:
        for edit in mistake.edits:
            if "\n" in edit.find.strip() or "\n" in edit.replace.strip() or not edit.find.strip():
                continue
            for line in answer:
                if edit.find in line:
                    wrong = line.replace(edit.find, edit.replace, 1).strip()
                    if wrong and "\n" not in wrong and wrong not in stripped:
                        return wrong
    return ""
