"""The progress API (/api/progress/): merging, permissions, CSRF, tokens, bad input; and the
OpenAPI description it is documented by. Real database (SQLite, and PostgreSQL in `make test`)."""
from __future__ import annotations

import json
import threading

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client

from linebyline.accounts.models import AccessToken, ProgressDocument
from linebyline.progress import merge as pm

API = "/api/progress/"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):  # the cache (rate limits) lives in the database
    cache.clear()


def document(lessons: dict, version: int = 2, course: str = "microgpt") -> dict:
    return {"format": "linebyline-progress", "version": version, "course": course,
            "lessons": lessons}


def post(client: Client, body, **headers):
    text = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(API, text, content_type="application/json", **headers)


@pytest.fixture
def ada(db) -> User:
    return User.objects.create_user("ada", password="a long passphrase 1")


@pytest.fixture
def grace(db) -> User:
    return User.objects.create_user("grace", password="a long passphrase 2")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_learner_reads_back_the_merge_of_what_two_devices_sent(ada):
    laptop, phone = signed_in(ada), signed_in(ada)
    first = post(laptop, document({"7.4": {"status": "done", "doneAt": 5000,
                                           "draft": "laptop", "draftAt": 100, "draftDevice": "b-lap"}}))
    assert first.status_code == 200
    second = post(phone, document({"7.4": {"status": "in-progress", "draft": "phone",
                                           "draftAt": 200, "draftDevice": "b-phone"},
                                   "7.5": {"status": "in-progress", "quiz": {
                                       "7.5-q1": {"answer": "1", "correct": True, "at": 7}}}}))
    merged = second.json()["lessons"]
    assert merged["7.4"]["status"] == "done" and merged["7.4"]["doneAt"] == 5000
    assert merged["7.4"]["draft"] == "phone"
    assert [v["draft"] for v in merged["7.4"]["earlier"]] == ["laptop"]
    assert merged["7.5"]["quiz"]["7.5-q1"]["correct"] is True
    assert laptop.get(API, {"course": "microgpt"}).json() == second.json()


def test_version_1_exports_are_accepted(ada):
    answer = post(signed_in(ada), document({"7.4": {"status": "done", "draft": "x = 1",
                                                    "quiz": {}, "hintsShown": 1}}, version=1))
    assert answer.status_code == 200
    lesson = answer.json()["lessons"]["7.4"]
    assert lesson["draft"] == "x = 1" and lesson["draftDevice"] == pm.v1_device("x = 1")
    assert answer.json()["version"] == 2


def test_a_learner_reaches_only_their_own_progress(ada, grace):
    post(signed_in(ada), document({"7.4": {"status": "done", "draft": "ada's secret",
                                           "draftAt": 1, "draftDevice": "b-ada"}}))
    theirs = signed_in(grace).get(API, {"course": "microgpt"}).json()
    assert theirs["lessons"] == {}
    # Grace's post goes to Grace's progress, whatever it says: there is no user field to forge.
    forged = document({"7.5": {"status": "done"}})
    forged["user"] = "ada"
    assert post(signed_in(grace), forged).status_code == 200
    mine = signed_in(ada).get(API, {"course": "microgpt"}).json()["lessons"]
    assert set(mine) == {"7.4"} and mine["7.4"]["draft"] == "ada's secret"
    assert set(signed_in(grace).get(API, {"course": "microgpt"}).json()["lessons"]) == {"7.5"}


def test_without_signing_in_nothing_is_read_or_written(db):
    anonymous = Client()
    assert anonymous.get(API, {"course": "microgpt"}).status_code == 401
    answer = post(anonymous, document({"7.4": {"status": "done"}}))
    assert answer.status_code == 401 and "sign in first" in answer.json()["error"]
    assert ProgressDocument.objects.count() == 0


def test_a_session_post_without_the_csrf_token_is_refused(ada):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ada)
    browser.get("/")  # the page sets the csrftoken cookie
    refused = post(browser, document({"7.4": {"status": "done"}}))
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    assert ProgressDocument.objects.count() == 0
    token = browser.cookies["csrftoken"].value
    accepted = post(browser, document({"7.4": {"status": "done"}}), HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 200


def test_a_personal_token_works_without_csrf_until_revoked(ada):
    _, token = AccessToken.issue(ada, "laptop")
    terminal = Client(enforce_csrf_checks=True)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    assert post(terminal, document({"7.4": {"status": "done"}}), **auth).status_code == 200
    answer = terminal.get("/api/account/", **auth).json()
    assert answer["username"] == "ada" and answer["name"] == "" and answer["token"] == "laptop"
    assert answer["signedIn"] is True and answer["account"] == str(ada.pk)
    assert answer["learnerSeed"] == f"account-{ada.pk}"  # the quiz order, in the terminal too
    assert terminal.delete("/api/token/", **auth).status_code == 204
    refused = terminal.get(API, {"course": "microgpt"}, **auth)
    assert refused.status_code == 401 and "revoked" in refused.json()["error"]
    assert not AccessToken.objects.filter(user=ada).exists()


def test_tokens_are_stored_as_digests_only(ada):
    made, token = AccessToken.issue(ada, "laptop")
    stored = AccessToken.objects.get(pk=made.pk)
    assert token not in (stored.digest, stored.hint) and len(token) > 40
    assert token.startswith(stored.hint)


@pytest.mark.parametrize(("body", "status", "message"), [
    ("{not json", 400, "not JSON"),
    ("[" * 100_000, 400, "not JSON"),
    (b"\xff\xfe", 400, "not JSON"),
    (json.dumps([]), 400, "must be a JSON object"),
    (json.dumps(document({"7.4": {"status": "finished"}})), 400, "status must be one of"),
    (json.dumps(document({"7.4": {"status": "done", "draft": "x" * 200_001}})), 400,
     "more than the 200,000"),
    (json.dumps(document({"7.4": {"status": "done", "checks": {"passed": 5, "total": 4}}})), 400,
     "passed at most total"),
    (json.dumps(document({"7.4": {"status": "done"}}, course="another")), 404,
     'no course "another"'),
])
def test_bad_input_gets_a_4xx_that_says_why(ada, body, status, message):
    answer = post(signed_in(ada), body)
    assert answer.status_code == status
    assert message in answer.json()["error"]
    assert ProgressDocument.objects.count() == 0


def test_the_other_bad_requests(ada):
    client = signed_in(ada)
    assert client.get(API).status_code == 400
    assert client.get(API, {"course": "nope"}).status_code == 404
    assert client.put(API, "{}", content_type="application/json").status_code == 405
    form = client.post(API, {"format": "linebyline-progress"})
    assert form.status_code == 415 and "application/json" in form.json()["error"]
    big = json.dumps(document({"7.4": {"status": "done", "draft": "x" * 200_000}})) + " " * 4_200_000
    assert post(client, big).status_code == 413


def test_nul_characters_and_html_in_drafts_are_kept_as_they_are(ada):
    draft = "print('<script>alert(1)</script>')\x00\n"
    answer = post(signed_in(ada), document({"7.4": {"status": "in-progress", "draft": draft,
                                                    "draftAt": 3, "draftDevice": "b-x"}}))
    assert answer.status_code == 200
    assert signed_in(ada).get(API, {"course": "microgpt"}).json()["lessons"]["7.4"]["draft"] == draft


def test_sync_is_rate_limited_per_account(ada, grace):
    client = signed_in(ada)
    for _ in range(120):
        assert post(client, document({})).status_code == 200
    limited = post(client, document({}))
    assert limited.status_code == 429 and limited["Retry-After"] == "60"
    assert post(signed_in(grace), document({})).status_code == 200  # others are not affected


@pytest.mark.django_db(transaction=True)
def test_concurrent_merges_lose_nothing(course):
    """Eight writers at once, each adding its own lesson and its own device's draft: the stored
    progress ends with all of them (the revision check makes a late writer merge again)."""
    own = {index: lesson.number for index, lesson in enumerate(course.lessons(), 1) if index <= 8}
    user = User.objects.create_user("many", password="x")
    clients = {index: signed_in(user) for index in range(1, 9)}  # sessions made one at a time
    errors = []

    def write(index: int) -> None:
        try:
            client = clients[index]
            answer = post(client, document({own[index]: {"status": "done"},
                                            "7.4": {"status": "in-progress", "draft": f"d{index}",
                                                    "draftAt": index, "draftDevice": f"b-{index}"}}))
            assert answer.status_code == 200, answer.content
        except Exception as error:  # reported below, with the thread's error
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(1, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    lessons = json.loads(ProgressDocument.objects.get(user=user).lessons)
    assert set(own.values()) <= set(lessons)
    kept = [v["draft"] for v in pm.versions_of(lessons["7.4"])]
    assert kept == [f"d{i}" for i in range(8, 8 - 1 - pm.MAX_EARLIER, -1)]


def test_the_openapi_description_names_what_the_endpoints_do(client):
    described = client.get("/api/openapi.json").json()
    assert described["openapi"].startswith("3.1")
    assert set(described["paths"]) == {"/api/progress/", "/api/account/", "/api/token/"}
    assert set(described["paths"]["/api/progress/"]) == {"get", "post"}
    limits = described["components"]["schemas"]["LessonV2"]["properties"]
    assert limits["draft"]["maxLength"] == pm.MAX_DRAFT
    assert limits["earlier"]["maxItems"] == pm.MAX_EARLIER


def test_a_setting_chosen_on_one_device_reaches_the_others_and_the_latest_wins(ada):
    laptop, phone = signed_in(ada), signed_in(ada)
    plain = post(laptop, document({}))
    assert "settings" not in plain.json()  # none chosen: the document as it always was
    chosen = post(laptop, {**document({}), "settings": {"todoLevel": {"value": "own", "at": 10}}})
    assert chosen.json()["settings"] == {"todoLevel": {"value": "own", "at": 10}}
    # An older choice from another device does not undo it; a document without settings keeps it.
    older = post(phone, {**document({}), "settings": {"todoLevel": {"value": "guided", "at": 5}}})
    assert older.json()["settings"]["todoLevel"]["value"] == "own"
    assert post(phone, document({})).json()["settings"]["todoLevel"]["value"] == "own"
    newer = post(phone, {**document({}), "settings": {"todoLevel": {"value": "guided", "at": 20}}})
    assert newer.json()["settings"] == {"todoLevel": {"value": "guided", "at": 20}}
    assert laptop.get(API, {"course": "microgpt"}).json()["settings"] == \
        {"todoLevel": {"value": "guided", "at": 20}}
    stored = ProgressDocument.objects.get(user=ada)
    assert json.loads(stored.settings) == {"todoLevel": {"value": "guided", "at": 20}}
    # "Everything the server keeps about the learner" includes it.
    mine = json.loads(laptop.get("/accounts/data.json").content)
    assert mine["progress"][0]["settings"] == {"todoLevel": {"value": "guided", "at": 20}}


def test_a_bad_setting_is_refused_and_nothing_is_stored(ada):
    answer = post(signed_in(ada), {**document({"7.4": {"status": "done"}}),
                                   "settings": {"todoLevel": {"value": "alone", "at": 1}}})
    assert answer.status_code == 400
    assert answer.json()["error"] == ("not a progress document: setting todoLevel must be one "
                                      "of guided, own")
    assert not ProgressDocument.objects.filter(user=ada).exists()
