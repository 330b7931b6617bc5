"""What a lesson's checks.py is written with: the @check decorator, fail() and calling()."""
from __future__ import annotations

from collections.abc import Callable
from types import TracebackType

CheckFunction = Callable[..., object]

# Filled by @check while a checks.py executes; the runner empties it before each load.
_registry: list[tuple[str, CheckFunction]] = []
# What the running check is asking the learner's code to do, for error messages.
_current_call: list[str] = []


class CheckFailed(Exception):
    """Raised by a check to say the learner's code did something other than expected.

    ``args[0]`` is the diagnosis (what was measured, what it should be, why); ``fix`` is the
    literal change to make, which learners see only later (see :func:`fail`).
    """

    def __init__(self, message: str, fix: str = "") -> None:
        super().__init__(message)
        self.fix = fix


def check(name: str, explains: tuple[type[BaseException], ...] = ()
          ) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check. Checks run in the order they are defined in the file.

    ``explains``: errors this check can explain when the learner's file raises one of them
    before any check runs (2.3's loop reading past the end of `tokens`: ``(IndexError,)``). The
    check then runs on the names the file had made by then, and if it fails, its diagnosis is
    given with the error. Only a check whose names are set before the line that raises can
    explain it; a check that looks at what comes after would only report the error's effect.
    """

    def register(function: CheckFunction) -> CheckFunction:
        if any(existing == name for existing, _ in _registry):
            raise ValueError(f"two checks are named {name!r}")
        function.explains = tuple(explains)  # type: ignore[attr-defined]
        _registry.append((name, function))
        return function

    return register


def gather(lesson: str, source: str, only: tuple[str, ...] = ()) -> None:
    """Register the checks of lesson ``lesson`` (its checks.py, ``source``) as "7.5: name".

    A module's recall exercise is judged by the checks of its lessons together, each as its
    lesson wrote it (``only``: just these of them, by name), so a recall file passes exactly
    when the lessons' own checks would pass it.
    """
    start = len(_registry)
    code = compile(source, f"checks of lesson {lesson}", "exec", dont_inherit=True)
    exec(code, {"__name__": "lesson_checks"})  # noqa: S102 - the course's own checks
    taken = _registry[start:]
    del _registry[start:]
    missing = set(only) - {name for name, _ in taken}
    if missing:
        raise ValueError(f"lesson {lesson} has no check named {sorted(missing)[0]!r}")
    for name, function in taken:
        if not only or name in only:
            check(f"{lesson}: {name}", function.explains)(function)  # type: ignore[attr-defined]


def fail(message: str, fix: str = "") -> None:
    """End the current check as failed, with a message a beginner understands.

    ``message`` diagnoses: the learner's values, what they should be, and why. ``fix`` is the
    literal line to write (``"Write `child.grad += local_grad * node.grad`."``): the browser and
    the terminal show it only after the same check failed three times in a row, or once the
    learner opened the hint that gives it, so the hints keep their worth. A message must never
    contain the fix itself (`linebyline lint` looks for the solution's lines in it).
    """
    raise CheckFailed(message, fix)


class _Calling:
    # A plain class rather than contextlib.contextmanager: nothing the learner's code can reach
    # decides whether an exception raised inside the block (fail() included) goes on.
    def __init__(self, description: str) -> None:
        self.description = description

    def __enter__(self) -> None:
        _current_call.append(self.description)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> bool:
        if kind is None:
            _current_call.pop()
        # On an exception the description stays in place: the runner reads it, then clears it.
        return False


def calling(description: str) -> _Calling:
    """Name what the check is about to ask of the learner's code (e.g. ``"x.backward()"``).

    Used as ``with calling("x.backward()"):``. If the learner's code raises inside the block,
    the error message says what was called.
    """
    return _Calling(description)


def take_current_call() -> str | None:
    description = _current_call[-1] if _current_call else None
    _current_call.clear()
    return description
