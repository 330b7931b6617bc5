"""Which failing checks of a checked run are failures of their own: the first one only.

Checks run in order and build on each other, so a check after a failing one often fails because of
it (its message says "fix the check above first"), or is not run at all ("Not run: ..."). Counting
those would make every lesson's later checks look hard. So a run has at most one failure of its
own, its first check that did not pass; the learner's page still shows every message they saw.
This is the one place that rule lives: the events endpoint marks each stored failure with it.
"""
from __future__ import annotations

from collections.abc import Sequence

FAILING = ("fail", "error")  # "not-run" and "not-attempted" are not failures: nothing was tried


def failing(status: str) -> bool:
    return status in FAILING


def first_failure(statuses: Sequence[str]) -> int | None:
    """The index of the run's first check that failed (its failure of its own), if any."""
    return next((index for index, status in enumerate(statuses) if failing(status)), None)
