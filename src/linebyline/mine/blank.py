"""The last recall: the course's program written from a blank page, judged by what matters.

It must run, and its first FIRST training steps must give the reference program's losses at
every printed digit. Where they part, the learner hears the first step and numbers that differ
and the region of the program that computes them, worked out from the weights: if the weights
going into that step are still the reference's, the forward pass of that step's document
differs; if they are not, the update of the step before does. Lines printed before training
(`vocab size: 27`) are compared first, as they come first.

The reference side is kept in the course folder (runs/first-steps.json, made by
scripts/train_reference.py --first): no second program runs in the browser. Numbers are equal
when they differ by no more than rounding (ROUNDING, relative): Pythons differ in the last digit
of a sum (3.12 made sum() of floats exact), and the page's Python is not the terminal's. Weights
are compared by a sample (every SAMPLE_EVERY-th), which any wrong update or draw moves.

Standard library only: the same file runs in `linebyline check microgpt FILE` and in the
browser's training worker, so both say the same words.
"""
from __future__ import annotations

import ast
import contextlib
import io
import json
import linecache
import math
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

try:
    from .training import ROUNDING, STEP_LINE, Run, explain
except ImportError:  # in the browser's training worker this file runs beside training.py
    from linebyline_training import ROUNDING, STEP_LINE, Run, explain  # type: ignore[no-redef]

FIRST = 30  # training steps compared: enough for every part of the program to show
SAMPLE_EVERY = 64  # of the weights, the ones compared: 66 of microgpt's 4,192
KEPT = "runs/first-steps.json"  # the reference's first steps, in the course folder


def sample(numbers: list[float]) -> list[float]:
    """The weights the judge compares: every SAMPLE_EVERY-th (and the count, as its length)."""
    return numbers[::SAMPLE_EVERY]


def agree(mine: float | None, reference: float | None) -> bool:
    """Equal but for rounding (both missing counts as equal)."""
    if mine is None or reference is None:
        return mine is reference
    return math.isclose(mine, reference, rel_tol=ROUNDING, abs_tol=ROUNDING * 1e-3)


def all_agree(mine: list[float], reference: list[float]) -> bool:
    return len(mine) == len(reference) and all(map(agree, mine, reference))


@dataclass
class Watched:
    """A run's first steps: the lines printed before training, each step's exact loss, and a
    sample of the weights after each step; `error`: how the program failed, if it did."""

    header: list[str] = field(default_factory=list)
    losses: list[float | None] = field(default_factory=list)
    weights: list[list[float]] = field(default_factory=list)
    error: str = ""
    ended: bool = False  # it ran to its end before printing FIRST steps
    drawn: list[float] = field(default_factory=list)  # a sample of them as drawn, before training
    drawn_after: str = ""  # the line printed just after they were drawn (its label)
    empty: bool = False  # the file holds no code at all

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Watched:
        return cls(**json.loads(text))


class _Watching(Run):
    """A Run that also notes the weights when they first show up before training (at the line
    printed after they are drawn: microgpt's parameter count)."""

    def __init__(self, watched: Watched, *args) -> None:
        super().__init__(*args)
        self.watched = watched

    def _print(self, *args: object, **kwargs) -> None:
        super()._print(*args, **kwargs)
        watched = self.watched
        if watched.losses or watched.drawn or not args or STEP_LINE.match(str(args[0])):
            return
        numbers = self.weights()
        if numbers:
            watched.drawn = sample(numbers)
            watched.drawn_after = str(args[0]).split(":", 1)[0].strip()


def watch(source: str, filename: str, steps: int = FIRST,
          on_step: Callable[[int], None] | None = None,
          reference: list[float | None] | None = None) -> Watched:
    """Run the program in this process (the caller's working folder holds its input.txt) until
    it has printed `steps` training steps, keeping what the judge needs; given the `reference`
    losses, it stops at the first step that parts from them (the judge needs no more)."""
    watched = Watched(empty=not source.strip())
    printed = io.StringIO()
    # Tracebacks show the learner's lines, though the file runs from this text.
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)

    def step_done(step: int, total: int, loss: float | None, mark: str) -> str:
        if not watched.losses:
            watched.header = [line for line in printed.getvalue().splitlines()
                              if not STEP_LINE.match(line)]
        watched.losses.append(loss)
        watched.weights.append(sample(run.weights()))
        done = len(watched.losses)
        if on_step is not None:
            on_step(done)
        parted = reference is not None and done <= len(reference) and \
            not agree(loss, reference[done - 1])
        return "stop" if done >= steps or parted else ""

    run = _Watching(watched, source, filename, step_done)
    try:
        with contextlib.redirect_stdout(printed):
            watched.ended = run.run()
    except Exception as error:  # the learner's program failed: say where, in their file
        watched.error = explain(error, filename)
    if not watched.losses:
        watched.header = printed.getvalue().splitlines()
    return watched


# --- where a program's parts are --------------------------------------------------------------

@dataclass(frozen=True)
class Regions:
    """Line ranges of the reference program: what runs before training, and in the training
    loop the forward pass (up to backward) and the update (backward to the step's print)."""

    setup: tuple[int, int]
    forward: tuple[int, int]
    update: tuple[int, int]
    step_line: int  # the line that prints each step
    printing: dict[str, int]  # label printed before training -> the line that prints it

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Regions:
        return cls(tuple(data["setup"]), tuple(data["forward"]), tuple(data["update"]),
                   int(data["step_line"]), {str(k): int(v) for k, v in data["printing"].items()})


def _calls(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Call) and (getattr(n.func, "attr", None) == name
                                            or getattr(n.func, "id", None) == name)
               for n in ast.walk(node))


def regions(program: str) -> Regions:
    """The regions of the reference program (its training loop: `for ... in range(num_steps)`,
    with a `.backward()` call and a `print` of the step)."""
    tree = ast.parse(program)
    index, loop = next((i, node) for i, node in enumerate(tree.body)
                       if isinstance(node, ast.For) and "num_steps" in ast.unparse(node.iter))
    body = loop.body
    backward = next(i for i, node in enumerate(body) if _calls(node, "backward"))
    shown = max(i for i, node in enumerate(body) if _calls(node, "print"))
    printing = {}
    for node in tree.body[:index]:
        if isinstance(node, ast.Expr) and _calls(node, "print"):
            text = ast.unparse(node)
            label = text.split("(", 1)[1].lstrip("f").strip("'\"").split(":", 1)[0]
            printing[label] = node.lineno
    return Regions((1, tree.body[index - 1].end_lineno or 1),
                   (body[0].lineno, body[backward - 1].end_lineno or body[0].lineno),
                   (body[backward].lineno, body[shown - 1].end_lineno or body[backward].lineno),
                   body[shown].lineno, printing)


# --- the judgement ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Judgement:
    passed: bool
    text: str
    step: int = 0  # the first step that differs (0: none, or before training)
    lines: tuple[int, int] | None = None  # the reference program's region to reread


def _span(lines: tuple[int, int], teaches: Callable[[int, int], str]) -> str:
    start, end = lines
    where = f"line {start}" if start == end else f"lines {start}–{end}"
    taught = teaches(start, end)
    return where + (f" ({taught})" if taught else "")


def _no_lessons(start: int, end: int) -> str:
    return ""


def lessons_teaching(unlocks: dict[str, list[tuple[int, int]]]) -> Callable[[int, int], str]:
    """`teaches` for judge(): {lesson number: the program's line ranges it teaches} -> the
    words naming the lessons that teach lines start..end ("lesson 7.5", "lessons 3.1 to 6.2")."""
    def order(number: str) -> tuple[int, ...]:
        return tuple(int(part) for part in number.split("."))

    def teaches(start: int, end: int) -> str:
        found = sorted((number for number, ranges in unlocks.items()
                        if any(a <= end and start <= b for a, b in ranges)), key=order)
        if not found:
            return ""
        if len(found) == 1:
            return f"lesson {found[0]}"
        if len(found) <= 3:
            return "lessons " + ", ".join(found[:-1]) + f" and {found[-1]}"
        return f"lessons {found[0]} to {found[-1]}"
    return teaches


def _labelled(lines: list[str]) -> dict[str, str]:
    return {line.split(":", 1)[0].strip(): line.strip() for line in lines if ":" in line}


def judge(mine: Watched, reference: Watched, parts: Regions, name: str,
          teaches: Callable[[int, int], str] = _no_lessons, steps: int = FIRST) -> Judgement:
    """What to tell a learner whose blank-page program ran as `mine`. `reference` is the
    reference program's run, `parts` its regions (regions(program)), `name` its file name;
    `teaches(start, end)` names the lessons that teach those lines of it ("" for none)."""
    if mine.empty:
        return Judgement(False, (
            f"Your file is empty. Write {name} in it from memory, top to bottom: the data, the "
            "tokenizer, autograd, the model, Adam and the training loop, printing each step as "
            f"{name} does."))
    theirs = _labelled(reference.header)
    for label, line in _labelled(mine.header).items():
        if label in theirs and theirs[label] != line:
            where = (parts.printing[label],) * 2 if label in parts.printing else parts.setup
            return Judgement(False, (
                f"Before training, your program prints `{line}`, where {name} prints "
                f"`{theirs[label]}`: the runs part there. Reread {_span(where, teaches)} of "
                f"{name}."), 0, where)
    done = len(mine.losses)
    step = next((k + 1 for k, (a, b) in enumerate(zip(mine.losses[:steps], reference.losses))
                 if not agree(a, b)), 0)
    if step:
        return _parted(mine, reference, parts, name, teaches, step)
    if mine.error and done < steps:
        after = f"after printing step {done}" if done else "before printing a training step"
        return Judgement(False, f"Your program stopped with an error {after}:\n{mine.error}",
                         done + 1 if done else 0)
    if done < steps:
        said = "no training step" if not done else f"only {done} training step{'s' * (done > 1)}"
        return Judgement(False, (
            f"Your program ran to its end having printed {said}; the first {steps} are "
            f"compared, each printed as {name} prints it (`step 1 / ... | loss ...`, "
            f"{_span((parts.step_line,) * 2, teaches)})."), done + 1)
    exact = mine.losses[:steps] == reference.losses[:steps]
    how = "to the last digit" if exact else \
        "at every printed digit (the last digits differ only by rounding)"
    return Judgement(True, (f"Your program runs, and its first {steps} losses are {name}'s "
                            f"{how}. You wrote {name} from a blank page."))


def _shown(x: float | None) -> str:
    return "not a number" if x is None else f"{x:.6g}"


def _parted(mine: Watched, reference: Watched, parts: Regions, name: str,
            teaches: Callable[[int, int], str], step: int) -> Judgement:
    """The first step whose loss is not the reference's, and the region that computes it."""
    a, b = mine.losses[step - 1], reference.losses[step - 1]
    apart = f", {abs(a - b):.2g} apart" if a is not None and b is not None else ""
    text = (f"Parts from the reference at step {step}: your loss is {_shown(a)}, the "
            f"reference's {_shown(b)}{apart}.")
    if step == 1:
        where, why = _first_step(mine, reference, parts, name, teaches)
    elif not all_agree(mine.weights[step - 2], reference.weights[step - 2]):
        where = parts.update
        same = "Step 1 gives the same loss" if step == 2 else \
            f"Steps 1 to {step - 1} give the same losses"
        why = (f"{same}, but the weights after step {step - 1} are not {name}'s: the update "
               f"parts. Reread {_span(parts.update, teaches)}: backward() finding the "
               "gradients, and Adam's step with them.")
    else:
        where = parts.forward
        why = (f"The weights going into step {step} are still {name}'s, so the forward pass of "
               f"that step's name computes something else. Reread "
               f"{_span(parts.forward, teaches)} and the functions they call: some names show "
               "it and others do not (a longer one, say).")
    return Judgement(False, f"{text} {why}", step, where)


def _first_step(mine: Watched, reference: Watched, parts: Regions, name: str,
                teaches: Callable[[int, int], str]) -> tuple[tuple[int, int], str]:
    """Where step 1 parts: the weights as drawn, or what the first name goes through."""
    labels = list(parts.printing)
    drawn_at = parts.printing.get(reference.drawn_after)
    if mine.drawn and reference.drawn and not all_agree(mine.drawn, reference.drawn) and drawn_at:
        before = [parts.printing[label] for label in labels if parts.printing[label] < drawn_at]
        where = (max(before, default=0) + 1, drawn_at)
        return where, (f"Your weights are not {name}'s even before training starts. Reread "
                       f"{_span(where, teaches)}: the seed, the sizes of the weights, and the "
                       "order they are drawn in.")
    data = (1, parts.printing[labels[0]]) if labels else parts.setup
    sure = mine.drawn and all_agree(mine.drawn, reference.drawn)
    drawn = f"Your weights as drawn are {name}'s, so" if sure else "So"
    return parts.forward, (
        f"{drawn} step 1's forward pass computes something else. Reread "
        f"{_span(parts.forward, teaches)} and the functions they call, or, for the name it is "
        f"given, the data and its shuffle: {_span(data, teaches)}.")


def judge_json(source: str, name: str, kept: str, parts: str, unlocks: str,
               on_step: Callable[[int], None] | None = None, steps: int = FIRST) -> str:
    """The browser's way in (its training worker): the file run here, in this folder, and
    judged; JSON in (the kept run, the regions, {lesson: [[start, end], ...]}), JSON out."""
    reference = Watched.from_json(kept)
    mine = watch(source, name, steps, on_step=on_step, reference=reference.losses)
    teaches = lessons_teaching({number: [tuple(r) for r in ranges]
                                for number, ranges in json.loads(unlocks).items()})
    made = judge(mine, reference, Regions.from_dict(json.loads(parts)), name, teaches, steps)
    return json.dumps({"passed": made.passed, "text": made.text, "step": made.step,
                       "lines": list(made.lines) if made.lines else None})


def main(argv: list[str]) -> int:
    """python -m linebyline.mine.blank FILE KEPT: watch FILE's first steps in this folder (which
    holds input.txt), up to where they part from the run kept in KEPT, and print the run as
    JSON, with `progress N` lines to stderr."""
    path, kept = argv
    with open(path, encoding="utf-8") as file:
        source = file.read()
    with open(kept, encoding="utf-8") as file:
        reference = Watched.from_json(file.read()).losses
    watched = watch(source, path.rsplit("/", 1)[-1], reference=reference,
                    on_step=lambda n: print(f"progress {n}", file=sys.stderr, flush=True))
    sys.stdout.write(watched.to_json() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
