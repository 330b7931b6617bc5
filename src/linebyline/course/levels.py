"""The two levels of a Build's TODO comments: *guided* (the starter's own TODO comments, which say
how to write the lines) and *on my own* (the lesson's `on_my_own:` texts, which say only what the
lines must achieve and which check proves it). Both starters have the same code; only the TODO
blocks' comment lines differ.

A TODO block is a comment line whose text (after `#` and spaces) starts with `TODO`, with the
comment lines directly after it at the same indentation that do not start a TODO of their own
(its continuation).

Standard library only, and no import from the rest of linebyline: the browser's Python runs this
very file beside mine/assemble.py (as `linebyline_levels`), which reads an on-my-own draft back as
a guided one.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

WIDTH = 100  # columns an on-my-own TODO block is wrapped to, indentation and `#` included
CONTINUATION = "#       "  # a block's further lines: the text lines up after `# TODO: `
_COMMENT = re.compile(r"^([ \t]*)#(.*)$")
GUIDED, OWN = "guided", "own"
LEVELS = (GUIDED, OWN)


@dataclass(frozen=True)
class TodoBlock:
    """Lines [start, end) of a starter (0-based): one TODO comment and its continuation."""

    start: int
    end: int
    indent: str
    lines: tuple[str, ...]


def _is_todo(text: str) -> bool:
    return text.strip().startswith("TODO")


def todo_blocks(source: str) -> list[TodoBlock]:
    """Every TODO block of ``source``, in order."""
    lines = source.split("\n")
    blocks = []
    index = 0
    while index < len(lines):
        match = _COMMENT.match(lines[index])
        if not match or not _is_todo(match.group(2)):
            index += 1
            continue
        indent, end = match.group(1), index + 1
        while end < len(lines):
            further = _COMMENT.match(lines[end])
            if not further or further.group(1) != indent or _is_todo(further.group(2)):
                break
            end += 1
        blocks.append(TodoBlock(index, end, indent, tuple(lines[index:end])))
        index = end
    return blocks


def wrap_todo(text: str, indent: str) -> list[str]:
    """An on-my-own text as comment lines at ``indent``, wrapped to WIDTH columns."""
    return textwrap.wrap(" ".join(text.split()), width=WIDTH, initial_indent=f"{indent}# ",
                         subsequent_indent=f"{indent}{CONTINUATION}", break_long_words=False,
                         break_on_hyphens=False)


def level_pairs(starter: str, texts: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """Each TODO block as (its guided lines, its on-my-own lines), each joined by newlines; []
    when ``texts`` does not give one text per block."""
    blocks = todo_blocks(starter)
    if not texts or len(texts) != len(blocks):
        return []
    return [("\n".join(block.lines), "\n".join(wrap_todo(text, block.indent)))
            for block, text in zip(blocks, texts)]


def own_starter(starter: str, texts: tuple[str, ...] | list[str]) -> str:
    """The starter with each TODO block's comment lines replaced by its on-my-own text; "" when
    ``texts`` does not give one text per block. Code lines are never changed."""
    blocks = todo_blocks(starter)
    if not texts or len(texts) != len(blocks):
        return ""
    lines = starter.split("\n")
    for block, text in reversed(list(zip(blocks, texts))):
        lines[block.start:block.end] = wrap_todo(text, block.indent)
    return "\n".join(lines)


def switch_blocks(text: str, pairs: list[tuple[str, str]] | list[list[str]], to: str) -> str:
    """``text`` with every TODO block still present and unchanged at the other level rewritten to
    level ``to`` ("guided" or "own"). Blocks are looked for in order, each after the one before
    it; a block the learner changed, or removed, is left as it is, and so is every other line.

    frontend/src/levels.ts does the same in the browser."""
    if to not in LEVELS:
        raise ValueError(f"a level is {' or '.join(LEVELS)}, not {to!r}")
    lines = text.replace("\r\n", "\n").split("\n")
    ends = "\r\n" if "\r\n" in text else "\n"
    position = 0
    for guided, own in pairs:
        wanted, replacement = (own, guided) if to == GUIDED else (guided, own)
        block = wanted.split("\n")
        at = _find(lines, block, position)
        if at is None:
            continue
        new = replacement.split("\n")
        lines[at:at + len(block)] = new
        position = at + len(new)
    return ends.join(lines)


def _find(lines: list[str], block: list[str], start: int) -> int | None:
    """Where ``block`` stands in ``lines`` at or after ``start`` (trailing spaces aside)."""
    wanted = [line.rstrip() for line in block]
    for at in range(start, len(lines) - len(block) + 1):
        if all(lines[at + k].rstrip() == wanted[k] for k in range(len(block))):
            return at
    return None


def level_of(text: str, pairs: list[tuple[str, str]] | list[list[str]]) -> str | None:
    """The level whose TODO blocks ``text`` holds more of (guided on a tie), or None when it holds
    none of either."""
    lines = text.replace("\r\n", "\n").split("\n")
    guided = sum(_find(lines, g.split("\n"), 0) is not None for g, _ in pairs)
    own = sum(_find(lines, o.split("\n"), 0) is not None for _, o in pairs)
    if not guided and not own:
        return None
    return OWN if own > guided else GUIDED
