"""The migration that brings history, client ids and first failures keeps what was there and reads
it by the new rules: only a run's first failure counts, a signed-in learner's answers are theirs."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("teaching", "0001_initial"), ("linebyline", "0001_initial")]
AFTER = [("teaching", "0002_roles_history_and_client_ids"), ("linebyline", "0002_lessonfeedback_learner")]


@pytest.fixture
def back_to_the_latest():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # as every other test expects


@pytest.mark.django_db(transaction=True)
def test_old_failures_and_feedback_are_read_by_the_new_rules(back_to_the_latest):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="ada", password="!")
    Event = old.get_model("teaching", "LearningEvent")
    Failure = old.get_model("teaching", "CheckFailure")
    run = Event.objects.create(course="microgpt", lesson="7.5", kind="check", learner=f"u{user.pk}",
                               user_id=user.pk, status="fail")
    for name in ("first", "second", "third"):
        Failure.objects.create(event=run, name=name, status="fail", message="")
    Feedback = old.get_model("linebyline", "LessonFeedback")
    Feedback.objects.create(course="microgpt", lesson="7.5", clear=True, user_id=user.pk)
    Feedback.objects.create(course="microgpt", lesson="7.5", clear=False)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    failures = new.get_model("teaching", "CheckFailure").objects.order_by("id")
    assert list(failures.values_list("name", "first")) == [
        ("first", True), ("second", False), ("third", False)]
    answers = new.get_model("linebyline", "LessonFeedback").objects.order_by("id")
    assert list(answers.values_list("learner", flat=True)) == [f"u{user.pk}", ""]
    event = new.get_model("teaching", "LearningEvent").objects.get()
    assert (event.client_id, event.code) == ("", "")
