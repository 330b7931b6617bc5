"""What the CLI's side and the worker share, kept apart so that neither imports the other."""
from __future__ import annotations

import os

DEFAULT_TIMEOUT = 10.0  # seconds
DEFAULT_MEMORY_MB = 512
FILE_MB = 64  # the largest file the learner's code may write
PROCESSES = 32  # processes (and threads) the learner's code may start
FAILED = 3  # the worker's exit code when the checker itself failed
REPORT_LOST = 4  # the worker's exit code when the learner's code closed or replaced the report pipe
SETUP_FAILED = 125  # keeper.py's, when the namespaces could not be set up (keeper.py has its own)


def tasks_of(uid: int) -> int | None:
    """How many processes and threads the user has now (the process-count limit counts both);
    None without /proc. In a PID namespace, only those of the namespace."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None  # no /proc (macOS): the limit cannot be set relative to what runs already
    count = 0
    for entry in entries:
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    count += len(os.listdir(f"/proc/{entry}/task"))
            except OSError:
                continue  # ended meanwhile
    return count
