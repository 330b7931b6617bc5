"""The learner's own version of a course script, assembled from their passing lesson code.

A lesson's exercise is a starter with TODO blocks and a solution, and the lines a learner writes
are real lines of the course's scripts (the lint checks it). So each TODO block can be found in a
script (train0.py ... microgpt.py): the solution's lines for it, in order, where the surrounding
lines agree best. Assembling puts there the lines the learner wrote in that block instead, for
every lesson whose checks they passed; every other place keeps the reference and says why.

This is text work only, in the standard library: the web page, the CLI and the tests use this one
implementation, and the learner's code is parsed here, never run. Offline, My microgpt runs this
very file in the browser's Python, on the course as plain data (`plain_course`, `PlainCourse`).
"""
from __future__ import annotations

import ast
import builtins
import difflib
import re
import symtable
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

try:
    from ..course.levels import switch_blocks
except ImportError:  # in the browser's Python this file runs alone, with levels.py beside it
    from linebyline_levels import switch_blocks  # type: ignore[no-redef]

if TYPE_CHECKING:  # only the types: in the browser this file runs without the course package
    from ..course import Course, Lesson

STATUSES = ("not-started", "in-progress", "done")
MAX_DRAFT_CHARS = 200_000  # what the browser's editor holds (progress.ts MAX_DRAFT)
MAX_DRAFT_LINES = 2_000  # a lesson's file is about a hundred lines
CONTEXT = 5  # code lines either side that decide between two places a block could go
MAX_JOIN = 2  # code lines between a top-level change and the TODO block it joins
MAX_GAP = 2  # script lines a block may have between two of its lines (`__slots__`, say)
DEMO = re.compile(r"""^if\s+__name__\s*==\s*(['"])__main__\1\s*:""")


@dataclass(frozen=True)
class Work:
    """What the learner's progress holds for one lesson: its status and the code that passed
    its checks (never a draft that was not checked, or failed), or why there is none."""

    status: str
    draft: str | None = None  # the code that passed
    missing: str = ""  # why a lesson done has no code that passed ("" : none was saved)


@dataclass
class Region:
    """Lines of the script that a lesson teaches, and whose code fills them."""

    lesson: str
    title: str
    first: int  # 1-based lines in the assembled file, inclusive
    last: int
    origin: str  # "yours" or "reference"
    reason: str = ""  # why the reference is used here
    reference_first: int = 0  # the same lines in the reference script
    reference_last: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"lesson": self.lesson, "title": self.title, "first": self.first,
                "last": self.last, "origin": self.origin, "reason": self.reason,
                "reference_first": self.reference_first, "reference_last": self.reference_last}


@dataclass
class Assembly:
    """One script, with every region the learner has done filled with their code."""

    script: str
    text: str
    regions: list[Region]
    notes: list[str] = field(default_factory=list)

    @property
    def filename(self) -> str:
        return f"my_{self.script}"

    @property
    def yours(self) -> int:
        return sum(region.origin == "yours" for region in self.regions)

    def to_dict(self) -> dict[str, object]:
        return {"script": self.script, "filename": self.filename, "text": self.text,
                "regions": [region.to_dict() for region in self.regions],
                "yours": self.yours, "total": len(self.regions), "notes": self.notes}


class ProgressError(Exception):
    """A progress file that is not linebyline progress for this course."""


# --- reading lines ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    kind: str  # "code", "comment" (docstrings too) or "blank"
    key: str  # code without its comment, or the comment, stripped: what two lines match on


def _clean(text: str) -> list[str]:
    """Lines without line ends, tabs expanded as Python reads them, trailing spaces dropped."""
    return [line.expandtabs(8).rstrip() for line in text.replace("\r\n", "\n").split("\n")]


def _read_lines(lines: list[str]) -> list[Line]:
    """Each line's kind and key."""
    read = []
    strings = _string_statements(lines)
    quote = ""  # the triple quote a string that spans lines was opened with
    for index, line in enumerate(lines):
        stripped = line.strip()
        comment, quote = _comment_at(line, quote)
        if not stripped:
            read.append(Line("blank", ""))
        elif stripped.startswith("#") or index in strings:
            read.append(Line("comment", stripped))
        else:
            read.append(Line("code", line[:comment].strip()))
    return read


def _comment_at(line: str, quote: str) -> tuple[int, str]:
    """Where the line's comment starts (its length if none), and the triple quote still open at
    its end. A `#` inside a string starts no comment."""
    index = 0
    while index < len(line):
        if quote:
            if line.startswith("\\", index):
                index += 2
                continue
            if line.startswith(quote, index):
                index += len(quote)
                quote = ""
                continue
            index += 1
            if len(quote) == 1 and index == len(line):
                quote = ""  # a one-line string does not go on to the next line
            continue
        char = line[index]
        if char == "#":
            return index, ""
        if char in "'\"":
            quote = char * 3 if line.startswith(char * 3, index) else char
            index += len(quote)
            continue
        index += 1
    return len(line), quote if len(quote) == 3 else ""


def _string_statements(lines: list[str]) -> set[int]:
    """Lines of statements that are only a string (docstrings): like comments, they do nothing."""
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    found: set[int] = set()
    bodies = [tree.body]
    while bodies:
        for node in bodies.pop():
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str):
                found.update(range(node.lineno - 1, node.end_lineno or node.lineno))
            for name in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, name, None)
                if isinstance(inner, list):
                    bodies.append(inner)
    return found


def _without_demo(lines: list[str]) -> list[str]:
    """A lesson file without the demo at its end (`if __name__ == "__main__":`), which no
    script has, and without the blank lines before it."""
    for index, line in enumerate(lines):
        if DEMO.match(line):
            lines = lines[:index]
            break
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _reindent(lines: list[str], delta: int) -> list[str] | None:
    """Shift code right (delta > 0) or left; None if a line has too little indentation to lose."""
    out = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif delta >= 0:
            out.append(" " * delta + line)
        elif _indent(line) >= -delta:
            out.append(line[-delta:])
        else:
            return None
    return out


def _trim_blank(lines: list[str]) -> list[str]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _map_position(ops: list[tuple[str, int, int, int, int]], position: int) -> int:
    """Where a position between lines of the first text falls in the second, given the diff.

    Exact for positions inside unchanged stretches and at the edges of changes, which is all
    this module asks for."""
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal" and i1 <= position <= i2:
            return j1 + position - i1
        if tag != "equal" and position == i1:
            return j1
        if tag != "equal" and position == i2:
            return j2
    return ops[-1][4] if ops else 0


def _map_end(ops: list[tuple[str, int, int, int, int]], position: int) -> int:
    """As _map_position, for the end of a stretch: lines the second text inserts right at that
    position belong to the stretch (code a learner added after a TODO block's last line)."""
    for tag, i1, i2, _j1, j2 in ops:
        if tag == "insert" and i1 == i2 == position:
            return j2
    return _map_position(ops, position)


def _ops(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


# --- a script ---------------------------------------------------------------------------------

class Script:
    """A course script's lines, read once."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text
        self.lines = _clean(text)
        if self.lines and self.lines[-1] == "":  # the file's last line end
            self.lines.pop()
        self.read = _read_lines(self.lines)
        self.code = [index for index, line in enumerate(self.read) if line.kind == "code"]
        self.keys = [self.read[index].key for index in self.code]

    @cached_property
    def defined(self) -> set[str]:
        """The names the script defines at its top level (or declares global and assigns)."""
        found: set[str] = set()
        _names(symtable.symtable(self.text, self.name, "exec"), True, found, set())
        return found


@dataclass(frozen=True)
class Piece:
    """Script lines [start, end) that hold code lines lo..hi (inclusive) of a lesson's block,
    which the script indents `delta` spaces further right than the lesson does."""

    start: int
    end: int
    delta: int
    lo: int
    hi: int


Place = tuple[Piece, ...]  # a block's lines in a script: in one piece, or with script lines between


# --- a lesson ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hunk:
    """One TODO block: starter lines [a, b) became solution lines [c, d)."""

    a: int
    b: int
    c: int
    d: int


@dataclass
class Change:
    """What the learner wrote for one or more TODO blocks (and lines they changed with them)."""

    a: int  # starter lines [a, b)
    b: int
    c: int  # the solution's lines for the same stretch, [c, d)
    d: int
    hunks: tuple[int, ...]  # indices into Plan.hunks
    lines: list[str]  # the learner's lines, TODO comments they left removed


class Plan:
    """A lesson's TODO blocks and where each goes in each script (the same for every learner)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        # Each TODO block at both levels (guided, on my own): a draft started from the on-my-own
        # starter is read as the guided one it equals but for those comments.
        pairs = getattr(lesson.exercise, "level_pairs", None)
        self.levels = list(pairs()) if callable(pairs) else []
        self.starter = _without_demo(_clean(lesson.exercise.starter))
        self.solution = _without_demo(_clean(lesson.exercise.solution))
        self.solution_read = _read_lines(self.solution)
        self.starter_read = _read_lines(self.starter)
        self.ops = _ops(self.starter, self.solution)
        self.hunks = [Hunk(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in self.ops if tag != "equal"
                      and any(line.kind == "code" for line in self.solution_read[j1:j2])]
        self._places: dict[str, dict[int, list[Place]]] = {}
        self._changes: dict[str, list[Change] | str] = {}

    @cached_property
    def functions(self) -> list[tuple[int, int, int]]:
        """(first line, end line, indentation) of every def in the starter, 0-based, end excluded."""
        try:
            tree = ast.parse("\n".join(self.starter))
        except SyntaxError:
            return []
        return [(node.lineno - 1, node.end_lineno or node.lineno, node.col_offset)
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]

    @cached_property
    def todo_comments(self) -> set[str]:
        return {line.strip() for hunk in self.hunks for line in self.starter[hunk.a:hunk.b]
                if line.strip().startswith("#")}

    def places(self, script: Script) -> dict[int, list[Place]]:
        """Where each TODO block is in the script (only the blocks it has)."""
        if script.name not in self._places:
            found = {index: self.locate(hunk.c, hunk.d, script)
                     for index, hunk in enumerate(self.hunks)}
            self._places[script.name] = {index: places for index, places in found.items() if places}
        return self._places[script.name]

    def locate(self, c: int, d: int, script: Script) -> list[Place]:
        """Where solution lines [c, d) are in the script (locate_block)."""
        return locate_block(self.solution_read, self.solution, c, d, script)

    # --- the learner's side ---------------------------------------------------------------

    def changes_cached(self, draft: str) -> list[Change] | str:
        """`changes`, remembered for the last few drafts (every script asks for the same)."""
        if draft not in self._changes:
            if len(self._changes) >= 8:
                self._changes.pop(next(iter(self._changes)))
            self._changes[draft] = self.changes(draft)
        return self._changes[draft]

    def changes(self, draft: str) -> list[Change] | str:
        """What the learner wrote in each TODO block, or why their code cannot be read that way.

        Their file is compared with the starter. Every change that touches a TODO block belongs
        to it; a change elsewhere inside a function that holds a TODO block joins the nearest
        block there (their new code may need it); changes anywhere else are their business."""
        lines = _clean(draft)
        if len(draft) > MAX_DRAFT_CHARS or len(lines) > MAX_DRAFT_LINES:
            return (f"your saved code is {len(lines):,} lines long, far longer than the lesson's "
                    "file, so it was not placed")
        if self.levels:  # on-my-own TODO blocks still there read as the guided ones
            lines = _clean(switch_blocks("\n".join(lines), self.levels, "guided"))
        lines = _without_demo(lines)
        ops = _ops(self.starter, lines)
        theirs = _read_lines(lines)
        edits = [(i1, i2) for tag, i1, i2, j1, j2 in ops if tag != "equal"
                 and (any(_touches(i1, i2, h.a, h.b) for h in self.hunks)
                      or _code(self.starter_read[i1:i2]) != _code(theirs[j1:j2]))]
        spans: list[list] = [[h.a, h.b, {n}] for n, h in enumerate(self.hunks)]
        apart = []
        for a, b in edits:
            if any(_touches(a, b, h.a, h.b) for h in self.hunks):
                spans.append([a, b, set()])
            else:
                apart.append((a, b))
        spans = _merge(spans)
        for a, b in apart:
            joined = self._join(a, b, lines, ops, spans)
            if joined is not None:
                spans.append(joined)
        spans = _merge(spans)
        touched = [n for n, h in enumerate(self.hunks)
                   if any(_touches(a, b, h.a, h.b) for a, b in edits)]
        untouched = [n for n in range(len(self.hunks)) if n not in touched]
        if untouched:
            line = self.hunks[untouched[0]].a + 1
            return (f"its saved code still has the TODO on line {line} as the starter has it "
                    "(was it changed after its checks passed?), so the reference is used")
        found = []
        for a, b, hunks in spans:
            if not hunks:
                continue
            x, y = _map_position(ops, a), _map_end(ops, b)
            mine = [line for line in lines[x:y] if line.strip() not in self.todo_comments]
            found.append(Change(a, b, _map_position(self.ops, a), _map_position(self.ops, b),
                                tuple(sorted(hunks)), _trim_blank(mine)))
        return found

    def split(self, change: Change, place: Place,
              script: Script) -> list[tuple[Piece, list[str]]] | None:
        """The learner's lines cut to fit the place's pieces, or None if they cannot be.

        Where the script holds two code lines of the block apart, the learner's code is cut
        between its versions of those two lines, or, if it has exactly the script's lines
        between them, kept whole over them. Their versions are found by comparing their lines
        with the solution's: the same lines, or changed one for one."""
        if len(place) == 1:
            return [(place[0], change.lines)]
        read = self.solution_read
        block = [i for i in range(change.c, change.d) if read[i].kind == "code"]
        theirs = _read_lines(change.lines)
        their_code = [i for i, line in enumerate(theirs) if line.kind == "code"]
        matched: dict[int, int] = {}
        for tag, i1, i2, j1, j2 in _ops([read[i].key for i in block],
                                        [theirs[i].key for i in their_code]):
            if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
                matched.update({i1 + k: j1 + k for k in range(i2 - i1)})
        pieces = [place[0]]
        cuts = []
        for piece in place[1:]:
            k = pieces[-1].hi
            if k not in matched or k + 1 not in matched:
                return None
            if matched[k + 1] == matched[k] + 1:
                cuts.append(their_code[matched[k]] + 1)
                pieces.append(piece)
                continue
            between = [theirs[their_code[m]].key for m in range(matched[k] + 1, matched[k + 1])]
            gap = [script.read[i].key for i in range(pieces[-1].end, piece.start)
                   if script.read[i].kind == "code"]
            if between != gap \
                    or piece.delta != pieces[-1].delta:
                return None
            pieces[-1] = replace(pieces[-1], end=piece.end, hi=piece.hi)
        bounds = [0, *cuts, len(change.lines)]
        return [(piece, _trim_blank(change.lines[x:y]))
                for piece, x, y in zip(pieces, bounds, bounds[1:])]

    def _join(self, a: int, b: int, lines: list[str], ops, spans) -> list | None:
        """A change away from every TODO block: the span it makes with the nearest block in the
        same function; at the top level, with a block at most MAX_JOIN code lines away. None
        when there is no such block (the change is then the learner's own business)."""
        inserted = lines[_map_position(ops, a):_map_position(ops, b)]
        blocks = [s for s in spans if s[2]]
        in_a_function = False
        for start, end, indent in sorted(self.functions, key=lambda f: f[1] - f[0]):
            inside = start < a and b <= end if a < b else start < a < end or (
                a == end and any(_indent(x) > indent for x in inserted if x.strip()))
            if not inside:
                continue
            in_a_function = True
            near = [s for s in blocks if start <= s[0] and s[1] <= end]
            if near:
                nearest = min(near, key=lambda s: min(abs(s[0] - b), abs(a - s[1])))
                return [min(a, nearest[0]), max(b, nearest[1]), set()]
        if in_a_function:
            return None
        code = [line.kind == "code" for line in self.starter_read]

        def distance(s: list) -> int:
            low, high = (s[1], a) if s[1] <= a else (b, s[0])
            return sum(code[low:high])

        near = [s for s in blocks if distance(s) <= MAX_JOIN]
        if not near:
            return None
        nearest = min(near, key=distance)
        return [min(a, nearest[0]), max(b, nearest[1]), set()]


def locate_block(read: list[Line], solution: list[str], c: int, d: int,
                 script: Script) -> list[Place]:
    """Where solution lines [c, d) are in the script: their code lines in order, together or
    with a few script lines between (a line the lesson leaves out, like `__slots__`).

    Where they occur more than once, the place whose neighbouring code lines match the
    solution's best wins; places that match equally well all get the block (the learner's
    line is the script's line in each)."""
    block = [i for i in range(c, d) if read[i].kind == "code"]
    if not block:
        return []
    keys = [read[i].key for i in block]
    solution_code = [i for i, line in enumerate(read) if line.kind == "code"]
    first = solution_code.index(block[0])
    before = [read[i].key for i in solution_code[max(0, first - CONTEXT):first]][::-1]
    after = [read[i].key for i in solution_code[first + len(keys):first + len(keys) + CONTEXT]]
    found = []
    for p, key in enumerate(script.keys):
        if key != keys[0]:
            continue
        matched = [p]
        for wanted in keys[1:]:
            window = script.keys[matched[-1] + 1:matched[-1] + 2 + MAX_GAP]
            if wanted not in window:
                break
            matched.append(matched[-1] + 1 + window.index(wanted))
        if len(matched) < len(keys):
            continue
        score = sum(1 for k, key in enumerate(before) if matched[0] - 1 - k >= 0
                    and script.keys[matched[0] - 1 - k] == key)
        score += sum(1 for k, key in enumerate(after) if matched[-1] + 1 + k < len(script.keys)
                     and script.keys[matched[-1] + 1 + k] == key)
        together = matched[-1] - matched[0] == len(keys) - 1
        found.append(((together, score), matched))
    if not found:
        return []
    best = max(rank for rank, _ in found)
    places = [_pieces(read, solution, c, block, script, matched) for rank, matched in found if rank == best]
    return [place for place in places if place]


def _pieces(read: list[Line], solution: list[str], c: int, block: list[int], script: Script,
            matched: list[int]) -> Place | None:
    """The pieces of a located block: runs of its code lines that are together in the script."""
    pieces = []
    lo = 0
    for k in range(1, len(matched) + 1):
        if k < len(matched) and matched[k] == matched[k - 1] + 1:
            continue
        lines = [script.code[m] for m in matched[lo:k]]
        deltas = {_indent(script.lines[s]) - _indent(solution[i])
                  for s, i in zip(lines, block[lo:k])}
        if len(deltas) != 1:
            return None
        pieces.append(Piece(lines[0], lines[-1] + 1, deltas.pop(), lo, k - 1))
        lo = k
    # A comment line the solution has just above its code, the script has too: include it.
    leading = {read[i].key for i in range(c, block[0]) if read[i].kind == "comment"}
    start = pieces[0].start
    while start > 0 and script.read[start - 1].kind == "comment" \
            and script.read[start - 1].key in leading:
        start -= 1
    pieces[0] = replace(pieces[0], start=start)
    return tuple(pieces)


def _code(lines: list[Line]) -> list[str]:
    return [line.key for line in lines if line.kind == "code"]


def _touches(a: int, b: int, c: int, d: int) -> bool:
    """Do line stretches [a, b) and [c, d) overlap or meet (an insertion at an edge meets)?"""
    return a <= d and c <= b


def _merge(spans: list[list]) -> list[list]:
    """Join stretches that overlap or meet, keeping the TODO blocks each holds."""
    merged: list[list] = []
    for a, b, hunks in sorted(spans, key=lambda s: (s[0], s[1])):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
            merged[-1][2] |= hunks
        else:
            merged.append([a, b, set(hunks)])
    return merged


# --- assembling a script ----------------------------------------------------------------------

@dataclass
class _Candidate:
    """A lesson's claim on script lines: pieces [start, end) and the lines put there (None: the
    reference), with how many code lines of the script it covers."""

    lesson: Lesson
    pieces: list[tuple[int, int, list[str] | None]]
    weight: int = 0
    reason: str = ""

    def overlaps(self, other: _Candidate) -> bool:
        return any(a < d and c < b for a, b, _ in self.pieces for c, d, _ in other.pieces)


STATUS_REASON = {
    "not-started": "not started yet",
    "in-progress": "in progress: its checks have not all passed yet",
}
MAX_BRUTE_FORCE = 12  # claims that overlap one another, weighed in every combination


class Assembler:
    """Assembles any of a course's scripts for any learner; what does not depend on the learner
    (where each lesson's blocks go) is worked out once."""

    def __init__(self, course: Course) -> None:
        self.course = course
        self.plans = [Plan(lesson) for lesson in course.lessons()]
        names = sorted({module.script for module in course.modules} - {course.program_name})
        self.script_names = [*names, course.program_name]
        self._scripts: dict[str, Script] = {}

    def script(self, name: str) -> Script:
        if name not in self._scripts:
            if name not in self.script_names:
                raise KeyError(name)
            text = (self.course.path / name).read_text(encoding="utf-8")
            self._scripts[name] = Script(name, text)
        return self._scripts[name]

    def resolve(self, name: str) -> str:
        """`train2`, `train2.py`, `microgpt` -> the script's file name; KeyError if unknown."""
        candidate = name if name.endswith(".py") else f"{name}.py"
        if candidate not in self.script_names:
            raise KeyError(name)
        return candidate

    def lessons_in(self, name: str) -> list[str]:
        """The lessons with at least one TODO block in this script."""
        script = self.script(name)
        return [plan.lesson.number for plan in self.plans if plan.places(script)]

    def assemble(self, name: str, progress: Mapping[str, Work]) -> Assembly:
        script = self.script(name)
        excluded: dict[str, str] = {}  # lesson -> why its code is not used in this script
        mine: dict[str, list[_Candidate]] = {}
        for plan in self.plans:
            number = plan.lesson.number
            work = progress.get(number)
            if not plan.places(script) or work is None or work.status != "done":
                continue
            found = self._learner_claims(plan, script, work)
            if isinstance(found, str):
                excluded[number] = found
            elif found:
                mine[number] = found
        while True:
            chosen, lost = self._choose(script, progress, mine, excluded)
            text, regions, owners = _render(script, chosen)
            problem = _problem(text, script.name)
            if problem is None:
                break
            for number, why in _blame(problem, regions, owners, script).items():
                excluded[number] = why
                mine.pop(number, None)
        notes = [f"Lesson {loser}: your code for it overlaps your code from lesson {winner} in "
                 f"{script.name}; lesson {winner}'s covers more of it, so that one is used."
                 for loser, winner in lost.items()]
        return Assembly(script.name, text, regions, notes)

    def _learner_claims(self, plan: Plan, script: Script, work: Work) -> list[_Candidate] | str:
        """The learner's code for this lesson, placed in the script; or why it cannot be."""
        if work.draft is None:
            return work.missing or "done, but no saved code came with it, so the reference is used"
        changes = plan.changes_cached(work.draft)
        if isinstance(changes, str):
            return changes
        places = plan.places(script)
        found = []
        for change in changes:
            here = [n for n in change.hunks if n in places]
            if not here:
                continue
            if len(here) < len(change.hunks):
                return (f"your code joins parts of the lesson that {script.name} has only some "
                        "of, so it could not be placed")
            hunk = plan.hunks[here[0]]
            if len(here) == 1 and (change.c, change.d) == (hunk.c, hunk.d):
                block_places = places[here[0]]
            else:
                block_places = [place for place in plan.locate(change.c, change.d, script)
                                if all(any(_within(p, place) for p in places[n]) for n in here)]
            if not block_places:
                return _misfit(plan, change, script)
            for place in block_places:
                parts = plan.split(change, place, script)
                if parts is None:
                    return (f"in {script.name} other lines stand between these lines, and your "
                            "version is written differently just there, so it could not be "
                            "split to fit")
                pieces = []
                for piece, lines in parts:
                    moved = _reindent(lines, piece.delta)
                    if moved is None:
                        return f"its indentation could not be matched to {script.name}"
                    pieces.append((piece.start, piece.end, moved))
                found.append(_Candidate(plan.lesson, pieces, _weight(script, pieces)))
        return found

    def _choose(self, script: Script, progress: Mapping[str, Work],
                mine: dict[str, list[_Candidate]], excluded: dict[str, str]):
        """Every region of the script. Where the learner's code from two lessons claims the same
        lines, the claims that cover more of the script win (the earlier lesson on a tie); the
        reference fills the rest of each lesson's blocks."""
        claims = [c for plan in self.plans for c in mine.get(plan.lesson.number, [])]
        chosen = _best_claims(claims)
        lost: dict[str, str] = {}
        for claim in claims:
            if claim not in chosen:
                winner = next(c for c in chosen if c.overlaps(claim))
                lost.setdefault(claim.lesson.number, winner.lesson.number)
        taken = list(chosen)
        for plan in self.plans:
            number = plan.lesson.number
            work = progress.get(number, Work("not-started"))
            if number in lost:
                reason = (f"done, but your code for it overlaps your code from lesson "
                          f"{lost[number]}, which is used, so these lines keep the reference")
            elif number in excluded:
                reason = excluded[number]
            elif number in mine:
                reason = "done; these lines are covered by your code for another lesson"
            else:
                reason = STATUS_REASON.get(work.status, "done")
            for places in plan.places(script).values():
                for place in places:
                    for piece in place:
                        for start, end in _free_parts(piece.start, piece.end, taken):
                            if any(script.read[i].kind == "code" for i in range(start, end)):
                                taken.append(_Candidate(plan.lesson, [(start, end, None)], 0,
                                                        reason))
        return taken, lost


def _misfit(plan: Plan, change: Change, script: Script) -> str:
    """Why the learner's code, which reaches beyond the TODO blocks, has no place in the script."""
    keys = set(script.keys)
    missing = next((line.key for line in plan.solution_read[change.c:change.d]
                    if line.kind == "code" and line.key not in keys), None)
    if missing:
        return (f"your code also rewrites lines around its TODOs, such as `{missing}`, which "
                f"{script.name} does not have, so it could not be placed")
    return (f"your code also rewrites lines around its TODOs, which {script.name} has in "
            "another order, so it could not be placed")


def _within(inner: Place, outer: Place) -> bool:
    return outer[0].start <= inner[0].start and inner[-1].end <= outer[-1].end


def _weight(script: Script, pieces: list[tuple[int, int, list[str] | None]]) -> int:
    return sum(script.read[i].kind == "code" for start, end, _ in pieces for i in range(start, end))


def _best_claims(claims: list[_Candidate]) -> list[_Candidate]:
    """The claims that do not overlap and cover the most code lines; on a tie, those of the
    earliest lessons. Overlaps are rare and local, so each group of claims that overlap one
    another is weighed in every combination (or, past a dozen, first come first served)."""
    groups: list[list[int]] = []
    for index, claim in enumerate(claims):
        touching = [g for g in groups if any(claims[i].overlaps(claim) for i in g)]
        merged = [i for g in touching for i in g] + [index]
        groups = [g for g in groups if g not in touching] + [sorted(merged)]
    chosen: list[int] = []
    for group in groups:
        if len(group) > MAX_BRUTE_FORCE:
            picked: list[int] = []
            for i in group:
                if not any(claims[i].overlaps(claims[j]) for j in picked):
                    picked.append(i)
            chosen.extend(picked)
            continue
        best: tuple = ()
        best_set: list[int] = []
        for mask in range(1, 1 << len(group)):
            subset = [group[k] for k in range(len(group)) if mask >> k & 1]
            if any(claims[i].overlaps(claims[j]) for n, i in enumerate(subset)
                   for j in subset[n + 1:]):
                continue
            rank = (sum(claims[i].weight for i in subset), [-i for i in subset])
            if not best or rank > best:
                best, best_set = rank, subset
        chosen.extend(best_set)
    return [claims[i] for i in sorted(chosen)]


def _free_parts(start: int, end: int, taken: list[_Candidate]) -> list[tuple[int, int]]:
    """The parts of lines [start, end) that no claim taken so far holds."""
    parts = [(start, end)]
    for claim in taken:
        for c, d, _ in claim.pieces:
            parts = [piece for a, b in parts
                     for piece in (((a, min(b, c)), (max(a, d), b)) if c < b and a < d
                                   else ((a, b),))
                     if piece[0] < piece[1]]
    return parts


def _render(script: Script, chosen: list[_Candidate]):
    """The assembled text, its regions, and the claim each region came from."""
    pieces = sorted(((start, end, lines, claim) for claim in chosen
                     for start, end, lines in claim.pieces), key=lambda p: p[0])
    out: list[str] = []
    regions: list[Region] = []
    owners: list[_Candidate] = []
    position = 0
    for start, end, lines, claim in pieces:
        out.extend(script.lines[position:start])
        first = len(out) + 1
        out.extend(script.lines[start:end] if lines is None else lines)
        regions.append(Region(claim.lesson.number, claim.lesson.title, first,
                              max(first, len(out)), "reference" if lines is None else "yours",
                              claim.reason, start + 1, end))
        owners.append(claim)
        position = end
    out.extend(script.lines[position:])
    return "\n".join(out) + "\n", regions, owners


# --- is the assembled file a program? ---------------------------------------------------------

@dataclass(frozen=True)
class _Problem:
    line: int  # 1-based, in the assembled file
    message: str
    name: str = ""  # for a name that is used but never defined


MODULE_NAMES = {"__name__", "__file__", "__doc__", "__builtins__", "__spec__", "__loader__",
                "__package__", "__annotations__", "__dict__"}


def _problem(text: str, filename: str) -> _Problem | None:
    """A syntax error, or a name the file uses that nothing in it defines; None if neither.

    Only parsing and the compiler's symbol tables: nothing is run."""
    try:
        compile(text, filename, "exec", dont_inherit=True)
        table = symtable.symtable(text, filename, "exec")
        tree = ast.parse(text)
    except SyntaxError as error:
        return _Problem(error.lineno or 1, f"{type(error).__name__}: {error.msg}")
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        return _Problem(1, f"Python cannot read it ({type(error).__name__})")
    defined: set[str] = set()
    used: set[str] = set()
    _names(table, True, defined, used)
    missing = used - defined - set(dir(builtins)) - MODULE_NAMES
    if not missing:
        return None
    uses = sorted((node.lineno, node.id) for node in ast.walk(tree) if isinstance(node, ast.Name)
                  and isinstance(node.ctx, ast.Load) and node.id in missing)
    if not uses:
        return None
    line, name = uses[0]
    return _Problem(line, f"it uses `{name}`, which nothing in it defines", name)


def _names(table: symtable.SymbolTable, top: bool, defined: set[str], used: set[str]) -> None:
    """Collect the module-level names a symbol table defines, and the global names it uses."""
    for symbol in table.get_symbols():
        name = symbol.get_name()
        if top and (symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace()):
            defined.add(name)
        if not top and symbol.is_declared_global() and symbol.is_assigned():
            defined.add(name)
        if symbol.is_referenced() and (top or symbol.is_global()):
            used.add(name)
    for child in table.get_children():
        _names(child, False, defined, used)


def _blame(problem: _Problem, regions: list[Region], owners: list[_Candidate],
           script: Script) -> dict[str, str]:
    """The lessons whose code causes the problem, each with why it is not used."""
    mine = [(region, owner) for region, owner in zip(regions, owners) if region.origin == "yours"]
    if not mine:
        raise AssertionError(f"{script.name} itself has a problem: {problem.message}")
    everyone = [region for region, _ in mine]
    inside = [region for region in everyone if region.first <= problem.line <= region.last]
    if problem.name and problem.name not in script.defined:
        # A name of the learner's own that the script never had: their code needs something
        # that stayed behind in their lesson file.
        return {region.lesson: (
            f"your code uses `{problem.name}`, which {script.name} does not define (is it "
            "defined elsewhere in your lesson file?), so the reference is used")
            for region in inside or everyone}
    if problem.name:
        # The script defines it, so some code put in place of the reference left it out.
        word = re.compile(rf"\b{re.escape(problem.name)}\b")
        definers = [region for region in everyone if any(
            word.search(line) for line in
            script.lines[region.reference_first - 1:region.reference_last])]
        return {region.lesson: (f"your code does not define `{problem.name}`, which the rest "
                                f"of {script.name} uses, so the reference is used")
                for region in definers or inside or everyone}
    before = [region for region in everyone if region.first <= problem.line]
    region = (inside or before or everyone)[-1]
    return {region.lesson: f"with your code here {script.name} would not run: "
            f"{problem.message} (line {problem.line}), so the reference is used"}


# --- progress files ---------------------------------------------------------------------------

LESSON_NUMBER = re.compile(r"^\d+\.\d+$")
# A module's recall exercise (review-7): kept in the progress beside the lessons, but it places
# no line of the program (its lines are the module's lessons'), so assembling passes it by.
RECALL_NUMBER = re.compile(r"^review-\d+$")


def read_progress(data: object, course_slug: str) -> tuple[dict[str, Work], list[str]]:
    """The lessons of an exported progress file (format version 1 or 2), and what was left out.

    A file that is not linebyline progress for this course raises ProgressError; a lesson that
    cannot be read is left out and named, as the browser does."""
    if not isinstance(data, dict):
        raise ProgressError("it is not a JSON object")
    if data.get("format") != "linebyline-progress":
        raise ProgressError('its "format" is not "linebyline-progress"')
    if data.get("version") not in (1, 2):
        raise ProgressError(f"it is format version {data.get('version')!r}; this linebyline "
                            "reads versions 1 and 2")
    if data.get("course") != course_slug:
        raise ProgressError(f"it is for the course {data.get('course')!r}, not {course_slug!r}")
    lessons = data.get("lessons")
    if not isinstance(lessons, dict):
        raise ProgressError('it has no "lessons"')
    return read_lessons(lessons)


NOT_KEPT = ("done, but this progress keeps no code that passed its checks (it was saved before "
            "linebyline kept that apart from the draft)")


def read_lessons(lessons: Mapping[object, object]) -> tuple[dict[str, Work], list[str]]:
    """{number: {status, passedCode, draft}} read lesson by lesson; the rest of each entry is
    not needed. Only the code that passed is the learner's; a lesson done without it carries its
    draft in ``unchecked`` (see Unchecked) for a caller that can check it again."""
    found: dict[str, Work] = {}
    left_out: list[str] = []
    for number, entry in lessons.items():
        if isinstance(number, str) and RECALL_NUMBER.match(number):
            continue
        if not isinstance(number, str) or not LESSON_NUMBER.match(number):
            left_out.append(f"{number!r} is not a lesson number")
            continue
        if not isinstance(entry, dict) or entry.get("status") not in STATUSES:
            left_out.append(f"lesson {number}: its status is missing or unknown")
            continue
        passed = entry.get("passedCode")
        if passed is not None and not isinstance(passed, str):
            left_out.append(f"lesson {number}: its code that passed is not text")
            passed = None
        draft = entry.get("draft")
        if draft is not None and not isinstance(draft, str):
            left_out.append(f"lesson {number}: its draft is not text")
            draft = None
        why = NOT_KEPT + ", so the reference is used" \
            if entry["status"] == "done" and passed is None else ""
        if why and draft is not None:
            found[number] = Unchecked(entry["status"], None, why, draft)
        else:
            found[number] = Work(entry["status"], passed, why)
    return found, left_out


@dataclass(frozen=True)
class Unchecked(Work):
    """A lesson marked done whose code was never kept as passing: its draft, to check again."""

    unchecked: str = ""


def every_script(assembler: Assembler, progress: Mapping[str, Work]) -> Iterable[Assembly]:
    for name in assembler.script_names:
        yield assembler.assemble(name, progress)


# --- the course as plain data, for the browser ---------------------------------------------------

def plain_course(course: Course) -> dict[str, Any]:
    """What the assembler reads of a course, as JSON: My microgpt's page assembles with it in the
    browser's Python when the server cannot be reached (offline)."""
    return {
        "program": course.program_name,
        "modules": [module.script for module in course.modules],
        "lessons": [{"number": lesson.number, "title": lesson.title,
                     "starter": lesson.exercise.starter, "solution": lesson.exercise.solution,
                     "levels": [list(pair) for pair in lesson.exercise.level_pairs()]}
                    for lesson in course.lessons()],
        "scripts": {name: (course.path / name).read_text(encoding="utf-8")
                    for name in sorted({m.script for m in course.modules} | {course.program_name})},
    }


class _Texts:
    """Stands for the course folder: `folder / name` reads a script's text."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts

    def __truediv__(self, name: str) -> SimpleNamespace:
        return SimpleNamespace(read_text=lambda encoding="utf-8": self.texts[name])


def _constant(value: Any) -> Any:
    return lambda: value


class PlainCourse:
    """A course read back from `plain_course`'s data, with what Assembler asks of a Course."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.program_name = data["program"]
        self.modules = [SimpleNamespace(script=script) for script in data["modules"]]
        self._lessons = [SimpleNamespace(
            number=item["number"], title=item["title"],
            exercise=SimpleNamespace(starter=item["starter"], solution=item["solution"],
                                     level_pairs=_constant(item.get("levels") or [])))
            for item in data["lessons"]]
        self.path = _Texts(data["scripts"])

    def lessons(self) -> list[SimpleNamespace]:
        return self._lessons


# Why a lesson done comes without code that passed, as the page says it (`missing`).
MISSING = {
    "not-kept": NOT_KEPT,
    "fails-now": "done, but the code saved with it does not pass its checks now",
    "too-large": "done, but its code was too large to send with the rest",
}


def work_from(entry: Mapping[str, Any]) -> Work:
    """One lesson as My microgpt's page sends it, {status, passed, missing}: only the code that
    passed its checks is the learner's; without it, `missing` says why."""
    passed = entry.get("passed")
    passed = passed if isinstance(passed, str) else None
    why = "" if passed is not None else (
        MISSING.get(entry.get("missing"), NOT_KEPT) + ", so the reference is used")
    return Work(entry["status"], passed, why)


def progress_from(lessons: Mapping[str, Mapping[str, Any]]) -> dict[str, Work]:
    """{number: {status, passed, missing}}, as My microgpt's page sends it (offline, to the
    assembler in its own Python), as the assembler takes it."""
    return {number: work_from(entry) for number, entry in lessons.items()
            if isinstance(entry, Mapping) and entry.get("status") in STATUSES}
