"""Lesson prose: Markdown, and what it may carry besides: computed facts and references to lessons.

``{{name}}`` (or ``{{name:spec}}``, a Python format spec) is a number the lesson's ``facts``
code computes, so that a count quoted in the text is the data's, not a hand-typed one.
"lesson 8.1" (or "lessons 3.3 and 3.4") is a reference the pages link, or mark "coming soon"
while the lesson is only planned.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

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


_markdown = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable("table")


def _focusable(renderer, tokens, index, options, env) -> str:
    """Tables may scroll sideways on a phone: keyboard users must be able to reach them."""
    tokens[index].attrSet("tabindex", "0")
    return renderer.renderToken(tokens, index, options, env)


_markdown.add_render_rule("table_open", _focusable)


def markdown(text: str) -> str:
    """Markdown to HTML; raw HTML in the source is escaped, never passed through."""
    html = _markdown.render(text)
    # A fenced code block renders as <pre><code>; let the <pre>, which scrolls, take focus.
    return html.replace("<pre><code", '<pre tabindex="0"><code')


def inline_markdown(text: str) -> str:
    """One line of Markdown (`code`, *emphasis*) to HTML, without a paragraph around it."""
    return _markdown.renderInline(text)


def _inline_tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        if token.children:
            yield from token.children


def underscore_emphasis(text: str) -> list[str]:
    """What underscores make bold or italic: in this course always a Python name written outside
    backticks (`__init__` shows as a bold "init"), never meant."""
    found, inside = [], None
    for token in _inline_tokens(_markdown.parse(text)):
        if token.type in ("strong_open", "em_open") and "_" in token.markup:
            inside = token.markup
            found.append(inside)
        elif token.type in ("strong_close", "em_close") and token.markup == inside:
            found[-1] += token.markup
            inside = None
        elif inside is not None and token.type == "text":
            found[-1] += token.content
    return found
