"""Fixtures for every test of the web app."""
from __future__ import annotations

import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest


@pytest.fixture(autouse=True)
def rate_limit_windows_stay_put(monkeypatch: pytest.MonkeyPatch) -> None:
    """django-ratelimit counts in fixed windows (a minute, an hour) that end at a time of their
    own: a test that sends a limit's worth of requests (some take 15 s on a busy machine) would
    fail by chance when a window ends halfway and the count starts again. The limiter and the
    cache it counts in are real; only the clock that picks the window stands still."""
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """A test marked `same_on_every_database` runs on SQLite only (make test's PostgreSQL run
    leaves it out): it must then make no query at all, or the mark would be a lie."""
    if not item.get_closest_marker("same_on_every_database"):
        return (yield)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        outcome = yield
    assert not queries.captured_queries, (
        f"marked same_on_every_database, yet it queried the database: "
        f"{queries.captured_queries[0]['sql'][:200]}")
    return outcome
