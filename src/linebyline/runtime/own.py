"""A learner's class that extends a finished one from the course's library (``given``) must write
the lesson's methods itself: inherited, they are the course's code, and every check would pass on
a file whose answer was deleted."""
from __future__ import annotations

from typing import Any

from .checks import fail


def require_own(cls: Any, *names: str) -> None:
    """Fail unless ``cls`` defines each of ``names`` in its own body (not by inheriting it)."""
    for name in names:
        if name not in vars(cls):
            fail(f"Your {cls.__name__} has no {name}() of its own: it inherits the finished one "
                 "from the course's library (given), so the checks would be testing the course's "
                 f"code, not yours. Write {name}() inside `class {cls.__name__}`, where the TODO "
                 "is.")
