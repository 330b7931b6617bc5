"""The cache every server process shares (rate limits live there): exact counts under contention."""
from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection


@pytest.fixture(autouse=True)
def empty(db):
    cache.clear()


def test_add_only_adds_an_absent_or_expired_key():
    assert cache.add("k", 0, 60) is True
    assert cache.add("k", 5, 60) is False and cache.get("k") == 0
    assert cache.add("short", 1, 1) is True
    time.sleep(2.1)  # the database keeps whole seconds
    assert cache.get("short") is None
    assert cache.add("short", 7, 60) is True and cache.get("short") == 7


def test_incr_counts_and_refuses_a_missing_key():
    cache.add("n", 0, 60)
    assert [cache.incr("n") for _ in range(3)] == [1, 2, 3]
    assert cache.incr("n", 10) == 13
    with pytest.raises(ValueError):
        cache.incr("absent")


@pytest.mark.django_db(transaction=True)
def test_no_count_is_lost_when_threads_count_at_once():
    cache.add("hits", 0, 600)
    failures: list[BaseException] = []
    start = threading.Barrier(4)

    def count() -> None:
        try:
            start.wait()
            for _ in range(30):
                cache.incr("hits")
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=count) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert cache.get("hits") == 120
