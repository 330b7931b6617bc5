"""Helpers for the class tests in Chromium: `linebyline` commands run beside the browsers, accounts
with real sessions made in bulk on the server (a teacher among them, as `linebyline teacher add`
makes one), and what a learner's pages send (events, feedback, progress, joining) through the
site's own endpoints, with that learner's cookies."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

from playwright.sync_api import APIRequestContext, Browser, BrowserContext

from .conftest import ROOT, Server

PASSWORD = "correct horse battery 7"
SESSIONS = """
import json, sys
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from linebyline.teaching.roles import make_teacher
store = import_module(settings.SESSION_ENGINE).SessionStore
made = {}
for name in sys.argv[1:]:
    teacher = name.startswith("teacher:")
    name = name.removeprefix("teacher:")
    user = User.objects.create_user(name)  # no password: they never sign in by a form
    if teacher:
        make_teacher(user)  # what `linebyline teacher add` does
    session = store()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    made[name] = [session.session_key, user.pk]
print("SESSIONS" + json.dumps(made))
"""


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


class Background:
    """`linebyline ARGS` running while the test drives the browsers; `done()` waits for it."""

    def __init__(self, server: Server, *args: str) -> None:
        env = {**os.environ, "LINEBYLINE_DATA_DIR": str(server.data_dir)}
        self.process = subprocess.Popen([sys.executable, "-m", "linebyline", *args], cwd=ROOT, env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def done(self) -> str:
        out, err = self.process.communicate(timeout=120)
        assert self.process.returncode == 0, err
        return out


def make_sessions(server: Server, names: list[str]) -> Background:
    """Accounts for `names`, each signed in (one process makes them all; "teacher:NAME" makes a
    teacher): `sessions(...)` of it gives their session keys."""
    return Background(server, "manage", "shell", "-c",
                      "import sys; sys.argv = [''] + " + repr(names) + "\n" + SESSIONS)


def sessions(made: Background) -> dict[str, tuple[str, int]]:
    """Per account: its session key and its id."""
    return {name: tuple(made) for name, made in json.loads(made.done().split("SESSIONS", 1)[1]).items()}


def sign_in_with(context: BrowserContext, server: Server, session: str) -> None:
    """The browser is signed in with `session`, and holds a CSRF cookie as if it had opened a page."""
    context.add_cookies([{"name": "sessionid", "value": session, "url": server.url},
                         {"name": "csrftoken", "value": uuid.uuid4().hex, "url": server.url}])


def signed_in_context(browser: Browser, server: Server, session: str) -> BrowserContext:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    sign_in_with(context, server, session)
    return context


class Seat:
    """One learner's browser, talking to the site's endpoints as its pages do."""

    def __init__(self, context: BrowserContext, server: Server, account: int) -> None:
        self.context, self.server = context, server
        self.request: APIRequestContext = context.request
        self.token = next(c["value"] for c in context.cookies() if c["name"] == "csrftoken")
        self.browser_id = uuid.uuid4().hex
        self.account = str(account)  # what the page's body says (data-account)

    def post_json(self, path: str, body: dict):
        return self.request.post(self.server.url + path, data=json.dumps(body), headers={
            "Content-Type": "application/json", "X-CSRFToken": self.token})

    def join(self, code: str) -> None:
        answer = self.request.post(self.server.url + "/classes/join/", form={"code": code},
                                   headers={"X-CSRFToken": self.token}, max_redirects=0)
        assert answer.status == 302 and answer.headers["location"] == "/accounts/#classes", answer.status

    def send_events(self, events: list[dict], sent: int) -> dict:
        answer = self.post_json("/events/", {"course": "microgpt", "browser": self.browser_id,
                                             "account": self.account, "sent": sent, "events": events})
        assert answer.status == 201, (answer.status, answer.text())
        return answer.json()

    def answer(self, lesson: str, clear: bool, comment: str = "") -> None:
        answer = self.request.post(self.server.url + f"/feedback/{lesson}/", form={
            "clear": "yes" if clear else "no", "comment": comment, "browser": self.browser_id},
            headers={"X-CSRFToken": self.token, "Accept": "application/json"})
        assert answer.status == 201, (answer.status, answer.text())

    def progress(self, lessons: dict) -> None:
        answer = self.post_json("/api/progress/", {"format": "linebyline-progress", "version": 2,
                                                   "course": "microgpt", "lessons": lessons})
        assert answer.status == 200, (answer.status, answer.text())
