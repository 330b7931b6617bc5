"""The terminal and the browser share one account: a token made on the account page signs the CLI
in (kept 0600); `check` records to this machine's progress, which syncs with the account (and
waits here while the server is away); `start` offers the browser's draft; revoking the token
signs the terminal out. A live `linebyline serve`."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .conftest import free_port
from .test_accounts_browser import new_username, sign_up
from .test_sync_browser import account_has_draft, synced, type_draft

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
LESSON_75 = "/lessons/7.5-backward/"


def cli(config: Path, *args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "LINEBYLINE_CONFIG_DIR": str(config)}
    return subprocess.run([sys.executable, "-m", "linebyline", *args], input=stdin, env=env,
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def make_token(page: Page, server, name: str) -> str:
    page.goto(server.url + "/accounts/")
    page.get_by_label("Name it after the machine").fill(name)
    page.get_by_role("button", name="Create a token").click()
    return page.locator("[data-token-value]").inner_text()


def test_the_terminal_signs_in_records_checks_and_starts_from_the_browsers_draft(
        server, page: Page, tmp_path: Path, course):
    config = tmp_path / "config"
    lesson = course.lesson("7.5")
    filename = lesson.exercise.filename

    # Without login: as today, nothing about accounts.
    start = cli(config, "start", "7.5", "plain", cwd=tmp_path)
    assert start.returncode == 0 and "the starter" in start.stdout
    assert (tmp_path / "plain" / filename).read_text() == lesson.exercise.starter

    sign_up(page, server, new_username())
    token = make_token(page, server, "laptop")
    refused = cli(config, "login", server.url, "--token-stdin", stdin="lbl_not-a-real-token\n")
    assert refused.returncode == 2 and "does not work" in refused.stderr
    logged = cli(config, "login", server.url, "--token-stdin", stdin=token + "\n")
    assert logged.returncode == 0, logged.stderr
    saved = config / "login.json"
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert json.loads(saved.read_text())["token"] == token

    # The browser's draft is offered by `start`: taken when asked, or with --draft.
    page.goto(server.url + LESSON_75)
    synced(page)
    type_draft(page, "# written in the browser\n")
    account_has_draft(page, "7.5", "# written in the browser\n")
    asked = cli(config, "start", "7.5", "asked", stdin="y\n", cwd=tmp_path)
    assert "draft of this lesson from the browser" in asked.stdout, asked.stdout + asked.stderr
    assert (tmp_path / "asked" / filename).read_text() == "# written in the browser\n"
    declined = cli(config, "start", "7.5", "declined", stdin="n\n", cwd=tmp_path)
    assert (tmp_path / "declined" / filename).read_text() == lesson.exercise.starter
    assert declined.returncode == 0
    cli(config, "start", "7.5", "flag", "--draft", cwd=tmp_path)
    assert (tmp_path / "flag" / filename).read_text() == "# written in the browser\n"

    # A check is recorded: the lesson is done in the browser, the terminal's file is the newest
    # draft, and the browser's draft is offered back as an earlier version.
    work = tmp_path / "asked" / filename
    work.write_text(lesson.exercise.solution)
    checked = cli(config, "check", "7.5", str(work))
    assert checked.returncode == 0 and "in the background" in checked.stdout, checked.stdout
    synced_now = cli(config, "progress", "--sync")
    assert synced_now.returncode == 0 and "Synced with" in synced_now.stdout, synced_now.stderr
    page.goto(server.url + LESSON_75)
    expect(page.locator(".lesson-header .status")).to_have_text("Done")
    expect(page.locator(".cm-content")).to_contain_text(lesson.exercise.solution.splitlines()[0])
    expect(page.locator("[data-earlier-versions]")).to_contain_text("From this browser")

    # The server away: the result stays on this machine, and goes with the next sync.
    login = json.loads(saved.read_text())
    saved.write_text(json.dumps({**login, "url": f"http://127.0.0.1:{free_port()}"}))
    work.write_text(lesson.exercise.solution + "\n# offline\n")
    away = cli(config, "check", "7.5", str(work))
    assert away.returncode == 0
    not_yet = cli(config, "progress", "--sync")
    assert not_yet.returncode == 1 and "Not synced yet" in not_yet.stderr
    assert "not all of it is in the account yet" in cli(config, "progress").stdout
    saved.write_text(json.dumps(login))
    back = cli(config, "progress", "--sync")
    assert back.returncode == 0 and "Synced with" in back.stdout
    page.goto(server.url + LESSON_75)
    expect(page.locator(".cm-content")).to_contain_text("# offline")

    # Revoked on the account page: the terminal is told, and the check itself still works.
    page.goto(server.url + "/accounts/")
    page.get_by_role("button", name="Revoke laptop").click()
    expect(page.locator(".messages")).to_contain_text("revoked")
    revoked = cli(config, "check", "7.5", str(work))
    assert revoked.returncode == 0
    told = cli(config, "progress", "--sync")
    assert told.returncode == 1 and "does not work" in told.stderr
    out = cli(config, "logout")
    assert out.returncode == 0 and not saved.exists()
