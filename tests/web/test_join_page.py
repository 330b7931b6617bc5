"""The join page (GET /classes/join/?code=...) and the join form (POST) share one limiter, and the
page tells no more about a class than joining it does: its name, never its teachers."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from linebyline.teaching.membership import JOIN_RATE
from linebyline.teaching.models import Classroom

LIMIT = int(JOIN_RATE.split("/")[0])
WRONG = "ABCD-EFGH"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


@pytest.fixture
def classroom(db) -> Classroom:
    made = Classroom.objects.create(name="Room 12", course="microgpt", join_code="K7QXM3PD")
    made.teachers.add(User.objects.create_user("tess-the-teacher", password="x"))
    return made


@pytest.fixture
def ada(db) -> Client:
    client = Client()
    client.force_login(User.objects.create_user("ada", password="x"))
    return client


def test_looking_codes_up_on_the_page_is_throttled_like_joining(ada, classroom):
    statuses = [ada.get("/classes/join/", {"code": WRONG}).status_code for _ in range(LIMIT + 1)]
    assert statuses == [200] * LIMIT + [429]
    for asked in (ada.get("/classes/join/", {"code": classroom.shown_code}),
                  ada.post("/classes/join/", {"code": classroom.join_code})):
        assert asked.status_code == 429
        page = asked.content.decode()
        assert "tried many join codes" in page and "Room 12" not in page
    assert not classroom.learners.exists()
    assert ada.get("/classes/join/").status_code == 200  # the empty form is no guess: still shown


def test_guesses_by_post_count_against_the_page_too(ada, classroom):
    for _ in range(LIMIT):
        assert ada.post("/classes/join/", {"code": WRONG}).status_code == 400
    page = ada.get("/classes/join/", {"code": classroom.shown_code})
    assert page.status_code == 429 and "Room 12" not in page.content.decode()


def test_the_page_names_the_class_but_not_its_teachers(ada, classroom):
    page = ada.get("/classes/join/", {"code": classroom.shown_code}).content.decode()
    assert "You are about to join" in page and "Room 12" in page
    assert "tess-the-teacher" not in page
    wrong = ada.get("/classes/join/", {"code": WRONG}).content.decode()
    assert "No class has this join code" in wrong
