"""The figures a course ships (computed.json, written by a whole-course lint): a fresh clone's
lint and server read them instead of training again, and a stale one is never read."""
from __future__ import annotations

import json

import pytest

from linebyline.authoring import computed
from linebyline.course import load_course

from .conftest import replace, the_course

COURSE = the_course()
LESSON = "1.3"  # its figures take a moment to compute


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty user cache and nothing remembered in memory, as on a fresh clone."""
    monkeypatch.setenv("LINEBYLINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(computed, "_memory", {})
    monkeypatch.setattr(computed, "_used", {})


def never_compute(*args, **kwargs):
    raise AssertionError("computed a figure that the course ships")


def test_the_course_ships_every_figure_its_lessons_and_reviews_compute():
    missing = computed.unshipped(COURSE.path, list(COURSE.lessons()), list(COURSE.modules))
    assert missing == [], (f"{computed.SHIPPED} lacks the figures of {', '.join(missing)}: run "
                           "`linebyline lint courses/microgpt` and commit it")


def test_a_fresh_clone_reads_the_shipped_figures_without_computing(fresh, monkeypatch):
    monkeypatch.setattr(computed, "_run_child", never_compute)
    for lesson in COURSE.lessons():
        got = computed.compute_lesson(lesson)
        assert not got.problems, (lesson.number, got.problems)
    assert not list((computed.cache_dir()).glob("*.json"))  # nothing needed computing or storing


def test_a_changed_lesson_is_computed_again_and_lint_ships_the_new_figures(fresh, copy):
    course = load_course(copy)
    assert computed.unshipped(copy, list(course.lessons()), list(course.modules)) == []
    watch = copy / "lessons" / course.lesson(LESSON).path.name / "lesson.yaml"
    text = watch.read_text()
    assert "facts: |" in text, "the test needs a lesson whose text quotes computed facts"
    replace(watch, "facts: |", "facts: |\n  extra_fact_for_the_test = 1")
    changed = load_course(copy)
    assert computed.unshipped(copy, list(changed.lessons()), list(changed.modules)) == [LESSON]

    figures = computed.compute_lesson(changed.lesson(LESSON))
    assert figures.facts and not figures.problems
    for lesson in changed.lessons():
        computed.compute_lesson(lesson)
    for module in changed.modules:
        computed.compute_review(module)
    shipped = computed.ship(copy)
    assert (shipped.added, shipped.dropped) == (1, 1) and not shipped.error
    assert computed.unshipped(copy, list(changed.lessons()), list(changed.modules)) == []
    entries = json.loads((copy / computed.SHIPPED).read_text())["entries"]
    assert len(entries) == shipped.kept
    assert computed.ship(copy).changed is False  # written once, then left alone


def test_a_shipped_file_of_another_protocol_or_broken_is_ignored(fresh, copy, monkeypatch):
    lesson = load_course(copy).lesson(LESSON)
    path = copy / computed.SHIPPED
    for text in ('{"protocol": "0", "entries": {}}', "{not json"):
        path.write_text(text)
        monkeypatch.setattr(computed, "_memory", {})
        monkeypatch.setattr(computed, "_run_child", never_compute)
        with pytest.raises(AssertionError, match="computed a figure"):
            computed.compute_lesson(lesson)
