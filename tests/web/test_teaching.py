"""The teacher's view and classes: who sees what, and figures counted from real events."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import timedelta
from functools import cache

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache as shared_cache
from django.test import Client
from django.utils import timezone

from linebyline.teaching.models import CheckFailure, Classroom, LearningEvent, Membership
from linebyline.web.models import LessonFeedback

from ..conftest import the_course

NAMES = ["the example's gradients", "a value used twice adds up", "each node waits for all its users",
         "every gradient matches nudging"]
COUNTER = iter(range(1, 10**9))


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    shared_cache.clear()


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def send(client: Client, *events, browser="0" * 32):
    named = [{"id": f"{next(COUNTER):032x}", **event} for event in events]
    body = {"course": "microgpt", "browser": browser, "events": named}
    response = client.post("/events/", json.dumps(body), content_type="application/json")
    assert response.status_code == 201, response.content


@cache
def check_names(lesson: str) -> tuple[str, ...]:
    return the_course().lesson(lesson).exercise.check_names


def check(status, first="pass", message="", code="", lesson="7.5", statuses=None):
    statuses = statuses or ([first] + ["pass"] * 3 if status == "pass" else [first, "pass", "pass", "pass"])
    if status == "not-attempted":
        statuses = ["not-attempted"] * 4
    event = {"lesson": lesson, "kind": "check", "status": status,
             "checks": [{"name": n, "status": s, "message": message if s != "pass" else ""}
                        for n, s in zip(check_names(lesson), statuses)]}
    if code:
        event["code"] = code
    return event


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def people():
    teacher = User.objects.create_user("tess", password="x")
    teacher.user_permissions.add(Permission.objects.get(codename="add_classroom"))
    return {"teacher": teacher, "staff": User.objects.create_user("sam", password="x", is_staff=True),
            "ada": User.objects.create_user("ada", password="x", first_name="Ada"),
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


def join(client: Client, classroom: Classroom) -> None:
    assert client.post("/classes/join/", {"code": classroom.join_code}).status_code == 302


@pytest.fixture
def activity(people, classroom):
    """Ada and Bob join; Cy does not; an anonymous browser checks too."""
    ada, bob, cy = (signed_in(people[name]) for name in ("ada", "bob", "cy"))
    shown = ada.get(f"/classes/join/?code={classroom.shown_code}").content.decode()
    assert "You are about to join" in shown and "Thursday &lt;evening&gt; group" in shown
    assert "the code you checked" in shown  # told before joining what the teachers will see
    join(ada, classroom)
    lowercase = f"{classroom.join_code[:4].lower()}-{classroom.join_code[4:].lower()} "
    assert bob.post("/classes/join/", {"code": lowercase}).status_code == 302
    assert set(classroom.learners.all()) == {people["ada"], people["bob"]}

    send(ada, {"lesson": "7.5", "kind": "start"},
         check("fail", "fail", "grad is 0, expected 4", code="def backward(self):\n    pass\n"),
         check("fail", "fail", "grad is 0, expected 4", code="def backward(self):\n    return\n"),
         check("pass", code="def backward(self):\n    ...  # right\n"),
         {"lesson": "7.5", "kind": "hint", "hint": 1}, {"lesson": "7.5", "kind": "hint", "hint": 2},
         {"lesson": "7.5", "kind": "codealong"})
    send(bob, check("not-attempted"), {"lesson": "7.5", "kind": "solution"}, check("pass"))
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


def grid(html: str) -> dict[str, dict[str, str]]:
    """The class page's grid: per learner, per lesson column, the cell's state."""
    table = html.split("data-grid>")[1].split("</table>")[0]
    found = {}
    for learner, body in re.findall(r'<tr data-learner="([^"]+)"[^>]*>(.*?)</tr>', table, re.S):
        found[learner] = dict(re.findall(r'data-cell="([\d.]+)" data-state="([a-z-]+)"', body))
    return found


def cell_text(html: str, learner: str, number: str) -> str:
    body = re.search(rf'<tr data-learner="{re.escape(learner)}"[^>]*>(.*?)</tr>', html, re.S).group(1)
    cell = re.search(rf'<td [^>]*data-cell="{re.escape(number)}"[^>]*>(.*?)</td>', body, re.S).group(1)
    return re.search(r'class="visually-hidden">([^<]*)<', cell).group(1)


def class_page(people, classroom, query="") -> str:
    response = signed_in(people["teacher"]).get(f"/teach/classes/{classroom.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_class_overview_counts_its_members_only(people, activity):
    page = class_page(people, activity)
    # lesson, started, done, median attempts, hints, code-along, solution, clear yes / no
    assert row(page, "7.5")[1:] == ["2", "2", "2", "1", "1", "1", "0 / 1 (0% yes)"]
    assert row(page, "7.4")[1:] == ["0", "0", "–", "0", "0", "0", "0 / 0"]
    assert "0 learners passed every lesson of this module" in text_of(page)
    assert activity.shown_code in page and f"/classes/join/?code={activity.shown_code}" in page
    module_7 = [lesson.number for lesson in the_course().modules[6].lessons]
    untouched = {number: "not-started" for number in module_7}  # the grid shows module 7 only
    assert grid(page) == {"ada": {**untouched, "7.5": "done"}, "bob": {**untouched, "7.5": "solution"}}
    assert cell_text(page, "ada", "7.5") == "done, 3 runs"
    assert cell_text(page, "bob", "7.5") == "done with the solution, 1 run"
    charts = json.loads(page.split('id="chart-data" type="application/json">')[1].split("</script>")[0])
    assert [chart["id"] for chart in charts] == ["funnel-7"]  # modules no one worked in are folded
    five = module_7.index("7.5")
    assert [s["values"][five] for s in charts[0]["series"]] == [2, 2]
    assert sum(sum(s["values"]) for s in charts[0]["series"]) == 4
    assert "No activity in all time: module 1 (" in text_of(page)
    assert "Thursday &lt;evening&gt; group" in page and "<evening>" not in page


def test_everyone_counts_every_learner_signed_in_or_not(people, activity):
    page = signed_in(people["staff"]).get("/teach/everyone/").content.decode()
    # Ada 3 attempts, Bob 1, Cy 1 (the anonymous learner has not passed): median 1
    assert row(page, "7.5")[1:] == ["4", "3", "1", "2", "1", "1", "1 / 1 (50% yes)"]
    assert "4 learners, 3 of them signed in" in text_of(page)


def test_the_lesson_page_shows_who_failing_checks_help_and_feedback(people, activity):
    page = signed_in(people["teacher"]).get(f"/teach/classes/{activity.pk}/lessons/7.5/").content.decode()
    text = text_of(page)
    assert "Learners who started 2" in text and "Done 2" in text
    assert "Median attempts to pass 2" in text and "Checked runs 4" in text  # Bob's starter check is not one
    first = re.search(r'<tr data-check="1">(.*?)</tr>', page, re.S).group(1)
    assert "the example&#x27;s gradients" in first and "grad is 0, expected 4" in first and "×2" in first
    assert re.search(r"data-learners>ada<", first)  # who, not how many
    assert "NameError" not in page  # the anonymous learner is not in the class
    assert "Hint 1: 1 learner" in text and "Hint 2: 1 learner" in text and "Hint 3: 0 learners" in text
    assert "Code-along opened: 1 learner" in text and "Solution revealed: 1 learner" in text
    assert "0 yes, 1 no (0% yes, from 1 learner: each one's latest answer)" in text
    assert "&lt;b&gt;lost&lt;/b&gt; in the order part" in page and "<b>lost" not in page
    who = page.split("data-who>")[1].split("</table>")[0]
    assert re.search(r'data-learner="bob">.*?data-state>done with the solution<', who, re.S)
    charts = json.loads(page.split('id="chart-data" type="application/json">')[1].split("</script>")[0])
    assert charts[0]["labels"] == ["1", "2", "3", "4", "5"]
    assert charts[0]["series"][0]["values"] == [2, 0, 0, 0, 0]


def test_staff_see_every_learners_failures(people, activity):
    page = signed_in(people["staff"]).get("/teach/everyone/lessons/7.5/").content.decode()
    assert "NameError: name &#x27;topo&#x27; is not defined" in page
    assert "Hint 4: 1 learner" in text_of(page)


def test_only_a_runs_first_failing_check_counts_as_a_failure(people, activity):
    ada = signed_in(people["ada"])
    follows = check("fail", statuses=["fail", "pass", "fail", "error"])
    follows["checks"][0]["message"] = "the order is wrong"
    follows["checks"][2]["message"] = "This needs the order: fix the check above first."
    follows["checks"][3]["message"] = "Not run: the run was stopped."
    send(ada, follows)
    assert list(CheckFailure.objects.filter(event__lesson="7.5", event__user=people["ada"], first=True)
                .values_list("name", flat=True).order_by("id")) == [NAMES[0]] * 3
    page = signed_in(people["teacher"]).get(f"/teach/classes/{activity.pk}/lessons/7.5/").content.decode()
    third = re.search(r'<tr data-check="3">(.*?)</tr>', page, re.S).group(1)
    assert re.search(r"data-runs-failed>0<", third) and "fix the check above" not in page
    first = re.search(r'<tr data-check="1">(.*?)</tr>', page, re.S).group(1)
    assert re.search(r"data-runs-failed>3<", first)
    # The learner's page shows every message they saw, the first marked as the one to fix.
    learner = signed_in(people["teacher"]).get(f"/teach/classes/{activity.pk}/learners/{people['ada'].pk}/")
    attempt = learner.content.decode().split('data-attempt="4"')[1].split("</li>\n      \n")[0]
    assert "the one to fix" in attempt and "fix the check above first." in attempt
    assert "Not run: the run was stopped." in attempt and "1 of 4 checks pass" in attempt


def test_one_learners_page_shows_their_attempts_in_order_with_code(people, activity):
    teacher = signed_in(people["teacher"])
    page = teacher.get(f"/teach/classes/{activity.pk}/learners/{people['ada'].pk}/").content.decode()
    timeline = page.split('data-lesson-attempts="7.5"')[1]
    kinds = re.findall(r'data-kind="([a-z]+)"', timeline)
    assert kinds == ["start", "check", "check", "check", "hint", "hint", "codealong"]
    assert [int(n) for n in re.findall(r'data-attempt="(\d+)"', timeline)] == [1, 2, 3]
    assert "grad is 0, expected 4" in timeline and "Checked: every check passes" in timeline
    assert timeline.index("    pass\n") < timeline.index("    return\n") < timeline.index("# right")
    assert "Opened hint 2" in timeline and "Opened the code-along" in timeline
    assert "ada <span" in page and "(Ada)" in page
    # Bob's page, and nobody else's learner page.
    assert teacher.get(f"/teach/classes/{activity.pk}/learners/{people['bob'].pk}/").status_code == 200
    assert teacher.get(f"/teach/classes/{activity.pk}/learners/{people['cy'].pk}/").status_code == 404
    nonsense = teacher.get(f"/teach/classes/{activity.pk}/learners/{people['ada'].pk}/?lesson=9.9")
    assert nonsense.status_code == 404


def test_code_is_kept_for_signed_in_learners_only(people, activity):
    assert LearningEvent.objects.filter(user=people["ada"], code__contains="# right").count() == 1
    send(Client(), check("pass", code="print('anonymous')"), browser="b" * 32)
    assert not LearningEvent.objects.filter(code__contains="anonymous").exists()


def progress_document(lessons):
    return {"format": "linebyline-progress", "version": 2, "course": "microgpt", "lessons": lessons}


def test_work_from_before_signing_up_or_joining_counts_as_done_before_joining(people, classroom):
    """Dan passed 1.1 and 1.2 in the browser before making an account and started 1.3; his
    progress reached the account (the sync, through the API); then he joined and checked 1.3."""
    dan = User.objects.create_user("dan", password="x")
    client = signed_in(dan)
    long_ago = int((timezone.now() - timedelta(days=3)).timestamp() * 1000)
    lessons = {"1.1": {"status": "done", "doneAt": long_ago, "hintsShown": 2},
               "1.2": {"status": "done", "doneAt": long_ago + 1000},
               "1.3": {"status": "in-progress", "hintsShown": 1}}
    response = client.post("/api/progress/", json.dumps(progress_document(lessons)),
                           content_type="application/json")
    assert response.status_code == 200
    join(client, classroom)
    send(client, check("fail", "fail", "wrong", lesson="1.3", statuses=["fail", "pass", "pass", "pass"]))
    page = class_page(people, classroom)
    assert grid(page)["dan"] == {"1.1": "done", "1.2": "done", "1.3": "trying", "1.4": "not-started",
                                 "1.5": "not-started", "1.6": "not-started"}
    assert cell_text(page, "dan", "1.1") == "done before joining"
    assert row(page, "1.1")[1:5] == ["1", "1", "–", "1"]  # started, done, no attempts known, hints
    assert row(page, "1.2")[1:3] == ["1", "1"] and row(page, "1.3")[1:3] == ["1", "0"]
    assert re.search(r'data-learner="dan">.*?data-done>2<', page, re.S)
    teacher = signed_in(people["teacher"])
    learner = teacher.get(f"/teach/classes/{classroom.pk}/learners/{dan.pk}/").content.decode()
    assert "done before joining" in learner and "2 lessons done" in learner
    # In the last 7 days, yes; in a period that ended before, the progress without a time says nothing.
    week = class_page(people, classroom, "?period=7")
    assert row(week, "1.1")[1:3] == ["1", "1"]


def test_a_learner_who_keeps_failing_the_same_check_is_stuck(people, classroom):
    eve = User.objects.create_user("eve", password="x")
    client = signed_in(eve)
    join(client, classroom)
    send(client, *[check("fail", "fail", "grad is 0") for _ in range(2)])
    assert "Nobody is stuck" in class_page(people, classroom)
    send(client, check("fail", statuses=["pass", "fail", "pass", "pass"]))  # another check: a new streak
    send(client, *[check("fail", "fail", "grad is 0") for _ in range(3)])
    page = class_page(people, classroom)
    home = signed_in(people["teacher"]).get("/teach/").content.decode()
    assert re.search(r"data-stuck-count>1 stuck<", home)  # the teacher's list of classes says so too
    stuck = page.split("data-stuck-list>")[1].split("</ul>")[0]
    assert 'data-stuck="eve 7.5"' in stuck
    assert "failed “the example&#x27;s gradients” 3 times in a row" in stuck
    assert "stuck" in cell_text(page, "eve", "7.5")
    # The teacher raises the bar: 4 in a row.
    teacher = signed_in(people["teacher"])
    assert teacher.post(f"/teach/classes/{classroom.pk}/settings/", {
        "name": classroom.name, "stuck_failures": 4, "stuck_hours": 24}).status_code == 302
    assert "Nobody is stuck" in class_page(people, classroom)
    send(client, check("pass"))
    assert "Nobody is stuck" in class_page(people, classroom)


def test_a_learner_who_started_long_ago_and_has_not_passed_is_stuck(people, classroom):
    fay = User.objects.create_user("fay", password="x")
    client = signed_in(fay)
    join(client, classroom)
    send(client, {"lesson": "1.4", "kind": "start"})
    assert "Nobody is stuck" in class_page(people, classroom)
    LearningEvent.objects.filter(user=fay).update(created=timezone.now() - timedelta(hours=30))
    page = class_page(people, classroom)
    assert 'data-stuck="fay 1.4"' in page and "has not passed it since starting it" in page


def test_the_grid_sorts_by_lessons_done_and_keeps_those_who_left_last(people, activity):
    ada = signed_in(people["ada"])
    send(ada, check("pass", lesson="7.4", statuses=["pass"] * 4) | {"checks": []})
    teacher = signed_in(people["teacher"])
    remove = f"/teach/classes/{activity.pk}/learners/{people['ada'].pk}/remove/"
    assert teacher.post(remove).status_code == 302
    by_name = class_page(people, activity)
    assert list(grid(by_name)) == ["bob", "ada"]  # ada left: last
    join(signed_in(people["ada"]), activity)
    by_done = class_page(people, activity, "?sort=done")
    assert list(grid(by_done)) == ["ada", "bob"]
    assert '<strong aria-current="true">lessons done</strong>' in by_done
    assert list(grid(class_page(people, activity, "?sort=nonsense"))) == ["ada", "bob"]


def test_removing_a_learner_asks_first_keeps_their_history_and_can_be_undone(people, activity):
    teacher = signed_in(people["teacher"])
    url = f"/teach/classes/{activity.pk}/learners/{people['bob'].pk}/remove/"
    asked = teacher.get(url)
    assert asked.status_code == 200 and "Remove bob from" in asked.content.decode()
    assert Membership.objects.get(user=people["bob"]).left is None  # asking changes nothing
    response = teacher.post(url)
    assert response.status_code == 302 and response["Location"].endswith(f"?removed={people['bob'].pk}")
    page = teacher.get(response["Location"]).content.decode()
    assert "data-undo-removed" in page and "Undo: add bob back" in page
    assert row(page, "7.5")[1:3] == ["2", "2"]  # bob's work stays in the class's figures
    assert re.search(r'data-learner="bob" class="left">.*?data-left>left<', page, re.S)
    # What bob does after leaving is not the class's.
    send(signed_in(people["bob"]), check("fail", "fail", "after", lesson="7.4",
                                         statuses=["fail", "pass", "pass", "pass"]))
    assert row(class_page(people, activity), "7.4")[1] == "0"
    account = signed_in(people["bob"]).get("/accounts/").content.decode()
    assert "data-removed" in account and "Take my work out" in account
    # Undo.
    back = teacher.post(f"/teach/classes/{activity.pk}/learners/{people['bob'].pk}/add-back/")
    assert back.status_code == 302 and Membership.objects.get(user=people["bob"]).left is None
    assert row(class_page(people, activity), "7.4")[1] == "1"
    learners = f"/teach/classes/{activity.pk}/learners"
    assert teacher.post(f"{learners}/{people['bob'].pk}/add-back/").status_code == 404  # in the class
    assert teacher.post(f"{learners}/{people['cy'].pk}/remove/").status_code == 404  # never was


def test_a_learner_who_leaves_takes_their_work_out(people, activity):
    ada = signed_in(people["ada"])
    account = ada.get("/accounts/").content.decode()  # the account page lists the learner's classes
    assert 'data-class="Thursday &lt;evening&gt; group"' in account and 'name="code"' in account
    left = ada.post(f"/classes/{activity.pk}/leave/")
    assert left.status_code == 302 and left["Location"] == "/accounts/#classes"
    assert not Membership.objects.filter(classroom=activity, user=people["ada"]).exists()
    assert row(class_page(people, activity), "7.5")[1:3] == ["1", "1"]
    assert "You are not in a class" in ada.get("/accounts/").content.decode()
    assert ada.post(f"/classes/{activity.pk}/leave/").status_code == 404


def test_a_new_join_code_asks_first_retires_the_old_one_and_can_be_undone(people, activity):
    old = activity.join_code
    teacher = signed_in(people["teacher"])
    asked = teacher.get(f"/teach/classes/{activity.pk}/code/")
    assert asked.status_code == 200 and f"The code {activity.shown_code}" in asked.content.decode()
    activity.refresh_from_db()
    assert activity.join_code == old
    response = teacher.post(f"/teach/classes/{activity.pk}/code/")
    activity.refresh_from_db()
    assert activity.join_code != old and response["Location"].endswith("?new_code=1#join")
    assert "Undo: bring back" in teacher.get(response["Location"]).content.decode()
    refused = signed_in(people["cy"]).post("/classes/join/", {"code": old})
    assert refused.status_code == 400 and "No class has this join code" in refused.content.decode()
    assert set(activity.learners.all()) == {people["ada"], people["bob"]}  # members stay
    assert teacher.post(f"/teach/classes/{activity.pk}/code/undo/").status_code == 302
    activity.refresh_from_db()
    assert activity.join_code == old and activity.previous_code == ""
    join(signed_in(people["cy"]), activity)


def test_teachers_rename_add_co_teachers_archive_and_delete_without_the_admin(people, classroom):
    teacher = signed_in(people["teacher"])
    settings = f"/teach/classes/{classroom.pk}/settings/"
    renamed = teacher.post(settings, {"name": "Room 12", "stuck_failures": 3, "stuck_hours": 24})
    assert renamed.status_code == 302
    classroom.refresh_from_db()
    assert classroom.name == "Room 12"
    bad = teacher.post(settings, {"name": "", "stuck_failures": 1, "stuck_hours": 0})
    assert bad.status_code == 400 and classroom.stuck_failures == 3
    unknown = teacher.post(f"/teach/classes/{classroom.pk}/teachers/", {"username": "nobody"})
    assert unknown.status_code == 400 and "No account is called “nobody”" in unknown.content.decode()
    assert teacher.post(f"/teach/classes/{classroom.pk}/teachers/", {"username": "CY"}).status_code == 302
    assert set(classroom.teachers.all()) == {people["teacher"], people["cy"]}
    co = signed_in(people["cy"])
    assert co.get(f"/teach/classes/{classroom.pk}/").status_code == 200
    account = co.get("/accounts/").content.decode()
    assert 'data-teaches="Room 12"' in account  # the account page lists the classes they teach
    # Archived: no one new joins, and the class moves to the archived list.
    assert co.post(f"/teach/classes/{classroom.pk}/archive/").status_code == 302
    refused = signed_in(people["ada"]).post("/classes/join/", {"code": classroom.join_code})
    assert refused.status_code == 400 and "is archived" in refused.content.decode()
    home = teacher.get("/teach/").content.decode()
    assert "Archived classes (1)" in home and "You have no class that is not archived" in home
    assert teacher.post(f"/teach/classes/{classroom.pk}/unarchive/").status_code == 302
    join(signed_in(people["ada"]), classroom)
    # A co-teacher can be removed, the last teacher cannot.
    teachers = f"/teach/classes/{classroom.pk}/teachers"
    assert teacher.post(f"{teachers}/{people['cy'].pk}/remove/").status_code == 302
    last = teacher.post(f"{teachers}/{people['teacher'].pk}/remove/", follow=True)
    assert "A class needs a teacher" in last.content.decode()
    assert list(classroom.teachers.all()) == [people["teacher"]]
    # Deleting asks for the class's name.
    wrong = teacher.post(f"/teach/classes/{classroom.pk}/delete/", {"name": "Room"})
    assert wrong.status_code == 400 and Classroom.objects.exists()
    assert teacher.post(f"/teach/classes/{classroom.pk}/delete/", {"name": "Room 12"}).status_code == 302
    assert not Classroom.objects.exists() and User.objects.filter(username="ada").exists()


def test_an_invite_link_makes_a_teacher_once(people):
    staff = signed_in(people["staff"])
    assert signed_in(people["teacher"]).get("/teach/invites/").status_code == 403
    made = staff.post("/teach/invites/", {"note": "for Bob"}).content.decode()
    link = re.search(r"data-invite-url>([^<]+)<", made).group(1)
    path = link.removeprefix("http://testserver")
    bob = signed_in(people["bob"])
    assert bob.get("/teach/").status_code == 403
    assert "Become a teacher" in bob.get(path).content.decode()
    assert bob.post(path).status_code == 302
    assert bob.post("/teach/classes/new/", {"name": "Bob's"}).status_code == 302
    again = signed_in(people["ada"]).post(path)
    assert again.status_code == 400 and "has been used already" in again.content.decode()
    assert signed_in(people["ada"]).get("/teach/").status_code == 403
    assert "used by bob" in staff.get("/teach/invites/").content.decode()
    assert signed_in(people["ada"]).get("/teach/invite/made-up/").status_code == 400


def test_the_grid_and_the_attempts_download_as_csv(people, activity):
    send(signed_in(people["ada"]), check("fail", "fail", "-1 is not a gradient", code="=HYPERLINK(\"x\")"))
    teacher = signed_in(people["teacher"])
    response = teacher.get(f"/teach/classes/{activity.pk}/grid.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="thursday-evening-group-grid.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    header = rows[0]
    assert header[:5] == ["learner", "name", "in the class", "lessons done", "last active (UTC)"]
    assert header[5:7] == ["1.1", "1.2"] and "7.5" in header
    lines = {line[0]: dict(zip(header, line)) for line in rows[1:]}
    assert lines["ada"]["7.5"] == "done" and lines["ada"]["name"] == "Ada"
    assert lines["bob"]["7.5"] == "done with the solution" and lines["bob"]["1.1"] == "not started"
    attempts = teacher.get(f"/teach/classes/{activity.pk}/attempts.csv")
    table = list(csv.DictReader(io.StringIO(attempts.content.decode("utf-8-sig"))))
    adas = [line for line in table if line["learner"] == "ada"]
    assert all(line["time (UTC)"].endswith("+00:00") for line in table)  # labelled, and so
    assert [line["what"] for line in adas][:4] == [
        "Started the exercise", "Checked: 3 of 4 checks pass", "Checked: 3 of 4 checks pass",
        "Checked: every check passes"]
    assert adas[1]["first failing check"] == NAMES[0] and adas[1]["its message"] == "grad is 0, expected 4"
    assert adas[1]["code"] == "def backward(self):\n    pass\n" and adas[1]["attempt"] == "1"
    assert adas[-1]["code"] == "'=HYPERLINK(\"x\")"  # never a formula in a spreadsheet
    assert adas[-1]["its message"] == "'-1 is not a gradient"
    one = teacher.get(f"/teach/classes/{activity.pk}/attempts.csv?learner={people['bob'].pk}").content
    assert {line["learner"] for line in csv.DictReader(io.StringIO(one.decode("utf-8-sig")))} == {"bob"}
    assert signed_in(people["ada"]).get(f"/teach/classes/{activity.pk}/grid.csv").status_code == 404


def test_a_teachers_pages_and_files_are_never_kept_in_the_browsers_cache(people, activity):
    teacher, staff = signed_in(people["teacher"]), signed_in(people["staff"])
    base = f"/teach/classes/{activity.pk}/"
    for who, url in [(teacher, url) for url in (
            "/teach/", base, base + "lessons/7.5/", base + f"learners/{people['ada'].pk}/",
            base + "grid.csv", base + "attempts.csv", base + "settings/")] + [
            (staff, "/teach/everyone/"), (staff, "/teach/everyone/lessons/7.5/"),
            (staff, "/teach/invites/")]:
        response = who.get(url)
        assert response.status_code == 200, url
        told = {part.strip() for part in response["Cache-Control"].split(",")}
        assert {"private", "no-store"} <= told, (url, told)


def test_a_teachers_pages_do_not_start_keeping_the_course_offline(people, activity):
    """The page's script starts the offline download only where the body names the service
    worker (offline.ts): every course page does, no teacher's page does."""
    teacher = signed_in(people["teacher"])
    for url in ("/teach/", f"/teach/classes/{activity.pk}/", f"/teach/classes/{activity.pk}/lessons/7.5/"):
        assert "data-service-worker" not in teacher.get(url).content.decode(), url
    for url in ("/", "/lessons/7.5-backward/", "/modules/7/review/", "/accounts/"):
        assert 'data-service-worker="/sw.js"' in teacher.get(url).content.decode(), url


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
    pages = ("", "lessons/7.5/", f"learners/{people['ada'].pk}/", "grid.csv", "attempts.csv", "settings/")
    for path in pages:
        assert learner.get(url + path).status_code == 404  # a learner of the class is not its teacher
        assert signed_in(other).get(url + path).status_code == 404  # another teacher's class
        assert signed_in(people["staff"]).get(url + path).status_code == 200
    for path in ("code/", "archive/", "teachers/", f"learners/{people['bob'].pk}/remove/", "delete/"):
        assert signed_in(other).post(url + path, {"username": "otto", "name": "x"}).status_code == 404
    assert learner.get("/teach/everyone/").status_code == 403
    assert signed_in(people["teacher"]).get("/teach/everyone/").status_code == 403  # staff only
    assert signed_in(people["teacher"]).get(url + "lessons/9.9/").status_code == 404
    assert signed_in(people["ada"]).post("/teach/classes/new/", {"name": "mine"}).status_code == 403
    assert set(activity.teachers.all()) == {people["teacher"]}


def test_the_teach_link_shows_for_teachers_only(people, activity):
    """The header's script shows "Teach" when the account API says so (pages are the same for
    everyone: test_lesson_cache.py)."""
    def teaches(user) -> bool:
        return signed_in(user).get("/api/account/").json()["teach"]

    assert teaches(people["teacher"]) and teaches(people["staff"])
    assert not teaches(people["ada"])
    co_teacher = people["cy"]
    activity.teachers.add(co_teacher)  # a teacher of a class, without the permission to make one
    assert teaches(co_teacher)


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
    week = class_page(people, activity, "?period=7")
    assert row(week, "7.5")[1:] == ["1", "1", "1", "0", "0", "1", "0 / 0"]
    assert "the last 7 days" in week
    month = class_page(people, activity, "?period=30")
    assert row(month, "7.5")[1:3] == ["2", "2"]
    nonsense = class_page(people, activity, "?period=forever")
    assert row(nonsense, "7.5")[1:3] == ["2", "2"]


def test_feedback_counts_each_learners_latest_answer_once(people, activity):
    ada = signed_in(people["ada"])
    for clear in ("no", "no", "yes"):
        assert ada.post("/feedback/7.5/", {"clear": clear}, HTTP_ACCEPT="application/json").status_code == 201
    anonymous = Client()
    for clear in ("no", "yes"):
        assert anonymous.post("/feedback/7.5/", {"clear": clear, "browser": "c" * 32},
                              HTTP_ACCEPT="application/json").status_code == 201
    assert row(class_page(people, activity), "7.5")[-1] == "1 / 0 (100% yes)"
    everyone = signed_in(people["staff"]).get("/teach/everyone/").content.decode()
    assert row(everyone, "7.5")[-1] == "3 / 0 (100% yes)"  # ada, cy, the anonymous browser
    lesson = signed_in(people["teacher"]).get(f"/teach/classes/{activity.pk}/lessons/7.5/").content.decode()
    assert "from 1 learner: each one's latest answer, of 4 answers" in text_of(lesson)


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
    codes = [e["code"] for e in data["learning_events"] if e["code"]]
    assert codes[-1] == "def backward(self):\n    ...  # right\n"
    failed = [c for e in data["learning_events"] for c in e["failed_checks"]]
    stored = (CheckFailure.objects.filter(event__user=people["ada"])
              .order_by("event__created", "event_id", "id"))
    assert failed == [{"name": f.name, "status": f.status, "message": f.message, "first": f.first}
                      for f in stored]


def test_failing_a_recall_exercise_again_and_again_leaves_the_class_page_whole(people, classroom):
    """review-7's runs are kept, but its page is the module's review: the stuck list (whose
    links go to a lesson's page) names lessons only, and the class page still answers."""
    eve = User.objects.create_user("eve", password="x")
    client = signed_in(eve)
    join(client, classroom)
    names = the_course().item("review-7").exercise.check_names
    failing = {"lesson": "review-7", "kind": "check", "status": "fail",
               "checks": [{"name": name, "status": "fail", "message": "wrong"} for name in names]}
    send(client, *[failing for _ in range(4)])
    page = class_page(people, classroom)
    assert "Nobody is stuck" in page and "review-7" not in page
