"""What a lesson's checks.py is written with: the @check decorator, fail() and calling()."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

CheckFunction = Callable[..., None]

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


@contextmanager
def calling(description: str) -> Iterator[None]:
    """Name what the check is about to ask of the learner's code (e.g. ``"x.backward()"``).

    If the learner's code raises inside the block, the error message says what was called.
    """
    _current_call.append(description)
    try:
        yield
    except BaseException:
        raise  # leave the description in place: the runner reads it, then clears it
    else:
        _current_call.pop()


def take_current_call() -> str | None:
    description = _current_call[-1] if _current_call else None
    _current_call.clear()
    return description
