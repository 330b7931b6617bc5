"""The progress merge's laws (Hypothesis) and its rules on cases a learner meets.

The law tests run a few hundred examples each; bench/merge_laws.py runs the same laws (and the
browser agreement tests) on 10,000+ examples.
"""
from __future__ import annotations

import copy
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings

from linebyline.progress import merge as pm
from tests.progress_cases import documents, lessons, settings_entries

# A few hundred examples per law in CI; bench/merge_laws.py sets LINEBYLINE_MERGE_EXAMPLES to run
# 10,000 or more (the browser agreement tests in test_merge_agrees.py follow the same setting).
EXAMPLES = int(os.environ.get("LINEBYLINE_MERGE_EXAMPLES", "300"))
LAWS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def normal(lessons: dict) -> dict:
    """What the merge promises about one document on its own: merging it with itself."""
    return pm.merge(lessons, lessons)


@LAWS
@given(documents(), documents())
def test_commutative(a, b):
    assert pm.merge(a, b) == pm.merge(b, a)


@LAWS
@given(documents(), documents(), documents())
def test_associative(a, b, c):
    assert pm.merge(pm.merge(a, b), c) == pm.merge(a, pm.merge(b, c))


@LAWS
@given(documents())
def test_idempotent(a):
    assert pm.merge(a, a) == normal(a)
    assert pm.merge(normal(a), a) == normal(a)


@LAWS
@given(documents(), documents())
def test_merging_never_loses_what_either_side_has(a, b):
    merged = pm.merge(a, b)
    for side in (a, b):
        for number, lesson in side.items():
            result = merged[number]
            assert pm.STATUSES.index(result["status"]) >= pm.STATUSES.index(lesson["status"])
            if "doneAt" in lesson:
                assert result["doneAt"] <= lesson["doneAt"]
            assert result["hintsShown"] >= lesson["hintsShown"]
            if "passedCode" in lesson:
                assert result["passedAt"] >= lesson["passedAt"] and result["status"] == "done"
            for question, answer in lesson["quiz"].items():
                assert result["quiz"][question]["correct"] >= answer["correct"]
            kept = {(v["device"], v["at"]) for v in pm.versions_of(result)}
            newest = max((v["at"] for v in pm.versions_of(result)), default=-1)
            for version in pm.versions_of(lesson):
                same_device = [v for v in pm.versions_of(result) if v["device"] == version["device"]]
                # Kept, or replaced by its own device's newer edit, or pushed out by newer ones.
                assert ((version["device"], version["at"]) in kept
                        or (same_device and same_device[0]["at"] >= version["at"])
                        or len(kept) == 1 + pm.MAX_EARLIER and newest >= version["at"])


@LAWS
@given(documents(), documents())
def test_the_result_reads_back_as_itself(a, b):
    merged = pm.merge(a, b)
    text = json.dumps(pm.document("microgpt", merged))
    assert pm.read_document(json.loads(text), "microgpt") == ("microgpt", merged)


@LAWS
@given(lessons())
def test_reading_a_lesson_does_not_change_a_read_lesson(lesson):
    assert pm.read_lesson(copy.deepcopy(lesson), "again") == lesson


# --- the rules, on cases a learner meets ----------------------------------------------------------

def lesson(status="in-progress", **fields) -> dict:
    return pm.read_lesson({"status": status, **fields}, "test")


def draft(text, at, device, base=None) -> dict:
    return {"draft": text, "draftAt": at, "draftDevice": device, "draftBase": base or {}}


def test_a_lesson_once_done_stays_done_with_its_earliest_completion():
    laptop = lesson("done", doneAt=2000)
    phone = lesson("done", doneAt=1000)
    fresh = lesson("not-started")
    merged = pm.merge_lesson(pm.merge_lesson(laptop, fresh), phone)
    assert merged["status"] == "done" and merged["doneAt"] == 1000


def test_a_right_answer_beats_a_later_wrong_one():
    right = lesson(quiz={"7.4-q1": {"answer": "2", "correct": True, "at": 1}})
    wrong = lesson(quiz={"7.4-q1": {"answer": "3", "correct": False, "at": 9}})
    assert pm.merge_lesson(right, wrong)["quiz"]["7.4-q1"] == {"answer": "2", "correct": True, "at": 1}


def test_the_newest_draft_wins_and_the_other_is_kept_as_an_earlier_version():
    laptop = lesson(**draft("laptop code", 100, "b-laptop"))
    phone = lesson(**draft("phone code", 200, "b-phone"))
    merged = pm.merge_lesson(laptop, phone)
    assert merged["draft"] == "phone code"
    assert merged["earlier"] == [{"draft": "laptop code", "at": 100, "device": "b-laptop", "base": {}}]


def test_a_devices_newer_edit_replaces_its_own_older_one():
    before = lesson(**draft("x = ", 100, "b-laptop"))
    after = lesson(**draft("x = 1", 150, "b-laptop"))
    merged = pm.merge_lesson(before, after)
    assert merged["draft"] == "x = 1" and "earlier" not in merged


def test_at_the_bound_the_oldest_version_makes_room():
    merged = lesson()
    for index in range(pm.MAX_EARLIER + 2):
        merged = pm.merge_lesson(merged, lesson(**draft(f"v{index}", 100 + index, f"b-{index}")))
    kept = [v["draft"] for v in pm.versions_of(merged)]
    assert kept == [f"v{i}" for i in range(pm.MAX_EARLIER + 1, 0, -1)]  # v0, the oldest, left


def test_the_code_that_passed_stays_apart_from_a_later_failing_draft():
    passed = lesson("done", doneAt=100, passedCode="right", passedAt=100,
                    **draft("right", 100, "cli-a"))
    failing_edit = lesson("in-progress", **draft("wrong", 200, "cli-a"))
    merged = pm.merge_lesson(passed, failing_edit)
    assert merged["draft"] == "wrong" and merged["passedCode"] == "right"
    assert merged["status"] == "done"
    newer_pass = lesson("done", passedCode="right too", passedAt=300)
    assert pm.merge_lesson(merged, newer_pass)["passedCode"] == "right too"
    assert pm.merge_lesson(newer_pass, merged)["passedCode"] == "right too"


@pytest.mark.parametrize(("fields", "message"), [
    ({"status": "in-progress", "passedCode": "x", "passedAt": 1}, "the lesson is not done"),
    ({"status": "done", "passedCode": "x"}, "passedCode and passedAt go together"),
    ({"status": "done", "passedAt": 1}, "passedCode and passedAt go together"),
])
def test_passing_code_is_read_only_whole_and_on_a_done_lesson(fields, message):
    with pytest.raises(pm.ProgressError, match=message):
        pm.read_lesson(fields, "lesson 7.4")
    with pytest.raises(pm.ProgressError, match="cannot have"):
        pm.read_lesson({"status": "done", "passedCode": "x", "passedAt": 1}, "v1", version=1)


def test_version_1_documents_still_read():
    slug, lessons = pm.read_document({
        "format": "linebyline-progress", "version": 1, "course": "microgpt",
        "lessons": {"7.4": {"status": "done", "draft": "x", "quiz": {
            "7.4-q1": {"answer": "1", "correct": True}}, "hintsShown": 2,
            "checks": {"passed": 4, "total": 4}}}})
    assert slug == "microgpt"
    assert lessons["7.4"] == {"status": "done", "quiz": {"7.4-q1": {"answer": "1", "correct": True,
                                                                    "at": 0}},
                              "hintsShown": 2, "checks": {"passed": 4, "total": 4}, "draft": "x",
                              "draftAt": 0, "draftDevice": pm.v1_device("x"), "draftBase": {}}


@pytest.mark.parametrize(("document", "message"), [
    ([], "must be a JSON object"),
    ({"format": "x"}, '"format" must be'),
    ({"format": "linebyline-progress", "version": 3}, '"version" must be 1 or 2'),
    ({"format": "linebyline-progress", "version": 2, "course": "other", "lessons": {}},
     'for the course "other"'),
    ({"format": "linebyline-progress", "version": 2, "course": "microgpt",
      "lessons": {"<b>": {"status": "done"}}}, "is not a lesson number"),
    ({"format": "linebyline-progress", "version": 2, "course": "microgpt",
      "lessons": {"7.4": {"status": "done", "draft": "x" * (pm.MAX_DRAFT + 1)}}},
     "200,001 characters, more than the 200,000"),
    ({"format": "linebyline-progress", "version": 2, "course": "microgpt",
      "lessons": {"7.4": {"status": "done", "draft": "\ud800"}}}, "not valid Unicode"),
    ({"format": "linebyline-progress", "version": 2, "course": "microgpt",
      "lessons": {"7.4": {"status": "in-progress", "doneAt": 5}}}, "the lesson is not done"),
    ({"format": "linebyline-progress", "version": 1, "course": "microgpt",
      "lessons": {"7.4": {"status": "done", "earlier": []}}}, 'cannot have: "earlier"'),
])
def test_bad_documents_are_refused_naming_the_part(document, message):
    with pytest.raises(pm.ProgressError, match=message.replace("(", r"\(")):
        pm.read_document(document, "microgpt")


def test_lengths_count_as_the_editor_does():
    emoji = "\U0001f600" * (pm.MAX_DRAFT // 2)  # 200,000 UTF-16 units
    pm.read_lesson({"status": "done", "draft": emoji}, "ok")
    with pytest.raises(pm.ProgressError):
        pm.read_lesson({"status": "done", "draft": emoji + "a"}, "too long")


# --- settings: the level of the TODO comments, chosen on the course home ---------------------

@LAWS
@given(settings_entries(), settings_entries(), settings_entries())
def test_settings_merge_as_a_join(a, b, c):
    assert pm.merge_settings(a, b) == pm.merge_settings(b, a)
    assert pm.merge_settings(pm.merge_settings(a, b), c) == \
        pm.merge_settings(a, pm.merge_settings(b, c))
    assert pm.merge_settings(a, a) == a


def test_the_latest_choice_of_a_setting_wins():
    older, newer = {"todoLevel": {"value": "own", "at": 5}}, {"todoLevel": {"value": "guided",
                                                                            "at": 9}}
    assert pm.merge_settings(older, newer) == newer == pm.merge_settings(newer, {})
    tie = pm.merge_settings({"todoLevel": {"value": "guided", "at": 5}}, older)
    assert tie == older  # a tie: the greater value, whichever side it came from


def test_settings_travel_in_the_document_only_when_there_are_any():
    assert "settings" not in pm.document("microgpt", {})
    chosen = {"todoLevel": {"value": "own", "at": 3}}
    made = pm.document("microgpt", {}, chosen)
    assert made["settings"] == chosen and pm.read_settings(made) == chosen
    assert pm.read_settings({"format": pm.FORMAT, "lessons": {}}) == {}


@pytest.mark.parametrize("settings, message", [
    ([], '"settings" must be an object of settings by name'),
    ({"colour": {"value": "blue", "at": 1}}, '"settings" has a setting it cannot have: "colour"'),
    ({"todoLevel": "own"}, "setting todoLevel must be an object with value and at"),
    ({"todoLevel": {"value": "own"}}, "setting todoLevel must be an object with value and at"),
    ({"todoLevel": {"value": "alone", "at": 1}}, "setting todoLevel must be one of guided, own"),
    ({"todoLevel": {"value": "own", "at": -1}}, "setting todoLevel: at must be a time"),
])
def test_bad_settings_are_refused_naming_the_setting(settings, message):
    with pytest.raises(pm.ProgressError) as caught:
        pm.read_settings({"settings": settings})
    assert str(caught.value).startswith(message)
