"""What lesson prose may carry besides Markdown: computed facts and references to lessons.

``{{name}}`` (or ``{{name:spec}}``, a Python format spec) is a number the lesson's ``facts``
code computes, so that a count quoted in the text is the data's, not a hand-typed one.
"lesson 8.1" (or "lessons 3.3 and 3.4") is a reference the pages link, or mark "coming soon"
while the lesson is only planned.
"""
from __future__ import annotations

import re
from typing import Any

FACT = re.compile(r"\{\{\s*([A-Za-z_]\w*)\s*(?::([^}]*))?\}\}")
# "lesson 8.1", "lessons 3.3 and 3.4", "lessons 6.2, 6.3 or 6.4"
LESSON_REFERENCE = re.compile(
    r"\b([Ll]essons?) (\d+\.\d+)((?:(?:,| and| or|, and|, or) \d+\.\d+)*)")
TAG = re.compile(r"(<[^>]+>)")


def fill_facts(text: str, facts: dict[str, Any]) -> str:
    """``{{name}}`` and ``{{name:spec}}`` replaced by the lesson's computed facts.

    Whole numbers get thousands separators unless a spec says otherwise; an unknown name is
    left as it is (lint reports it).
    """
    def fill(match: re.Match[str]) -> str:
        name, spec = match.group(1), match.group(2)
        if name not in facts:
            return match.group(0)
        value = facts[name]
        if spec is None:
            spec = "," if isinstance(value, int) else ""
        return format(value, spec)

    return FACT.sub(fill, text)


def fact_names(text: str) -> set[str]:
    return {match.group(1) for match in FACT.finditer(text)}


def lesson_references(text: str) -> list[str]:
    """Every lesson number a text refers to as "lesson N.N" (or in a list after "lessons")."""
    numbers = []
    for match in LESSON_REFERENCE.finditer(text):
        numbers.append(match.group(2))
        numbers.extend(re.findall(r"\d+\.\d+", match.group(3)))
    return numbers
