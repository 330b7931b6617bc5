"""The cache every server process shares: Django's database cache, with atomic counters.

Rate limits (django-ratelimit) count requests with `cache.add(key, 0)` then `cache.incr(key)`.
Django's DatabaseCache does both as read-then-write, so two processes (or two threads) counting
at once can lose a count; and before every write it counts the whole table and, past
MAX_ENTRIES, deletes a third of the keys, other people's rate limits with them. Here `add` is one
INSERT that does nothing when the key exists, and `incr` a compare-and-swap UPDATE retried until
it wins: exact on SQLite and PostgreSQL alike, and no table scan on the hot path. Expired rows
are swept now and then instead.
"""
from __future__ import annotations

import base64
import itertools
import pickle
from datetime import UTC, datetime
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router
from django.utils.timezone import now

SWEEP_EVERY = 500  # adds between two deletions of expired rows
CAS_TRIES = 50


class SharedDatabaseCache(DatabaseCache):
    def __init__(self, table: str, params: dict[str, Any]) -> None:
        super().__init__(table, params)
        self._adds = itertools.count(1)

    def _encode(self, value: Any) -> str:
        return base64.b64encode(pickle.dumps(value, self.pickle_protocol)).decode("latin1")

    def _expiry(self, timeout: Any) -> datetime:
        seconds = self.get_backend_timeout(timeout)
        if seconds is None:
            return datetime.max.replace(tzinfo=UTC)
        return datetime.fromtimestamp(seconds, tz=UTC).replace(microsecond=0)

    def _sql(self, connection, text: str) -> str:
        quote = connection.ops.quote_name
        return text.format(table=quote(self._table), key=quote("cache_key"),
                           value=quote("value"), expires=quote("expires"))

    def add(self, key: str, value: Any, timeout: Any = DEFAULT_TIMEOUT,
            version: int | None = None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        connection = connections[router.db_for_write(self.cache_model_class)]
        adapt = connection.ops.adapt_datetimefield_value
        encoded, expires = self._encode(value), adapt(self._expiry(timeout))
        moment = adapt(now().replace(microsecond=0))
        with connection.cursor() as cursor:
            if next(self._adds) % SWEEP_EVERY == 0:
                cursor.execute(self._sql(connection, "DELETE FROM {table} WHERE {expires} < %s"),
                               [moment])
            cursor.execute(self._sql(
                connection, "INSERT INTO {table} ({key}, {value}, {expires}) VALUES (%s, %s, %s) "
                "ON CONFLICT DO NOTHING"), [key, encoded, expires])
            if cursor.rowcount == 1:
                return True
            # The key exists: it counts as absent only if it has expired (then it is replaced).
            cursor.execute(self._sql(
                connection, "UPDATE {table} SET {value} = %s, {expires} = %s "
                "WHERE {key} = %s AND {expires} < %s"), [encoded, expires, key, moment])
            return cursor.rowcount == 1

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        made = self.make_and_validate_key(key, version=version)
        connection = connections[router.db_for_write(self.cache_model_class)]
        moment = connection.ops.adapt_datetimefield_value(now().replace(microsecond=0))
        with connection.cursor() as cursor:
            for _ in range(CAS_TRIES):
                cursor.execute(self._sql(
                    connection, "SELECT {value} FROM {table} WHERE {key} = %s AND {expires} >= %s"),
                    [made, moment])
                row = cursor.fetchone()
                if row is None:
                    raise ValueError(f"Key '{key}' not found")
                old = connection.ops.process_clob(row[0])
                new_value = pickle.loads(base64.b64decode(old.encode())) + delta
                cursor.execute(self._sql(
                    connection, "UPDATE {table} SET {value} = %s WHERE {key} = %s AND {value} = %s"),
                    [self._encode(new_value), made, old])
                if cursor.rowcount == 1:
                    return new_value
        raise RuntimeError(f"cache key '{key}' kept changing: {CAS_TRIES} tries to increment it lost")
