"""`linebyline watch`: check the learner's file again every time it is saved (watchfiles, which
uses the system's file events: inotify, FSEvents), the screen cleared, the verdict last."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .usage import UsageError

DEBOUNCE_MS = 200  # an editor's save is often several writes: one check for them all


def watch(path: Path, check: Callable[[], Any]) -> int:
    from watchfiles import watch as changes

    target = path.resolve()
    folder = target.parent

    def ours(_change: object, changed: str) -> bool:
        # Editors save by writing the file, or by writing another and renaming it over: both
        # end with this path changed.
        return Path(changed).resolve() == target

    _once(check, path)
    try:
        for _ in changes(folder, watch_filter=ours, debounce=DEBOUNCE_MS, raise_interrupt=True,
                         rust_timeout=0, yield_on_timeout=False, recursive=False):
            if not target.exists():
                continue  # half-way through a save that renames: the next change brings it
            _once(check, path)
    except KeyboardInterrupt:
        print("\nStopped watching.", file=sys.stderr)
        return 0
    return 0


def _once(check: Callable[[], Any], path: Path) -> None:
    try:
        check()
    except UsageError as error:  # unreadable for a moment (say, half-saved): said, then waited on
        print(f"linebyline watch: {error}", file=sys.stderr)
    print(f"\nWatching {path} ({time.strftime('%H:%M:%S')}): save it to check again; Ctrl-C "
          "stops.", flush=True)
