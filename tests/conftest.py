"""Shared fixtures: the real course, the published names file, and a way to run the CLI."""
from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from linebyline.course import Course, default_course_path, load_course

from .other_user import NOBODY, CliUser, make_home, python_for

ROOT = Path(__file__).resolve().parents[1]
# The makemore names file lives in ../shared beside the repository (also in CI); a clone
# elsewhere (/tmp, say) names it with LINEBYLINE_PUBLISHED_NAMES. A missing file must fail the
# tests that need it, never skip them.
PUBLISHED_NAMES = Path(os.environ.get("LINEBYLINE_PUBLISHED_NAMES")
                       or ROOT.parent / "shared" / "data" / "names.txt")


@pytest.fixture(autouse=True)
def learner_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
                    ) -> Path:
    """Each test's CLI runs keep their progress and login in folders of their own (never the
    user's, never another test's)."""
    home = tmp_path_factory.mktemp("learner")
    monkeypatch.setenv("LINEBYLINE_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("LINEBYLINE_CONFIG_DIR", str(home / "config"))
    return home


@functools.cache
def the_course() -> Course:
    """The course as shipped, loaded once per test process (a load takes about a second)."""
    return load_course(default_course_path())


@pytest.fixture(scope="session")
def course() -> Course:
    return the_course()


@pytest.fixture(scope="session")
def names_file() -> Path:
    assert PUBLISHED_NAMES.is_file(), (
        f"the published data set is missing: {PUBLISHED_NAMES} (a clone away from ../shared: "
        "set LINEBYLINE_PUBLISHED_NAMES to the makemore names.txt)")
    return PUBLISHED_NAMES


def run_cli(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `linebyline ARGS` as a user would, in a separate process."""
    return subprocess.run([sys.executable, "-m", "linebyline", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=timeout)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the real course, for tests that break it on purpose."""
    target = tmp_path / "microgpt"
    shutil.copytree(default_course_path(), target)
    return target


def replace(path: Path, old: str, new: str) -> None:
    """Replace the first `old` in a file, insisting that it is there."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole run, shared by tests/browser and tests/deploy (Playwright's
    sync API allows one running instance per thread)."""
    from playwright.sync_api import expect, sync_playwright

    from .browser.conftest import CHROMIUM_FLAGS, PAGE_TIMEOUT_MS, chromium_path
    # What the page shows is awaited as long as what the page does (Playwright's default for
    # expect() is 5 s, which signing up, password hashing and all, can pass on two busy cores).
    expect.set_options(timeout=PAGE_TIMEOUT_MS)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield TestBrowser(launched)
        launched.close()


def _hold(route) -> None:
    """Leave the request waiting: the page's Python stays "downloading" until the page closes."""


class TestBrowser:
    """The shared Chromium, whose new contexts run no service worker unless a test asks for one
    (`service_workers="allow"`; the `service_worker` mark does it for the `context` fixture).
    A learner's first visit keeps the whole course for offline use: every page, Pyodide, each
    lesson's checks. In a test that is not about offline use, that download only takes the
    cores from what the test does, once per context."""

    __test__ = False  # a helper, not a test class

    def __init__(self, launched) -> None:
        self._launched = launched
        self.hold_python = False  # set for a test marked no_python (tests/browser/conftest.py)

    def new_context(self, **options):
        options.setdefault("service_workers", "block")
        made = self._launched.new_context(**options)
        if self.hold_python:
            made.route("**/pyodide.mjs", _hold)
        return made

    def __getattr__(self, name: str):
        return getattr(self._launched, name)


@pytest.fixture(scope="session")
def cli_root():
    """The CLI run by root (only when the tests run as root)."""
    if os.geteuid() != 0:
        pytest.skip("runs the CLI as root, and the tests do not run as root")
    home = make_home(None)
    yield CliUser(sys.executable, home, None)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def cli_user():
    """The CLI run by an ordinary user: `nobody` when the tests run as root, else the tests'."""
    user = NOBODY if os.geteuid() == 0 else None
    python = sys.executable if user is None else python_for(user)
    assert python, (f"no Python {sys.version_info.major}.{sys.version_info.minor} that the user "
                    "nobody may run: install the system's (e.g. apt install python3)")
    home = make_home(user)
    yield CliUser(python, home, user)
    shutil.rmtree(home, ignore_errors=True)


class Listeners:
    """A TCP and a UDP server on 127.0.0.1, on one port, keeping whatever reaches them."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.port = self.tcp.getsockname()[1]
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", self.port))
        self.received: list[str] = []
        self.lock = threading.Lock()
        for target in (self._accept, self._datagrams):
            threading.Thread(target=target, daemon=True).start()

    def _keep(self, what: str) -> None:
        with self.lock:
            self.received.append(what)

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.tcp.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(2)
                try:
                    self._keep(f"tcp: {connection.recv(100)!r}")
                except OSError:
                    self._keep("tcp: a connection")

    def _datagrams(self) -> None:
        while True:
            try:
                self._keep(f"udp: {self.udp.recv(100)!r}")
            except OSError:
                return

    def take(self) -> list[str]:
        """What came since the last call."""
        with self.lock:
            taken, self.received = self.received, []
        return taken

    def close(self) -> None:
        self.tcp.close()
        self.udp.close()


@pytest.fixture(scope="module")
def listeners():
    """Servers on this machine that learner code must not reach from a check."""
    servers = Listeners()
    yield servers
    servers.close()
