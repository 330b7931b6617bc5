"""A terminal learner, in a real terminal (tmux), through lesson 2.3: `start`, `show`, a wrong
check, `hint` twice, `watch` picking up the fix, a pass with its next command, `lessons` with its
✓; then `login`, and the same learner's progress is in the browser (Chromium, a live server)."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import apply_edits

from .test_accounts_browser import new_username, sign_up
from .test_cli_login import make_token

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
LESSON_23 = "/lessons/2.3-loss-as-surprise/"


class Terminal:
    """A tmux session: type a command line, wait for text on the screen."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        assert shutil.which("tmux"), "tmux drives the terminal test (Debian's tmux package)"
        self.name = f"lbl-{uuid.uuid4().hex[:8]}"
        # A tmux server of its own: a test in another worker ending its session (and so the
        # shared server) never takes this one down while it starts.
        self.tmux = ["tmux", "-L", self.name]
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in env.items())
        self.shell = f"cd {shlex.quote(str(folder))} && env {exports} bash --norc --noprofile"
        subprocess.run([*self.tmux, "new-session", "-d", "-s", self.name, "-x", "200", "-y", "50",
                        self.shell], check=True)

    def type(self, line: str, window: str = "0") -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", f"{self.name}:{window}", "-l", line],
                       check=True)
        subprocess.run([*self.tmux, "send-keys", "-t", f"{self.name}:{window}", "Enter"], check=True)

    def keys(self, *keys: str, window: str = "0") -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", f"{self.name}:{window}", *keys], check=True)

    def screen(self, window: str = "0") -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-J", "-S", "-3000", "-t",
                               f"{self.name}:{window}"], capture_output=True, text=True,
                              check=True).stdout

    def wait_for(self, text: str, window: str = "0", timeout: float = 60, after: int = 0) -> str:
        """Wait until `text` is on the screen (in its scrollback) more than `after` times."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen(window)
            if screen.count(text) > after:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} did not show in {timeout} s:\n{self.screen(window)}")

    def new_window(self, name: str) -> None:
        subprocess.run([*self.tmux, "new-window", "-t", self.name, "-n", name, self.shell],
                       check=True)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], check=False)


def test_a_terminal_learner_through_a_lesson_then_in_the_browser(server, page: Page, tmp_path,
                                                                  course):
    lesson = course.lesson("2.3")
    checks, hints = len(lesson.exercise.check_names), len(lesson.exercise.hints)
    lbl = f"{shlex.quote(sys.executable)} -m linebyline"
    env = {"LINEBYLINE_DATA_DIR": os.environ["LINEBYLINE_DATA_DIR"],
           "LINEBYLINE_CONFIG_DIR": os.environ["LINEBYLINE_CONFIG_DIR"],
           "PAGER": "cat", "TERM": "xterm-256color", "PATH": os.environ.get("PATH", "/usr/bin")}
    terminal = Terminal(tmp_path, env)
    try:
        terminal.type(f"{lbl} start 2.3")
        terminal.wait_for("linebyline watch 2.3")
        work = tmp_path / "microgpt" / "2.3-loss-as-surprise" / lesson.exercise.filename
        assert work.read_text() == lesson.exercise.starter

        terminal.type(f"{lbl} show 2.3")
        terminal.wait_for("Where these lines go")
        assert "−log p" in terminal.screen()

        wrong = next(m for m in lesson.exercise.mistakes if m.name == "log without the minus")
        work.write_text(apply_edits(lesson.exercise.solution, wrong.edits))
        terminal.type(f"{lbl} check 2.3")
        screen = terminal.wait_for("checks pass.")
        assert f"✗ 2 / {checks} checks pass." in screen and "Every surprise has the wrong sign" in screen

        terminal.type(f"{lbl} hint 2.3")
        terminal.wait_for(f"Hint 1 of {hints}")
        terminal.type(f"{lbl} hint 2.3")
        terminal.wait_for(f"Hint 2 of {hints}")

        terminal.new_window("watch")
        terminal.type(f"{lbl} watch 2.3", window="watch")
        terminal.wait_for("save it to check again", window="watch")
        assert f"✗ 2 / {checks} checks pass." in terminal.screen("watch")
        work.write_text(lesson.exercise.solution)  # the fix, saved
        # The next command is the verdict's last line: once it shows, the whole verdict has.
        screen = terminal.wait_for("Next: linebyline start 2.4", window="watch", timeout=60)
        assert f"✓ {checks} / {checks} checks pass" in screen
        terminal.keys("C-c", window="watch")
        terminal.wait_for("Stopped watching.", window="watch")

        terminal.type(f"{lbl} lessons")
        screen = terminal.wait_for("Next: linebyline")
        assert "✓   2.3  Loss as surprise" in screen and "1 lesson done" in screen

        # Signing in brings what the terminal did into the account, and so into the browser.
        sign_up(page, server, new_username())
        token = make_token(page, server, "terminal")
        terminal.type(f"echo {shlex.quote(token)} | {lbl} login {server.url} --token-stdin")
        terminal.wait_for("Merged: 1 lesson done")
        page.goto(server.url + LESSON_23)
        expect(page.locator(".lesson-header .status")).to_have_text("Done")
        expect(page.locator("[data-hints] li")).to_have_count(2)
        expect(page.locator(".cm-content")).to_contain_text("losses.append(-math.log(")
    finally:
        terminal.close()


def test_a_long_lesson_is_paged_in_colour_with_the_learners_own_pager(tmp_path, course):
    """No PAGER and no LESS set, as on a fresh machine: `show` pages through less, and less shows
    the colours instead of their escape codes ("ESC[1m")."""
    assert shutil.which("less"), "less is the pager a fresh machine has"
    env = {"LINEBYLINE_DATA_DIR": os.environ["LINEBYLINE_DATA_DIR"], "TERM": "xterm-256color",
           "PATH": os.environ.get("PATH", "/usr/bin")}
    terminal = Terminal(tmp_path, env)
    try:
        terminal.type(f"{shlex.quote(sys.executable)} -m linebyline show 2.3")
        screen = terminal.wait_for("Lesson 2.3: Loss as surprise")
        assert "ESC[" not in screen and "bash" not in screen.split("Lesson 2.3")[1]  # still paging
        terminal.keys("q")
        terminal.wait_for("bash", after=1)
    finally:
        terminal.close()
