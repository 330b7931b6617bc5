"""The course's end page, through Django's test client: what the server hands its script, and
the last published lesson's way there."""
from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache

from linebyline.authoring.lesson_standard import learner_lines
from linebyline.web.pages import lesson_url

# Pages, the service worker and the course as data: no query (make test's PostgreSQL run
# leaves them out; tests/web/conftest.py holds the mark to that).
pytestmark = pytest.mark.same_on_every_database


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


def end_data(page: str) -> dict:
    found = re.search(r'<script id="end-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the end page carries its data"
    return json.loads(found.group(1))


def test_the_end_page_gives_each_lessons_checks_and_written_lines(client, course):
    response = client.get("/the-end/")
    assert response.status_code == 200
    page = response.content.decode()
    data = end_data(page)
    lessons = list(course.lessons())
    assert set(data["lessons"]) == {lesson.number for lesson in lessons}
    for lesson in lessons:
        assert data["lessons"][lesson.number] == {
            "checks": len(lesson.exercise.check_names), "written": len(learner_lines(lesson))}
    assert data["script"] == course.program_name
    assert data["reference"] is None or len(data["reference"]["losses"]) == data["reference"]["steps"]


def test_only_the_last_published_lesson_leads_to_the_end_page(client, course):
    lessons = list(course.lessons())
    last = client.get(lesson_url(lessons[-1])).content.decode()
    assert 'data-course-end href="/the-end/"' in last
    before = client.get(lesson_url(lessons[-2])).content.decode()
    assert "data-course-end" not in before
