"""A lesson's facts run after its Explore code, in the namespace that code leaves behind (see
compute_worker._item): the numbers the prose quotes must not start from what Explore changed.

Explore's code may train the weights, leave grads piled up, reseed or draw from `random`, or
redefine the solution's names. Each lesson's facts are computed again here on the solution
alone, Explore's code left out, and must come out the same. Where the facts quote Explore's own
runs on purpose, they read names only Explore defines, so alone they cannot run at all; those
lessons are listed with the test that checks them against a fresh solution instead.
"""
from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from linebyline.authoring.computed import compute_lesson

from .conftest import the_course

COURSE = the_course()
BOTH = [lesson.number for module in COURSE.modules for lesson in module.lessons
        if lesson.explore.compute and lesson.facts]
# Facts that quote what Explore ran or saved (its runs, its `start`, its `data`), and the test
# that compares the rest with a fresh solution.
QUOTE_EXPLORE = {
    "6.5": "tests/test_module_6.py::"
           "test_6_5_the_gradient_quoted_is_the_first_names_at_the_starting_weights",
    "7.6": "tests/test_lesson_7_module.py::"
           "test_7_6_without_zeroing_the_grads_pile_up_and_the_loss_blows_up",
    "9.1": "tests/test_module_9.py::test_9_1_quoted_slices_are_a_fresh_models",
    # Module 11's facts count Explore's own draws from microgpt's trained weights; the widget's
    # draws are held against microgpt.py's printed names and the names file in Chromium.
    "11.1": "tests/browser/test_widgets_module_11.py::"
            "test_fresh_caches_show_microgpts_own_names_and_the_toggle_shows_both_slips",
    "11.2": "tests/browser/test_widgets_module_11.py::"
            "test_temperatures_same_random_numbers_and_no_run_of_ones_own",
    "11.3": "tests/browser/test_widgets_module_11.py::"
            "test_endings_are_told_by_length_and_without_bos_every_name_runs_to_the_limit",
    "11.4": "tests/browser/test_widgets_module_11.py::"
            "test_each_name_is_tagged_by_where_it_comes_from",
}
# Memory measured with tracemalloc: two runs differ by a few hundred bytes in ten megabytes.
MEASURED = {"7.2"}


@cache
def lesson(number):
    found = COURSE.lesson(number)
    assert found is not None, f"lesson {number} is not in the course"
    return found


def facts_alone(number):
    """The lesson's facts computed right after its solution, with no Explore code (and no quiz)."""
    found = lesson(number)
    alone = dataclasses.replace(found, explore=dataclasses.replace(found.explore, compute=""),
                                quiz=())
    return compute_lesson(alone)


def test_the_lessons_with_both_are_found():
    assert {"1.2", "2.4", "6.4", "6.5", "7.6", "8.6"} <= set(BOTH)
    assert set(QUOTE_EXPLORE) <= set(BOTH)


@pytest.mark.parametrize("number", BOTH)
def test_facts_do_not_start_from_what_explore_left(number):
    after = compute_lesson(lesson(number))
    assert not after.problems, after.problems
    alone = facts_alone(number)
    if number in QUOTE_EXPLORE and alone.problems:
        assert len(alone.problems) == 1 and "NameError" in alone.problems[0], alone.problems
        return
    assert not alone.problems, alone.problems
    after_facts, alone_facts = dict(after.facts), dict(alone.facts)
    expected = pytest.approx(alone_facts, rel=1e-3) if number in MEASURED else alone_facts
    assert after_facts == expected, "the facts read what Explore's code changed"
