"""Differential checks: the learner's function against the lesson's reference, on new inputs.

A check tried once, on fresh inputs from the bundled data, misses three kinds of mistake that
real learners make: state kept across calls (a `visited` set at module level), inputs changed
in place (a softmax that overwrites its logits), and sizes the data never reaches (a name
longer than `block_size`). One line in a lesson's checks.py opts in::

    agrees("softmax", number_lists(lengths=(1, 3, 27, 40)))

That registers a check which, for each generated case (seeded, so every run tries the same
inputs), builds the arguments twice, once with the learner's names and once with the
reference's, and calls each function twice in a row on its own arguments. It fails at the
first case where

- the learner's answer differs from the reference's (first call, or the second call on the
  same input: the message then says the function remembers something between calls);
- the learner's call left its arguments different from how the reference's call left its own
  (an input changed in place).

Messages say what was measured: the input, what came back, what should have come back.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from .checks import CheckFailed, calling, check, fail
from .runner import LearnerCode, MissingName, learner_line, reference
from .source import quoted
from .words import number, numbers_apart, plural, shown

MAX_SNAPSHOT = 20_000  # items looked at when comparing arguments; a graph bigger is cut there


class Case:
    """One input: how to write it (``text``, for messages) and how to build it (``make``).

    ``make(space)`` returns the argument tuple, built with ``space``'s names (the learner's or
    the reference's ``Value``, say), so that each function gets arguments of its own program.
    ``note`` says, where it matters, why this input is there ("a name longer than block_size").
    """

    def __init__(self, text: str, make: Callable[[LearnerCode], tuple[Any, ...]],
                 note: str = "") -> None:
        self.text, self.make, self.note = text, make, note


Cases = Callable[[random.Random], Iterable[Case]]
Compare = Callable[[Any, Any], str]
Call = Callable[[LearnerCode, tuple[Any, ...]], Any]


# --- generators for the inputs lessons need most ---------------------------------------------

def number_lists(lengths: Sequence[int] = (1, 2, 5, 27, 40), low: float = -8.0,
                 high: float = 8.0, extremes: bool = True) -> Cases:
    """Lists of floats of the given lengths; with ``extremes``, also lists of big numbers
    (±700: exp() of them overflows unless the max is subtracted) and of equal numbers."""

    def cases(rng: random.Random) -> Iterator[Case]:
        for length in lengths:
            values = [round(rng.uniform(low, high), 3) for _ in range(length)]
            yield _plain(values)
        if extremes:
            yield _plain([710.0, 700.0, -5.0], "numbers so big that exp() overflows")
            yield _plain([2.0, 2.0, 2.0, 2.0], "equal numbers")
            yield _plain([-750.0, 10.0, 0.0], "the largest not first, the first far below it")

    return cases


def _plain(values: list[float], note: str = "") -> Case:
    return Case(shown(values) if len(values) <= 8 else f"a list of {len(values)} numbers "
                f"starting {', '.join(number(v) for v in values[:3])}",
                lambda space: (list(values),), note)


def words(lengths: Sequence[int] = (1, 3, 6, 17, 24), alphabet: str = "abcdefghijklmnopqrstuvwxyz"
          ) -> Cases:
    """Lowercase words of the given lengths (longer than block_size where the lengths say so)."""

    def cases(rng: random.Random) -> Iterator[Case]:
        for length in lengths:
            word = "".join(rng.choice(alphabet) for _ in range(length))
            yield Case(repr(word), lambda space, word=word: (word,),
                       f"a {length}-letter name" if length > 16 else "")

    return cases


def value_graphs(count: int = 6, sizes: Sequence[int] = (2, 4, 7, 12, 20, 30),
                 ops: Sequence[str] = ("+", "*", "-", "/", "**"), inputs: int = 3) -> Cases:
    """Random expressions over Values with shared sub-expressions (a node used twice or more).

    ``make(space)`` builds the graph with ``space.Value`` and returns ``(out,)``; the leaves
    are reachable as ``out`` was built from them. Operations are limited to ``ops``.
    """

    def cases(rng: random.Random) -> Iterator[Case]:
        for size in list(sizes)[:count]:
            plan, names = _plan(rng, size, ops, inputs)
            text = f"out = {names[-1]} where " + ", ".join(plan_text for plan_text in
                                                            _plan_text(plan, inputs))
            yield Case(text, lambda space, plan=plan: (_build(space, plan, inputs),),
                       f"a graph of {size} operations")

    return cases


def _plan(rng: random.Random, size: int, ops: Sequence[str], inputs: int
          ) -> tuple[list[tuple[str, int, Any]], list[str]]:
    """Which operation makes each node, from which earlier nodes; the numbers stay moderate
    (an operation whose result would pass 1e6 is drawn again), so no input overflows."""
    plan: list[tuple[str, int, Any]] = []
    names = [f"x{i + 1}" for i in range(inputs)]
    values = [_LEAF[i % len(_LEAF)] for i in range(inputs)]
    while len(plan) < size:
        op = rng.choice(list(ops))
        # Prefer recent nodes, so the graph is deep, but reuse older ones: shared children.
        left = rng.randrange(max(0, len(names) - 4), len(names))
        right: Any = rng.choice((2, 3, -1, 0.5)) if op == "**" else rng.randrange(len(names))
        value = _apply(op, values[left], right if op == "**" else values[right])
        if abs(value) > 1e6:
            continue
        plan.append((op, left, right))
        names.append(f"n{len(plan)}")
        values.append(value)
    return plan, names


def _apply(op: str, a: Any, b: Any) -> Any:
    """One operation as the graphs make it: powers of a*a + 1 (always positive), and division
    by b*b + 1 (never zero), so every input is in every operation's domain."""
    if op == "**":
        return (a * a + 1) ** b
    if op == "/":
        return a / (b * b + 1)
    return {"+": a + b, "*": a * b, "-": a - b}[op]


def _plan_text(plan: list[tuple[str, int, Any]], inputs: int) -> list[str]:
    names = [f"x{i + 1}" for i in range(inputs)]
    texts = []
    for op, left, right in plan:
        a = names[left]
        if op == "**":
            text = f"({a} * {a} + 1) ** {right}"
        elif op == "/":
            text = f"{a} / ({names[right]} * {names[right]} + 1)"
        else:
            text = f"{a} {op} {names[right]}"
        texts.append(f"n{len(texts) + 1} = {text}")
        names.append(f"n{len(texts)}")
    starts = ", ".join(f"x{i + 1} = Value({_LEAF[i % len(_LEAF)]})" for i in range(inputs))
    return [starts] + texts


_LEAF = (1.5, -0.75, 2.25, 0.5)


def _build(space: LearnerCode, plan: list[tuple[str, int, Any]], inputs: int) -> Any:
    Value = space.Value
    nodes = [Value(_LEAF[i % len(_LEAF)]) for i in range(inputs)]
    for op, left, right in plan:
        nodes.append(_apply(op, nodes[left], right if op == "**" else nodes[right]))
    return nodes[-1]


# --- comparing ---------------------------------------------------------------------------

def snapshot(value: Any, budget: list[int] | None = None, seen: dict[int, int] | None = None
             ) -> Any:
    """A plain copy of ``value`` to compare: numbers, strings, lists, and objects seen through
    their ``data`` and ``grad`` (a Value) and their children, each shared object once."""
    budget = budget if budget is not None else [MAX_SNAPSHOT]
    seen = seen if seen is not None else {}
    budget[0] -= 1
    if budget[0] < 0:
        return ("cut",)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    key = id(value)
    if key in seen:
        return ("same as", seen[key])
    seen[key] = len(seen)
    if isinstance(value, (list, tuple)):
        return [snapshot(item, budget, seen) for item in value]
    if isinstance(value, dict):
        return {repr(k): snapshot(v, budget, seen) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return ("set", len(value))
    if hasattr(value, "data"):
        children = getattr(value, "_children", ())
        return ("node", snapshot(getattr(value, "data", None), budget, seen),
                snapshot(getattr(value, "grad", None), budget, seen),
                [snapshot(child, budget, seen) for child in children]
                if isinstance(children, (list, tuple)) else None)
    return ("object", type(value).__name__)


def plain(value: Any) -> Any:
    """What a learner sees of a result: Values by their data, containers item by item."""
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if not isinstance(value, (bool, int, float, str)) and value is not None and hasattr(
            value, "data"):
        return plain(value.data)
    return value


def differ(got: Any, want: Any, rel: float = 1e-9, abs_tol: float = 1e-12, path: str = ""
           ) -> str:
    """Where two plain values part ("item 3 is 0.2 but should be 0.25"), or "" if they agree."""
    if isinstance(want, float) or (isinstance(want, int) and not isinstance(want, bool)):
        if isinstance(got, bool) or not isinstance(got, (int, float)):
            return f"{path or 'it'} is {shown(got)} but should be {shown(want)}"
        if math.isnan(want) and math.isnan(got):
            return ""
        if not math.isclose(got, want, rel_tol=rel, abs_tol=abs_tol):
            shown_got, shown_want = numbers_apart(float(got), float(want))
            return f"{path or 'it'} is {shown_got} but should be {shown_want}"
        return ""
    if isinstance(want, list):
        if not isinstance(got, list):
            return f"{path or 'it'} is {shown(got)} but should be a list"
        if len(got) != len(want):
            return f"{path or 'it'} has {plural(len(got), 'item')} but should have {len(want)}"
        for index, (a, b) in enumerate(zip(got, want)):
            found = differ(a, b, rel, abs_tol, f"{path}[{index}]" if path else f"item {index}")
            if found:
                return found
        return ""
    if isinstance(want, dict):
        if not isinstance(got, dict) or set(got) != set(want):
            return f"{path or 'it'} is {shown(got)} but should be {shown(want)}"
        for key in want:
            found = differ(got[key], want[key], rel, abs_tol, f"{path}[{key}]")
            if found:
                return found
        return ""
    if isinstance(want, tuple):  # snapshots of nodes and markers
        if not isinstance(got, tuple) or len(got) != len(want) or got[0] != want[0]:
            return f"{path or 'it'} is {shown(got)} but should be {shown(want)}"
        for a, b in zip(got[1:], want[1:]):
            found = differ(a, b, rel, abs_tol, path)
            if found:
                return found
        return ""
    return "" if got == want else f"{path or 'it'} is {shown(got)} but should be {shown(want)}"


def _same_values(got: Any, want: Any) -> str:
    return differ(plain(got), plain(want))


# --- the check ----------------------------------------------------------------------------

def agrees(function: str, cases: Cases, *, name: str = "",
           call: Callable[[LearnerCode, tuple[Any, ...]], Any] | None = None,
           compare: Compare = _same_values, share: Sequence[str] = (),
           draws: bool = False, seed: int = 0, label: str = "", fix: str = "") -> None:
    """Register a check that compares the learner's ``function`` with the reference's.

    ``function`` names it in messages and, unless ``call`` is given, is the top-level name
    called with each case's arguments. ``call(space, args)`` calls something else (a method:
    ``lambda space, args: args[0].backward()``) and returns what to compare. ``compare(got,
    want)`` returns where two answers part, or "" (default: values, Values by their data,
    numbers to 1e-9). ``share`` names the learner's top-level values the reference should use
    too (weights made by given code), so only the function itself is compared. ``draws``:
    the function draws random numbers; both get the same seed before each call. ``label``
    words a case in messages, from ``{function}`` and ``{text}`` (the case's text); by default
    ``"{function}({text})"``, or ``"{function} with {text}"`` with ``call``. ``fix`` is the
    literal change a failure holds back for later (see ``fail``), the same for every case.
    """
    by_name = call is None
    call = call or (lambda space, args: getattr(space, function)(*args))
    title = name or f"{function} on new inputs, twice each"

    @check(title)
    def _(code: LearnerCode) -> str:
        if by_name:
            getattr(code, function)  # a missing name fails plainly, first
        ours = reference(code)
        # The reference borrows the learner's values for this check only: what it had is put
        # back after, so the next check meets the reference as it was made.
        missing = object()
        had = {name_: ours._namespace.get(name_, missing) for name_ in share}
        for name_ in share:
            ours._namespace[name_] = getattr(code, name_)
        try:
            tried = _compare_all(code, ours, cases, seed, function, label, by_name, call,
                                 compare, draws, fix)
        finally:
            for name_, value in had.items():
                if value is missing:
                    ours._namespace.pop(name_, None)
                else:
                    ours._namespace[name_] = value
        return f"{function} agreed with ours on {plural(tried, 'input')}, each called twice."


def _ordinal(index: int) -> str:
    return {0: "first", 1: "second", 2: "third"}.get(index, f"{index + 1}th")


def _compare_all(code: LearnerCode, ours: Any, cases: Cases, seed: int, function: str,
                 label: str, by_name: bool, call: Call, compare: Compare, draws: bool,
                 fix: str) -> int:
    """Every case compared, in order; the number tried."""
    tried = 0
    for index, case in enumerate(cases(random.Random(f"{seed}:{function}"))):
        what = (label or ("{function}({text})" if by_name else "{function} with {text}")
                ).format(function=function, text=case.text)
        try:
            _compare_case(code, ours, case, index, what, call, compare, draws)
        except CheckFailed as failure:
            if not fix or failure.fix or isinstance(failure, MissingName):
                raise
            raise CheckFailed(failure.args[0], fix) from None
        tried += 1
    return tried


def _compare_case(code: LearnerCode, ours: LearnerCode, case: Case, index: int, what: str,
                  call: Callable[[LearnerCode, tuple[Any, ...]], Any], compare: Compare,
                  draws: bool) -> None:
    about = f" ({case.note})" if case.note else ""
    their_args = case.make(code)
    our_args = case.make(ours)
    before = snapshot(their_args)
    answers = []
    for attempt in range(2):
        seed = 1000 * index + attempt
        if draws:
            random.seed(seed)
        want = call(ours, our_args)
        if draws:
            random.seed(seed)
        asked = what if attempt == 0 else f"{what}, a second time on the same input"
        try:
            with calling(asked):
                got = call(code, their_args)
        except Exception as error:  # noqa: BLE001 - told with what ours gives for the same input
            if isinstance(error, CheckFailed) or (index, attempt) == (0, 0):
                raise  # an error on the very first call is an error of the code, as anywhere
            line = learner_line(error, code)
            at = f" (line {line} of your code)" if line is not None else ""
            fail(f"`{asked}`{about} raised {_error_text(error)}{at}, where ours "
                 f"returns {shown(plain(want))}.")
        answers.append(got)
        problem = compare(got, want)
        if problem and attempt == 0:
            earlier = (f" It agreed with ours on the {index} input{'s' if index > 1 else ''} "
                       "tried before this one." if index else "")
            fail(f"`{what}`{about} returned {shown(plain(got))}, but ours returns "
                 f"{shown(plain(want))}: {problem}.{earlier}")
        if problem:
            fail(f"Called once, `{what}`{about} returned the right answer, "
                 f"{shown(plain(answers[0]))}. Called a second time on the same input, it "
                 f"returned {shown(plain(got))} where ours returns {shown(plain(want))}: "
                 f"{problem}. Yours and ours agree on the first call but not on the second, so "
                 f"something of yours lives on from one call to the next (a list, set or dict "
                 f"made outside the function, or a default argument).")
        changed = differ(snapshot(their_args), snapshot(our_args))
        if changed and attempt == 0:
            after = snapshot(their_args)
            told = (f" The argument was {shown(_arguments(before))} before the call and "
                    f"{shown(_arguments(after))} after it." if before != after else "")
            fail(f"`{what}`{about} returned the right answer, but it changed its "
                 f"input.{told} A function like this must leave what it is given as it was: "
                 f"the caller uses it again afterwards.")


def _arguments(snap: list[Any]) -> Any:
    """A snapshot of the argument tuple as `shown` writes it: one argument on its own."""
    values = _unsnap(snap)
    return values[0] if len(values) == 1 else tuple(values)


def _unsnap(value: Any) -> Any:
    """A snapshot back to something `shown` writes well (nodes by their data)."""
    if isinstance(value, list):
        return [_unsnap(item) for item in value]
    if isinstance(value, tuple) and value and value[0] == "node":
        return value[1]
    return value


def _error_text(error: BaseException) -> str:
    """"ValueError: its text", or "ValueError" alone for an error raised without one."""
    text = quoted(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
