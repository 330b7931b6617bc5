"""The progress API's law: whatever an account holds, what GET answers can be POSTed back (and
changes nothing), so no account can end up unable to sync. Lesson numbers are checked against the
course (unknown ones: a 400 that names them, nothing stored), answers are as compact as what is
stored, and a document written before these checks is repaired by setting aside, not dropping,
what the course cannot take. The merge's own laws are in tests/test_progress_merge.py."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linebyline.accounts import store
from linebyline.accounts.models import ProgressDocument, SetAsideProgress
from linebyline.progress import merge as pm

from ..progress_cases import lessons as generated_lessons

API = "/api/progress/"
UNKNOWN = ["999.0", "12.99", "0.1"]


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


def document(lessons: dict, course: str = "microgpt") -> dict:
    return pm.document(course, lessons)


def post(client: Client, body: dict | bytes):
    text = body if isinstance(body, bytes) else json.dumps(body)
    return client.post(API, text, content_type="application/json")


def got(client: Client):
    return client.get(API, {"course": "microgpt"})


def signed_in(name: str) -> tuple[User, Client]:
    user = User.objects.create_user(name, password="x")
    client = Client()
    client.force_login(user)
    return user, client


def the_law_holds(client: Client) -> dict:
    """GET, POST exactly what came back: accepted, and nothing changes."""
    read = got(client)
    assert read.status_code == 200
    again = post(client, read.content)
    assert again.status_code == 200, again.content[:300]
    assert again.json() == read.json() == got(client).json()
    return read.json()


@pytest.fixture(scope="module")
def numbers(course) -> list[str]:
    known = [lesson.number for lesson in course.lessons()]
    assert len(known) <= pm.MAX_LESSONS  # else a full account could not send itself back
    return known


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_what_get_answers_can_always_be_posted_back(numbers, data):
    cache.clear()
    _, client = signed_in(f"law-{ProgressDocument.objects.count()}-{User.objects.count()}")
    lesson_numbers = st.sampled_from(numbers[:3] + numbers[-2:] + UNKNOWN)
    sent = data.draw(st.lists(st.dictionaries(lesson_numbers, generated_lessons(), max_size=3),
                              min_size=1, max_size=4))
    for lessons in sent:
        before = got(client).json()
        answer = post(client, document(lessons))
        unknown = set(lessons) & set(UNKNOWN)
        if unknown:
            assert answer.status_code == 400
            for number in unknown:
                assert number in answer.json()["error"]
            assert got(client).json() == before  # nothing stored
        else:
            assert answer.status_code == 200
        held = the_law_holds(client)
        assert not set(held["lessons"]) & set(UNKNOWN)


def test_unknown_lessons_are_refused_by_number_and_nothing_is_stored(db):
    _, client = signed_in("ada")
    many = {f"999.{index}": {"status": "done"} for index in range(499)}
    refused = post(client, document({"7.4": {"status": "done"}, **many}))
    assert refused.status_code == 400
    message = refused.json()["error"]
    assert message.startswith("lessons 999.0, 999.1, 999.2") and "and 489 more" in message
    assert "nothing was stored" in message and "7.4" not in message
    # Named for programs too, every one of them (the terminal keeps those lessons to itself).
    assert refused.json()["unknown"] == [f"999.{index}" for index in range(499)]
    assert not ProgressDocument.objects.exists()


def test_an_answer_is_no_larger_than_what_is_stored(db):
    """Drafts of non-Latin text: escaped as \\uXXXX, the answer was three times the stored size,
    and an account holding 1.6 MB got back 4.8 MB, which it could not send again."""
    _, client = signed_in("ada")
    for index, number in enumerate(["7.4", "7.5", "1.1", "1.2"]):
        lesson = {"status": "in-progress", "draft": "é" * pm.MAX_DRAFT, "draftAt": index + 1,
                  "draftDevice": f"b-{index}"}
        assert post(client, document({number: lesson})).status_code == 200
    stored = len(ProgressDocument.objects.get().lessons.encode())
    read = got(client)
    assert len(read.content) < stored + 200
    the_law_holds(client)


def filled(numbers: list[str], size: int) -> dict:
    """Lessons with six draft versions each whose stored text is exactly `size` bytes."""
    def build(length: int, extra: int) -> dict:
        lessons = {}
        for number in numbers:
            lesson = {"status": "in-progress", "quiz": {}, "hintsShown": 0}
            pm._set_versions(lesson, [{"draft": "x" * (length + (extra if number == numbers[0]
                                                                  and at == 5 else 0)),
                                       "at": at, "device": f"b-{at}", "base": {}}
                                      for at in range(5, -1, -1)])
            lessons[number] = lesson
        return lessons
    overhead = len(store._text(build(0, 0)))
    drafts = 6 * len(numbers)
    length, extra = divmod(size - overhead, drafts)
    return build(length, extra)


def test_an_account_filled_to_the_limit_can_send_itself_back(db):
    """Stored just under the limit, the answer is the stored text in its envelope: a few bytes
    over it, which POST must still take."""
    user, client = signed_in("ada")
    lessons = filled(["7.4", "7.5", "1.1", "1.2", "1.3"], store.MAX_STORED - 10)
    text = store._text(lessons)
    assert len(text.encode()) == store.MAX_STORED - 10
    ProgressDocument.objects.create(user=user, course="microgpt", lessons=text, revision=1)
    assert len(got(client).content) > store.MAX_STORED
    the_law_holds(client)


def test_a_document_stored_before_the_check_is_repaired_and_nothing_is_lost(db):
    """What the attack left: 501 lessons, 500 of them not in the course. GET answered all of them
    and POST refused them back ("more than the 500"). Now GET answers the course's lessons, the
    next write moves the rest aside, and the account page offers them as a download."""
    user, client = signed_in("ada")
    junk = {f"999.{index}": {"status": "done", "quiz": {}, "hintsShown": 0} for index in range(500)}
    kept = {"7.4": pm.read_lesson({"status": "done", "draft": "mine", "draftAt": 1,
                                   "draftDevice": "b-a"}, "7.4")}
    ProgressDocument.objects.create(user=user, course="microgpt", revision=1,
                                    lessons=json.dumps({**junk, **kept}))
    assert set(the_law_holds(client)["lessons"]) == {"7.4"}
    answer = post(client, document({"7.5": {"status": "in-progress"}}))
    assert answer.status_code == 200 and set(answer.json()["lessons"]) == {"7.4", "7.5"}
    assert set(json.loads(ProgressDocument.objects.get().lessons)) == {"7.4", "7.5"}
    part = SetAsideProgress.objects.get(user=user)
    assert json.loads(part.lessons) == junk and "999.0" in part.reason
    page = client.get("/accounts/").content.decode()
    assert "Progress set aside" in page and f"/accounts/set-aside/{part.pk}.json" in page
    download = client.get(f"/accounts/set-aside/{part.pk}.json")
    assert download["Content-Disposition"].startswith("attachment")
    assert json.loads(download.content)["lessons"] == junk
    assert json.loads(client.get("/accounts/data.json").content)["progress_set_aside"][0][
        "lessons"] == junk
    _, grace = signed_in("grace")
    assert grace.get(f"/accounts/set-aside/{part.pk}.json").status_code == 404
    assert client.post(f"/accounts/set-aside/{part.pk}/delete/").status_code == 302
    assert not SetAsideProgress.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_sets_aside_what_the_course_cannot_take():
    executor = MigrationExecutor(connection)
    before, after = [("accounts", "0001_initial")], [("accounts", "0002_progress_set_aside")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="ada", password="!")
    readable = {"status": "done", "quiz": {}, "hintsShown": 0}
    broken = {"status": "finished"}  # stored by a server whose rules were looser
    lessons = {"7.4": readable, "7.5": broken, **{f"999.{i}": readable for i in range(3)}}
    old.get_model("accounts", "ProgressDocument").objects.create(
        user_id=user.pk, course="microgpt", lessons=json.dumps(lessons), revision=4)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    # Read as the models were at that migration (a later one adds the settings column).
    migrated = executor.loader.project_state(after).apps
    repaired = migrated.get_model("accounts", "ProgressDocument").objects.get()
    assert json.loads(repaired.lessons) == {"7.4": readable} and repaired.revision == 5
    part = migrated.get_model("accounts", "SetAsideProgress").objects.get()
    assert json.loads(part.lessons) == {"7.5": broken, "999.0": readable, "999.1": readable,
                                        "999.2": readable}
    assert "999.0, 999.1, 999.2 not in this course" in part.reason and "7.5 (" in part.reason
    # Back to the latest schema, for the tests that follow.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert json.loads(ProgressDocument.objects.get().settings) == {}  # the column's default


def test_a_recall_exercise_is_kept_beside_the_lessons(db):
    _, client = signed_in("ada")
    stored = post(client, document({"7.4": {"status": "done"}, "review-7": {"status": "done"}}))
    assert stored.status_code == 200, stored.content
    assert got(client).json()["lessons"]["review-7"]["status"] == "done"
    the_law_holds(client)
    refused = post(client, document({"review-13": {"status": "done"}}))
    assert refused.status_code == 400 and refused.json()["unknown"] == ["review-13"]
