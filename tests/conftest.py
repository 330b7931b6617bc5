"""Shared fixtures: the real course, the published names file, and a way to run the CLI."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from linebyline.course import Course, default_course_path, load_course

ROOT = Path(__file__).resolve().parents[1]
# The makemore names file lives in ../shared beside the repository (also in CI). A missing file
# must fail the tests that need it, never skip them.
PUBLISHED_NAMES = ROOT.parent / "shared" / "data" / "names.txt"


@pytest.fixture(scope="session")
def course() -> Course:
    return load_course(default_course_path())


@pytest.fixture(scope="session")
def names_file() -> Path:
    assert PUBLISHED_NAMES.is_file(), f"the published data set is missing: {PUBLISHED_NAMES}"
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
    from playwright.sync_api import sync_playwright

    from .browser.conftest import CHROMIUM_FLAGS, chromium_path
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()
