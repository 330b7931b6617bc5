"""The deployment tests drive Chromium too: the browser tests' fixture, shared."""
from ..browser.conftest import browser  # noqa: F401
