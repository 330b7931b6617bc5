"""The check runtime: runs a learner's code and a lesson's checks, and explains the outcome.

Pure standard library on purpose: the very same files run in CPython (the CLI) and in Pyodide
(the browser), so a check can never pass in one place and fail in the other.

A lesson's ``checks.py`` uses only what this package exports::

    from linebyline.runtime import check, fail, calling, slope, mismatches, number, printed

    @check("mul records (other, self)")
    def _(code):
        with calling("Value(2.0) * Value(3.0)"):
            out = code.Value(2.0) * code.Value(3.0)
        if out._local_grads != (3.0, 2.0):
            fail(f"... came back {out._local_grads!r}")

Checks never run against this public package: each run gets a private instance of it, made
before the learner's code runs (see seal.py), so the learner's file cannot patch what they use.
"""
from . import seal  # noqa: F401 - first: it takes its copies before anything else can change them
from .agree import Case, agrees, differ, number_lists, plain, value_graphs, words
from .checks import CheckFailed, calling, check, fail, gather
from .flow import cut_counts, cut_message, cut_off, cut_words, matrix_leaves
from .numeric import close, nudge_grads, slope
from .own import require_own
from .program import RunOutcome, run_program
from .runner import (
    STATUSES,
    CheckResult,
    Limits,
    Result,
    StopRun,
    collect_checks,
    crashed,
    learner_line,
    printed,
    reference,
    replacing,
    rerun,
    run_checks,
)
from .source import learner_traceback
from .words import listing, mismatches, number, numbers_apart, plural, shown

__all__ = [
    "STATUSES",
    "Case",
    "agrees",
    "crashed",
    "cut_counts",
    "cut_message",
    "cut_off",
    "cut_words",
    "matrix_leaves",
    "differ",
    "learner_line",
    "number_lists",
    "plain",
    "reference",
    "require_own",
    "rerun",
    "value_graphs",
    "words",
    "CheckFailed",
    "CheckResult",
    "Limits",
    "Result",
    "RunOutcome",
    "StopRun",
    "calling",
    "check",
    "gather",
    "close",
    "collect_checks",
    "fail",
    "listing",
    "mismatches",
    "number",
    "numbers_apart",
    "plural",
    "printed",
    "replacing",
    "shown",
    "learner_traceback",
    "nudge_grads",
    "run_checks",
    "run_program",
    "slope",
]
