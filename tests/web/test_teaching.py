"""The teacher's view and classes: who sees what, and figures counted from real events."""
from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from linebyline.teaching.models import CheckFailure, Classroom, LearningEvent, Membership
from linebyline.web.models import LessonFeedback

NAMES = ["the example's gradients", "a value used twice adds up", "each node waits for all its users",
         "every gradient matches nudging"]


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def send(client: Client, *events, browser="0" * 32):
    body = {"course": "microgpt", "browser": browser, "events": list(events)}
    response = client.post("/events/", json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content


def check(status, first="pass", message=""):
    statuses = [first] + ["pass"] * 3 if status == "pass" else [first, "pass", "pass", "pass"]
    if status == "not-attempted":
        statuses = ["not-attempted"] * 4
    return {"lesson": "7.5", "kind": "check", "status": status,
            "checks": [{"name": n, "status": s, "message": message if s != "pass" else ""}
                       for n, s in zip(NAMES, statuses)]}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def people():
    teacher = User.objects.create_user("tess", password="x")
    teacher.user_permissions.add(Permission.objects.get(codename="add_classroom"))
    return {"teacher": teacher, "staff": User.objects.create_user("sam", password="x", is_staff=True),
            "ada": User.objects.create_user("ada", password="x"),
            "bob": User.objects.create_user("bob", password="x"),
            "cy": User.objects.create_user("cy", password="x")}


@pytest.fixture
def classroom(people):
    teacher = signed_in(people["teacher"])
    response = teacher.post("/teach/classes/new/", {"name": "Thursday <evening> group"})
    made = Classroom.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/teach/classes/{made.pk}/"
    assert list(made.teachers.all()) == [people["teacher"]] and made.course == "microgpt"
    return made


@pytest.fixture
def activity(people, classroom):
    """Ada and Bob join; Cy does not; an anonymous browser checks too."""
    ada, bob, cy = (signed_in(people[name]) for name in ("ada", "bob", "cy"))
    shown = ada.get(f"/classes/join/?code={classroom.shown_code}").content.decode()
    assert "You are about to join" in shown and "Thursday &lt;evening&gt; group" in shown
    assert ada.post("/classes/join/", {"code": classroom.join_code}).status_code == 302
    lowercase = f"{classroom.join_code[:4].lower()}-{classroom.join_code[4:].lower()} "
    assert bob.post("/classes/join/", {"code": lowercase}).status_code == 302
    assert set(classroom.learners.all()) == {people["ada"], people["bob"]}

    send(ada, {"lesson": "7.5", "kind": "start"}, check("fail", "fail", "grad is 0, expected 4"),
         check("fail", "fail", "grad is 0, expected 4"), check("pass"),
         {"lesson": "7.5", "kind": "hint", "hint": 1}, {"lesson": "7.5", "kind": "hint", "hint": 2},
         {"lesson": "7.5", "kind": "codealong"})
    send(bob, check("not-attempted"), check("pass"), {"lesson": "7.5", "kind": "solution"})
    send(cy, check("pass"), {"lesson": "7.5", "kind": "hint", "hint": 4})
    send(Client(), check("fail", "error", "NameError: name 'topo' is not defined"), browser="a" * 32)
    for client, clear, comment in ((ada, "no", "<b>lost</b> in the order part"), (cy, "yes", "fine")):
        assert client.post("/feedback/7.5/", {"clear": clear, "comment": comment},
                           HTTP_ACCEPT="application/json").status_code == 201
    return classroom


def row(html: str, number: str) -> list[str]:
    found = re.search(rf'<tr data-lesson-row="{re.escape(number)}">(.*?)</tr>', html, re.S)
    assert found, number
    return [text_of(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", found.group(1), re.S)]


def test_the_class_overview_counts_its_members_only(people, activity):
    page = signed_in(people["teacher"]).get(f"/teach/classes/{activity.pk}/").content.decode()
    # lesson, started, passed, median attempts, hints, code-along, solution, clear yes / no
    assert row(page, "7.5")[1:] == ["2", "2", "2", "1", "1", "1", "0 / 1 (0% yes)"]
    assert row(page, "7.4")[1:] == ["0", "0", "–", "0", "0", "0", "0 / 0"]
    assert "0 learners passed every lesson of this module" in text_of(page)
    assert activity.shown_code in page and f"/classes/join/?code={activity.shown_code}" in page
    roster = text_of(page.split('id="roster-h"')[1])
    assert "ada" in roster and "bob" in roster and "cy" not in roster
    charts = json.loads(page.split('id="chart-data" type="application/json">')[1].split("</script>")[0])
    module7 = next(c for c in charts if c["id"] == "funnel-7")
    assert module7["labels"] == ["7.4", "7.5"]
    assert [s["values"] for s in module7["series"]] == [[0, 2], [0, 2]]
    assert "Thursday &lt;evening&gt; group" in page and "<evening>" not in page


def test_everyone_counts_every_learner_signed_in_or_not(people, activity):
    page = signed_in(people["staff"]).get("/teach/everyone/").content.decode()
    # Ada 3 attempts, Bob 1, Cy 1 (the anonymous learner has not passed): median 1
    assert row(page, "7.5")[1:] == ["4", "3", "1", "2", "1", "1", "1 / 1 (50% yes)"]
    assert "4 learners, 3 of them signed in" in text_of(page)


def test_the_lesson_page_shows_failing_checks_help_and_feedback(people, activity):
    page = signed_in(people["teacher"]).get(f"/teach/classes/{activity.pk}/lessons/7.5/").content.decode()
    text = text_of(page)
    assert "Learners who started 2" in text and "Passed the checks 2" in text
    assert "Median attempts to pass 2" in text and "Checked runs 4" in text  # Bob's starter check is not one
    first = re.search(r'<tr data-check="1">(.*?)</tr>', page, re.S).group(1)
    assert "the example&#x27;s gradients" in first and "grad is 0, expected 4" in first and "×2" in first
    assert "NameError" not in page  # the anonymous learner is not in the class
    assert "Hint 1: 1 learner" in text and "Hint 2: 1 learner" in text and "Hint 3: 0 learners" in text
    assert "Code-along opened: 1 learner" in text and "Solution revealed: 1 learner" in text
    assert "0 yes, 1 no (0% yes, from 1 answer)" in text
    assert "&lt;b&gt;lost&lt;/b&gt; in the order part" in page and "<b>lost" not in page
    charts = json.loads(page.split('id="chart-data" type="application/json">')[1].split("</script>")[0])
    assert charts[0]["labels"] == ["1", "2", "3", "4", "5"]
    assert charts[0]["series"][0]["values"] == [2, 0, 0, 0, 0]


def test_staff_see_every_learners_failures(people, activity):
    page = signed_in(people["staff"]).get("/teach/everyone/lessons/7.5/").content.decode()
    assert "NameError: name &#x27;topo&#x27; is not defined" in page
    assert "Hint 4: 1 learner" in text_of(page)


def test_who_may_see_what(people, activity):
    other = User.objects.create_user("otto", password="x")
    other.user_permissions.add(Permission.objects.get(codename="add_classroom"))
    url = f"/teach/classes/{activity.pk}/"
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"] == f"/accounts/login/?next={url}"
    assert Client().get("/classes/join/")["Location"].startswith("/accounts/login/")
    learner = signed_in(people["ada"])
    refused = learner.get("/teach/")
    assert refused.status_code == 403 and "does not teach a class" in refused.content.decode()
    assert learner.get(url).status_code == 404  # a learner of the class is not its teacher
    assert learner.get("/teach/everyone/").status_code == 403
    assert signed_in(other).get(url).status_code == 404  # another teacher's class
    assert signed_in(other).get(url + "lessons/7.5/").status_code == 404
    assert signed_in(other).post(url + "code/").status_code == 404
    assert signed_in(people["teacher"]).get("/teach/everyone/").status_code == 403  # staff only
    assert signed_in(people["staff"]).get(url).status_code == 200
    assert signed_in(people["teacher"]).get(url + "lessons/9.9/").status_code == 404
    assert signed_in(people["ada"]).post("/teach/classes/new/", {"name": "mine"}).status_code == 403


def test_the_teach_link_shows_for_teachers_only(people, activity):
    assert '<a href="/teach/">Teach</a>' in signed_in(people["teacher"]).get("/").content.decode()
    assert '<a href="/teach/">Teach</a>' in signed_in(people["staff"]).get("/").content.decode()
    assert "/teach/" not in signed_in(people["ada"]).get("/").content.decode()
    co_teacher = people["cy"]
    activity.teachers.add(co_teacher)  # a teacher of a class, without the permission to make one
    assert '<a href="/teach/">Teach</a>' in signed_in(co_teacher).get("/").content.decode()


def test_a_new_join_code_retires_the_old_one(people, activity):
    old = activity.join_code
    teacher = signed_in(people["teacher"])
    assert teacher.post(f"/teach/classes/{activity.pk}/code/").status_code == 302
    activity.refresh_from_db()
    assert activity.join_code != old
    refused = signed_in(people["cy"]).post("/classes/join/", {"code": old})
    assert refused.status_code == 400 and "No class has this join code" in refused.content.decode()
    assert set(activity.learners.all()) == {people["ada"], people["bob"]}  # members stay


def test_a_teacher_removes_a_learner_and_a_learner_leaves(people, activity):
    teacher = signed_in(people["teacher"])
    response = teacher.post(f"/teach/classes/{activity.pk}/remove/", {"user": people["bob"].pk}, follow=True)
    assert "bob is no longer in" in response.content.decode()
    assert row(teacher.get(f"/teach/classes/{activity.pk}/").content.decode(), "7.5")[1:3] == ["1", "1"]
    assert teacher.post(f"/teach/classes/{activity.pk}/remove/", {"user": "x"}).status_code == 404
    ada = signed_in(people["ada"])
    account = ada.get("/accounts/").content.decode()  # the account page lists the learner's classes
    assert 'data-class="Thursday &lt;evening&gt; group"' in account and 'name="code"' in account
    left = ada.post(f"/classes/{activity.pk}/leave/")
    assert left.status_code == 302 and left["Location"] == "/accounts/#classes"
    assert not Membership.objects.filter(classroom=activity).exists()
    assert "You are not in a class" in ada.get("/accounts/").content.decode()
    assert ada.post(f"/classes/{activity.pk}/leave/").status_code == 404


@pytest.mark.parametrize("code, problem", [("", "This field is required"),
                                           ("ABC", "has 8 letters and digits"),
                                           ("ABCD-EFG0", "has 8 letters and digits"),
                                           ("ABCD-EFGH", "No class has this join code")])
def test_bad_join_codes_are_explained(people, code, problem):
    response = signed_in(people["ada"]).post("/classes/join/", {"code": code})
    assert response.status_code == 400 and problem in response.content.decode()


def test_join_codes_cannot_be_guessed_by_trying(people, classroom):
    ada = signed_in(people["ada"])
    statuses = [ada.post("/classes/join/", {"code": "ABCD-EFGH"}).status_code for _ in range(21)]
    assert statuses[:20] == [400] * 20 and statuses[20] == 429
    refused = ada.post("/classes/join/", {"code": classroom.join_code})  # even the right one, for now
    assert refused.status_code == 429 and "tried many join codes" in refused.content.decode()
    assert not classroom.learners.exists()


def test_a_period_leaves_older_activity_out(people, activity):
    LearningEvent.objects.filter(user=people["ada"]).update(created=timezone.now() - timedelta(days=10))
    LessonFeedback.objects.filter(user=people["ada"]).update(created=timezone.now() - timedelta(days=10))
    teacher = signed_in(people["teacher"])
    week = teacher.get(f"/teach/classes/{activity.pk}/?period=7").content.decode()
    assert row(week, "7.5")[1:] == ["1", "1", "1", "0", "0", "1", "0 / 0"]
    assert "the last 7 days" in week
    month = teacher.get(f"/teach/classes/{activity.pk}/?period=30").content.decode()
    assert row(month, "7.5")[1:3] == ["2", "2"]
    nonsense = teacher.get(f"/teach/classes/{activity.pk}/?period=forever")
    assert nonsense.status_code == 200 and row(nonsense.content.decode(), "7.5")[1:3] == ["2", "2"]


def test_a_class_name_is_required_and_bounded(people):
    teacher = signed_in(people["teacher"])
    assert teacher.post("/teach/classes/new/", {"name": "  "}).status_code == 400
    assert teacher.post("/teach/classes/new/", {"name": "x" * 101}).status_code == 400
    assert not Classroom.objects.exists()


def test_a_learners_data_file_holds_their_classes_and_what_their_pages_recorded(people, activity):
    data = json.loads(signed_in(people["ada"]).get("/accounts/data.json").content)
    assert [c["class"] for c in data["classes"]] == ["Thursday <evening> group"]
    mine = LearningEvent.objects.filter(user=people["ada"])
    assert len(data["learning_events"]) == mine.count() > 0
    assert {e["lesson"] for e in data["learning_events"]} == {"7.5"}
    failed = [c for e in data["learning_events"] for c in e["failed_checks"]]
    stored = CheckFailure.objects.filter(event__user=people["ada"]).order_by("event_id", "id")
    assert failed == [{"name": f.name, "status": f.status, "message": f.message} for f in stored]
