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
    """Raised by a check to say the learner's code did something other than expected."""


def check(name: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check. Checks run in the order they are defined in the file."""

    def register(function: CheckFunction) -> CheckFunction:
        if any(existing == name for existing, _ in _registry):
            raise ValueError(f"two checks are named {name!r}")
        _registry.append((name, function))
        return function

    return register


def fail(message: str) -> None:
    """End the current check as failed, with a message a beginner understands."""
    raise CheckFailed(message)


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
