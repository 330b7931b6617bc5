"""The terminal's progress and the account, through the real API on a live server: lessons the
server's course does not have stay on the learner's machine (said once, not resent), the rest
merges as the browser's does, and the teacher's view hears the terminal's checks and hints."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from linebyline.accounts import store
from linebyline.accounts.models import AccessToken
from linebyline.teaching.models import LearningEvent

pytestmark = pytest.mark.django_db(transaction=True)


def cli(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "linebyline", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=120,
                          env=dict(os.environ))


def test_lessons_the_server_lacks_stay_here_and_the_rest_syncs(live_server, copy, tmp_path,
                                                              course):
    shutil.rmtree(next(copy.glob("lessons/7.5-*")))  # this server's course has no 7.5 yet
    ada = get_user_model().objects.create_user("ada", password="a long enough password 1")
    _, token = AccessToken.issue(ada, "laptop")
    with override_settings(COURSE_DIR=str(copy)):
        signed = cli("login", live_server.url, "--token-stdin", stdin=token + "\n")
        assert signed.returncode == 0, signed.stderr
        for number in ("7.4", "7.5"):
            work = tmp_path / f"{number}.py"
            work.write_text(course.lesson(number).exercise.solution)
            assert cli("check", number, str(work), "--json").returncode == 0
        assert cli("hint", "7.4").returncode == 0
        synced = cli("progress", "--sync")
        assert synced.returncode == 0, synced.stderr
        said = (f"Lesson 7.5 stays on this machine: the course at {live_server.url} does not "
                "have it (tried again in a day).")
        assert said in synced.stdout
        summary = cli("progress").stdout
        assert "the account has all of it" in summary and said in summary
    kept = store.load(ada, "microgpt", {"7.4", "7.5"})
    assert set(kept) == {"7.4"} and kept["7.4"]["status"] == "done"
    assert kept["7.4"]["passedCode"] == course.lesson("7.4").exercise.solution
    assert kept["7.4"]["hintsShown"] == 1
    events = LearningEvent.objects.filter(user=ada, lesson="7.4")
    assert set(events.values_list("kind", flat=True)) == {"start", "check", "hint"}
    assert events.get(kind="check").code == course.lesson("7.4").exercise.solution  # as the browser's
    assert len(set(events.values_list("client_id", flat=True))) == 3 and all(events.values_list(
        "client_id", flat=True))  # each with an id of its own: sent twice, stored once
    assert not LearningEvent.objects.filter(lesson="7.5").exists()


def test_events_wait_for_the_account_they_were_recorded_under(live_server, course):
    """Ada's hint, recorded while she was signed in, does not go as Bob's after Bob signs in on
    the same terminal; it goes as hers when she is back."""
    from linebyline.progress import account as account_link
    from linebyline.progress.events import record_event, send_events, waiting
    from linebyline.terminal.learner import local_progress

    people = {}
    for name in ("ada", "bob"):
        user = get_user_model().objects.create_user(name, password="a long enough password 1")
        people[name] = (user, AccessToken.issue(user, "laptop")[1])
    local = local_progress(course)
    ada = account_link.log_in(live_server.url, people["ada"][1])
    record_event(local, "7.4", {"kind": "hint", "hint": 1})
    bob = account_link.log_in(live_server.url, people["bob"][1])
    assert not waiting(bob, local)
    send_events(bob, local, timeout=10)
    assert not LearningEvent.objects.exists()
    assert waiting(ada, local)
    send_events(ada, local, timeout=10)
    send_events(ada, local, timeout=10)  # nothing left to send
    assert list(LearningEvent.objects.values_list("user__username", "kind", "hint")) == [
        ("ada", "hint", 1)]
    assert not waiting(ada, local)


def test_a_batch_naming_a_lesson_the_server_lacks_keeps_the_rest(live_server, copy, course):
    """A sync that started before another learnt that the server lacks 7.5 sends a batch with
    7.5's events: the server names the lesson, and the rest of the batch is stored, not lost."""
    from linebyline.progress import account as account_link
    from linebyline.progress.events import record_event, send_events, waiting
    from linebyline.terminal.learner import local_progress

    shutil.rmtree(next(copy.glob("lessons/7.5-*")))
    ada = get_user_model().objects.create_user("ada", password="a long enough password 1")
    local = local_progress(course)
    login = account_link.log_in(live_server.url, AccessToken.issue(ada, "laptop")[1])
    for number in ("7.4", "7.5", "7.4"):
        record_event(local, number, {"kind": "hint", "hint": 1})
    with override_settings(COURSE_DIR=str(copy)):
        send_events(login, local, timeout=10)
    assert list(LearningEvent.objects.values_list("lesson", "kind")) == [("7.4", "hint")] * 2
    assert set(account_link.refused_lessons(local, live_server.url)) == {"7.5"}
    assert not waiting(login, local)
