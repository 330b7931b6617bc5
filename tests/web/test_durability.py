"""What the database promises once the server has answered: a write it acknowledged is on disk.

SQLite (the default database) runs in WAL mode; with synchronous=NORMAL a commit reaches the disk
only at the next checkpoint, so a power loss can take acknowledged syncs with it (a killed
process cannot: the log is in the operating system's hands). synchronous=FULL syncs the log at
every commit. PostgreSQL's equivalent is synchronous_commit, on by default."""
from __future__ import annotations

import pytest
from django.db import connection

SQLITE_FULL = 2  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA


@pytest.mark.django_db
def test_every_commit_reaches_the_disk_before_the_server_answers():
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert cursor.execute("PRAGMA synchronous").fetchone()[0] >= SQLITE_FULL
        else:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] in ("on", "remote_write", "remote_apply")
            cursor.execute("SHOW fsync")
            assert cursor.fetchone()[0] == "on"
