"""POST /events/: what the browser records for teachers, validated, bounded and rate-limited."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from linebyline.teaching.events import MAX_BODY, MAX_CODE, MAX_EVENTS, MAX_MESSAGE
from linebyline.teaching.models import CheckFailure, LearningEvent

BROWSER = "0123456789abcdef0123456789abcdef"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


def post(client: Client, body, **headers):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post("/events/", data=data, content_type="application/json", **headers)


def batch(*events, course="microgpt", browser=BROWSER):
    return {"course": course, "browser": browser, "events": list(events)}


def check_event(course, number="7.5", statuses=None, status="fail", message="wrong"):
    names = course.lesson(number).exercise.check_names
    statuses = statuses or ["pass"] + ["fail"] * (len(names) - 1)
    return {"lesson": number, "kind": "check", "status": status,
            "checks": [{"name": name, "status": s, "message": message if s != "pass" else ""}
                       for name, s in zip(names, statuses)]}


def test_an_anonymous_batch_is_stored_with_the_browser_id_only(client, course):
    response = post(client, batch({"lesson": "7.5", "kind": "start"}, check_event(course),
                                  {"lesson": "7.5", "kind": "hint", "hint": 2},
                                  {"lesson": "7.5", "kind": "codealong"},
                                  {"lesson": "7.5", "kind": "solution"}))
    assert response.status_code == 201 and response.json() == {"saved": 5, "already_saved": 0}
    rows = list(LearningEvent.objects.order_by("id").values_list("kind", "learner", "user", "status", "hint"))
    assert rows == [("start", f"b{BROWSER}", None, "", None), ("check", f"b{BROWSER}", None, "fail", None),
                    ("hint", f"b{BROWSER}", None, "", 2), ("codealong", f"b{BROWSER}", None, "", None),
                    ("solution", f"b{BROWSER}", None, "", None)]
    names = course.lesson("7.5").exercise.check_names
    assert list(CheckFailure.objects.order_by("id").values_list("name", "status", "message")) == [
        (name, "fail", "wrong") for name in names[1:]]


def test_a_signed_in_learners_events_belong_to_their_account(client):
    learner = User.objects.create_user("ada", password="x")
    client.force_login(learner)
    assert post(client, batch({"lesson": "7.4", "kind": "start"})).status_code == 201
    event = LearningEvent.objects.get()
    assert (event.user, event.learner) == (learner, f"u{learner.pk}")
    learner.delete()  # their events go with their account
    assert not LearningEvent.objects.exists()


def test_only_a_runs_first_failing_check_is_a_failure_of_its_own(client, course):
    names = course.lesson("7.5").exercise.check_names
    statuses = ["pass", "error", "fail", "not-run"]  # an error, a check that follows it, one not run
    assert post(client, batch(check_event(course, statuses=statuses, status="fail"))).status_code == 201
    assert list(CheckFailure.objects.order_by("id").values_list("name", "status", "first")) == [
        (names[1], "error", True), (names[2], "fail", False)]
    assert LearningEvent.objects.values_list("passed", "total").get() == (1, 4)


def test_a_check_of_the_untouched_starter_records_no_failures(client, course):
    names = course.lesson("7.5").exercise.check_names
    event = check_event(course, statuses=["not-attempted"] * len(names), status="not-attempted")
    assert post(client, batch(event)).status_code == 201
    assert LearningEvent.objects.get().status == "not-attempted" and not CheckFailure.objects.exists()


def test_text_the_database_cannot_store_is_made_storable(client, course):
    event = check_event(course, message="nul \x00 and a lone \ud800 half")
    assert post(client, batch(event)).status_code == 201
    assert set(CheckFailure.objects.values_list("message", flat=True)) == {"nul \ufffd and a lone ? half"}


@pytest.mark.parametrize("body, problem", [
    (b"not json", "the body is not JSON"),
    (b"[" * 5000 + b"]" * 5000, "the body is not JSON"),
    ([], "the body must be a JSON object"),
    (batch({"lesson": "7.5", "kind": "start"}, course="other"), "course must be 'microgpt'"),
    (batch({"lesson": "7.5", "kind": "start"}, browser="XYZ"), "browser must be 32 lowercase"),
    (batch(), "events must be a list of 1 to"),
    (batch(*[{"lesson": "7.5", "kind": "start"}] * (MAX_EVENTS + 1)), "events must be a list of 1 to"),
    (batch("start"), "events[0] must be an object"),
    (batch({"lesson": "9.9", "kind": "start"}), "there is no lesson '9.9'"),
    (batch({"lesson": 7.5, "kind": "start"}), "events[0].lesson must be a string"),
    (batch({"lesson": "7.5", "kind": "dance"}), "events[0].kind must be one of"),
    (batch({"lesson": "7.5", "kind": "start", "extra": 1}), "unknown fields: extra"),
    (batch({"lesson": "7.5", "kind": "hint", "hint": 99}), "events[0].hint must be a whole number"),
    (batch({"lesson": "7.5", "kind": "hint", "hint": True}), "events[0].hint must be a whole number"),
    (batch({"lesson": "7.5", "kind": "hint", "hint": 1.5}), "events[0].hint must be a whole number"),
    (batch({"lesson": "7.5", "kind": "start", "hint": 1}), "hint belongs to hint events only"),
    (batch({"lesson": "7.5", "kind": "solution", "status": "pass"}), "belong to check events only"),
    (batch({"lesson": "7.5", "kind": "start", "id": "1" * 31}), "events[0].id must be 32 lowercase"),
    (batch({"lesson": "7.5", "kind": "start", "at": -1}), "events[0].at must be a whole number"),
    ({**batch({"lesson": "7.5", "kind": "start"}), "sent": "now"}, "sent must be a whole number"),
    (batch({"lesson": "7.5", "kind": "check", "status": "great", "checks": []}), "status must be one of"),
    (batch({"lesson": "7.5", "kind": "check", "status": "fail", "checks": "all"}), "checks must be a list"),
    (batch({"lesson": "7.5", "kind": "check", "status": "fail",
            "checks": [{"name": "made up", "status": "fail", "message": ""}]}), "has no check 'made up'"),
])
def test_bad_batches_are_refused_with_the_problem_named(client, body, problem):
    response = post(client, body)
    assert response.status_code == 400
    assert problem in response.json()["error"]
    assert not LearningEvent.objects.exists()


def test_lessons_the_course_lacks_are_named_for_the_terminal_to_keep(client):
    response = post(client, batch({"lesson": "9.9", "kind": "start"}, {"lesson": "7.5", "kind": "start"},
                                  {"lesson": "0.1", "kind": "hint", "hint": 1}))
    assert response.status_code == 400 and response.json()["unknown"] == ["0.1", "9.9"]
    assert "unknown" not in post(client, batch({"lesson": "7.5", "kind": "dance"})).json()


def test_a_check_listed_twice_or_a_message_too_long_is_refused(client, course):
    twice = check_event(course)
    twice["checks"][1]["name"] = twice["checks"][0]["name"]
    assert "is listed twice" in post(client, batch(twice)).json()["error"]
    long = check_event(course, message="x" * (MAX_MESSAGE + 1))
    response = post(client, batch(long))
    assert response.status_code == 400 and f"longer than {MAX_MESSAGE} characters" in response.json()["error"]


def test_wrong_method_type_or_size_get_their_own_status(client):
    assert client.get("/events/").status_code == 405
    assert client.post("/events/", {"course": "microgpt"}).status_code == 415  # a form, not JSON
    big = json.dumps(batch({"lesson": "7.5", "kind": "start"})) + " " * MAX_BODY
    response = post(client, big)
    assert response.status_code == 413 and f"at most {MAX_BODY} bytes" in response.json()["error"]


def test_events_need_the_csrf_token_from_the_cookie():
    strict = Client(enforce_csrf_checks=True)
    assert post(strict, batch({"lesson": "7.5", "kind": "start"})).status_code == 403
    token = strict.get("/lessons/7.5-backward/").cookies["csrftoken"].value
    assert post(strict, batch({"lesson": "7.5", "kind": "start"}), HTTP_X_CSRFTOKEN=token).status_code == 201


def test_one_learner_is_rate_limited_and_another_is_not(client):
    statuses = [post(client, batch({"lesson": "7.5", "kind": "start"})).status_code for _ in range(62)]
    assert statuses[:60] == [201] * 60 and statuses[60:] == [429, 429]
    other = post(client, batch({"lesson": "7.5", "kind": "start"}, browser="f" * 32))
    assert other.status_code == 201  # the same address, another learner
    assert LearningEvent.objects.count() == 61


def test_a_class_of_30_behind_one_address_is_not_refused():
    """Each of 30 learners (signed in, or anonymous browsers) sends a batch every 3 seconds, as the
    page does at most, for a minute: every batch is stored."""
    learners = []
    for n in range(30):
        client = Client()
        if n % 2:
            client.force_login(User.objects.create_user(f"learner{n}", password="x"))
        learners.append((client, f"{n:032x}"))
    statuses = {post(client, batch({"lesson": "7.5", "kind": "start"}, browser=browser)).status_code
                for _ in range(20) for client, browser in learners}
    assert statuses == {201} and LearningEvent.objects.count() == 600


def test_one_address_has_a_ceiling_whatever_ids_it_sends(client, monkeypatch):
    from linebyline.teaching import events
    monkeypatch.setattr(events, "RATE_PER_ADDRESS", "50/m")  # the real one is sized for a class
    statuses = [post(client, batch({"lesson": "7.5", "kind": "start"}, browser=f"{n:032x}")).status_code
                for n in range(52)]
    assert statuses[:50] == [201] * 50 and statuses[50:] == [429, 429]
    assert "from this address" in post(client, batch({"lesson": "7.5", "kind": "start"})).json()["error"]


def named(event, n):
    return {"id": f"{n:032x}", **event}


def test_a_batch_sent_twice_is_stored_once(client, course):
    events = [named({"lesson": "7.5", "kind": "start"}, 1), named(check_event(course), 2),
              named({"lesson": "7.5", "kind": "hint", "hint": 1}, 3)]
    first = post(client, batch(*events))
    assert first.status_code == 201 and first.json() == {"saved": 3, "already_saved": 0}
    again = post(client, batch(*events[1:], named({"lesson": "7.5", "kind": "codealong"}, 4)))
    assert again.status_code == 201 and again.json() == {"saved": 1, "already_saved": 2}
    failing = len(course.lesson("7.5").exercise.check_names) - 1
    assert LearningEvent.objects.count() == 4 and CheckFailure.objects.count() == failing
    twice_in_one = post(client, batch(named({"lesson": "7.4", "kind": "start"}, 5),
                                      named({"lesson": "7.4", "kind": "start"}, 5)))
    assert twice_in_one.json() == {"saved": 1, "already_saved": 1}
    # Ids are per learner: another browser's event 1 is its own.
    assert post(client, batch(events[0], browser="f" * 32)).json()["saved"] == 1
    assert post(client, batch({**events[0], "id": "XYZ"})).status_code == 400


def test_the_code_checked_is_kept_for_a_signed_in_learner_and_never_for_a_browser(client, course):
    event = {**check_event(course), "code": "print('mine')\n"}
    assert post(client, batch(event)).status_code == 201
    assert LearningEvent.objects.get().code == ""
    learner = User.objects.create_user("ada", password="x")
    client.force_login(learner)
    assert post(client, batch(event, browser="e" * 32)).status_code == 201
    assert LearningEvent.objects.get(user=learner).code == "print('mine')\n"
    too_long = post(client, batch({**event, "code": "x" * (MAX_CODE + 1)}))
    assert too_long.status_code == 400 and f"longer than {MAX_CODE} characters" in too_long.json()["error"]
    # The limit is in characters, as the editor counts them, not bytes.
    assert post(client, batch({**event, "code": "é" * MAX_CODE})).status_code == 201
    assert post(client, batch({"lesson": "7.5", "kind": "hint", "hint": 1, "code": "x"})).status_code == 400


def test_a_checks_fix_is_accepted_and_never_stored(client, course):
    event = check_event(course)
    for item in event["checks"]:
        item["fix"] = "SECRET_FIX = 42"
    assert post(client, batch(event)).status_code == 201
    stored = [str(value) for row in CheckFailure.objects.values_list() for value in row]
    stored += [str(value) for row in LearningEvent.objects.values_list() for value in row]
    assert not any("SECRET_FIX" in value for value in stored)
    event["checks"][0]["fix"] = 42
    assert "fix must be a string" in post(client, batch(event)).json()["error"]


def test_events_go_to_the_account_the_page_was_signed_in_as(client):
    ada = User.objects.create_user("ada", password="x")
    bob = User.objects.create_user("bob", password="x")
    start = {"lesson": "7.5", "kind": "start"}
    stranger = post(client, {**batch(start), "account": str(ada.pk)})
    assert stranger.status_code == 409 and "kept until it is" in stranger.json()["error"]
    client.force_login(bob)  # a shared computer: ada's events wait for ada
    assert post(client, {**batch(start), "account": str(ada.pk)}).status_code == 409
    assert not LearningEvent.objects.exists()
    # Recorded before signing in: the browser's, even sent from a signed-in page.
    assert post(client, {**batch(start), "account": ""}).status_code == 201
    assert LearningEvent.objects.get().learner == f"b{BROWSER}" and LearningEvent.objects.get().user is None
    assert post(client, {**batch(start), "account": str(bob.pk)}).status_code == 201
    assert LearningEvent.objects.filter(user=bob).count() == 1
    assert "account must be" in post(client, {**batch(start), "account": 7}).json()["error"]


def test_an_event_keeps_the_time_it_happened_on_the_browsers_own_clock(client):
    skewed = 10**12  # the browser's clock is years off: only the differences count
    events = [{"lesson": "7.5", "kind": "start", "at": skewed - 3_600_000},  # an hour before sending
              {"lesson": "7.5", "kind": "codealong", "at": skewed + 60_000},  # "after": never later than now
              {"lesson": "7.5", "kind": "solution", "at": 0}]  # years before: 30 days at most
    before = timezone.now()
    assert post(client, {**batch(*events), "sent": skewed}).status_code == 201
    after = timezone.now()
    times = dict(LearningEvent.objects.values_list("kind", "created"))
    assert before - timedelta(hours=1) <= times["start"] <= after - timedelta(minutes=59)
    assert before <= times["codealong"] <= after
    assert before - timedelta(days=30) <= times["solution"] <= after - timedelta(days=29)


# Anything a browser (or anyone) can send: no 5xx, and nothing stored unless it was accepted.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (st.lists(children, max_size=4)
                      | st.dictionaries(st.text(max_size=8), children, max_size=4)),
    max_leaves=12)
fields = st.fixed_dictionaries({}, optional={
    "lesson": st.sampled_from(["7.5", "7.4", "1.1", "9.9", ""]) | json_values,
    "kind": st.sampled_from(["start", "check", "hint", "codealong", "solution"]) | json_values,
    "status": st.sampled_from(["pass", "fail", "error", "not-attempted"]) | json_values,
    "hint": st.integers(-2, 6) | json_values,
    "checks": st.lists(st.fixed_dictionaries({}, optional={
        "name": st.sampled_from(["a value used twice adds up", "mul records (other, self)",
                                 "one line per sample", "nope"]) | json_values,
        "status": st.sampled_from(["pass", "fail", "error"]) | json_values,
        "message": st.text(max_size=40) | json_values}), max_size=8) | json_values,
})
noisy = st.fixed_dictionaries({}, optional={
    "course": st.just("microgpt") | json_values,
    "browser": st.just(BROWSER) | st.text(alphabet="0123456789abcdefX", min_size=31, max_size=33),
    "events": st.lists(fields, max_size=4) | json_values,
}) | json_values

CHECK_NAMES = {"7.5": ["the example's gradients", "a value used twice adds up",
                       "each node waits for all its users", "every gradient matches nudging"],
               "1.1": ["one line per sample", "each line shows a name as one word",
                       "the 20 names train0 invents"]}
statuses = st.sampled_from(["pass", "fail", "error", "not-attempted"])


def _check_event(number: str):
    check = st.fixed_dictionaries({"name": st.sampled_from(CHECK_NAMES[number]), "status": statuses,
                                   "message": st.text(max_size=MAX_MESSAGE)})
    return st.fixed_dictionaries({"lesson": st.just(number), "kind": st.just("check"), "status": statuses,
                                  "checks": st.lists(check, max_size=4, unique_by=lambda c: c["name"])})


lessons = st.sampled_from(sorted(CHECK_NAMES))
well_formed_event = (
    st.fixed_dictionaries({"lesson": lessons, "kind": st.sampled_from(["start", "codealong", "solution"])})
    | st.fixed_dictionaries({"lesson": lessons, "kind": st.just("hint"), "hint": st.integers(1, 4)})
    | lessons.flatmap(_check_event))
well_formed = st.fixed_dictionaries({"course": st.just("microgpt"), "browser": st.just(BROWSER),
                                     "events": st.lists(well_formed_event, min_size=1, max_size=5)})
bodies = well_formed | noisy


@pytest.mark.django_db
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_no_input_gets_a_server_error(client, body):
    cache.clear()
    before = LearningEvent.objects.count()
    response = post(client, json.dumps(body))
    assert response.status_code in (201, 400), response.content
    if response.status_code == 400:
        assert response.json()["error"] and LearningEvent.objects.count() == before
    else:
        assert LearningEvent.objects.count() == before + len(body["events"])
        ACCEPTED.append(body)


ACCEPTED: list = []


def test_the_fuzz_reached_accepted_batches_too():
    # (runs after the fuzz above, in file order) the strategies are not all noise
    assert len(ACCEPTED) >= 5


def test_a_recall_exercise_records_as_a_lesson_does(client, course):
    """review-7, the module's code from memory: its checks (named after their lessons) and
    hints are kept for the teacher; a number like it that the course lacks is refused."""
    names = course.item("review-7").exercise.check_names
    checked = {"lesson": "review-7", "kind": "check", "status": "fail",
               "checks": [{"name": name, "status": "fail", "message": "wrong"} for name in names]}
    response = post(client, batch({"lesson": "review-7", "kind": "start"}, checked,
                                  {"lesson": "review-7", "kind": "hint", "hint": 1}))
    assert response.status_code == 201 and response.json() == {"saved": 3, "already_saved": 0}
    assert LearningEvent.objects.filter(lesson="review-7").count() == 3
    assert CheckFailure.objects.filter(name=names[0]).exists()
    refused = post(client, batch({"lesson": "review-99", "kind": "start"}))
    assert refused.status_code == 400 and "review-99" in refused.json()["error"]
