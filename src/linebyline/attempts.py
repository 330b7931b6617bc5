"""How many times in a row each check of a lesson has failed in this terminal, so that the
literal fix a check holds back is shown only after three failures, as in the browser.

Kept in ``$LINEBYLINE_STATE_DIR`` (else ``$XDG_STATE_HOME/linebyline``, else
``~/.local/state/linebyline``) as ``attempts.json``. A file that cannot be read or written
only means the fix comes later: nothing else depends on it.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

FIX_AFTER = 3  # failures of the same check in a row before its fix is shown


def state_dir() -> Path:
    configured = os.environ.get("LINEBYLINE_STATE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "linebyline"


def _read(path: Path) -> dict[str, dict[str, int]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record(course: str, lesson: str, outcomes: dict[str, bool | None]) -> dict[str, int]:
    """Count this run's outcomes (check name: failed? None when it did not run) and return
    each check's failures in a row, this run included."""
    path = state_dir() / "attempts.json"
    data = _read(path)
    key = f"{course} {lesson}"
    counts = data.get(key) if isinstance(data.get(key), dict) else {}
    counts = {name: (int(counts.get(name, 0)) if failed is None else
                     int(counts.get(name, 0)) + 1 if failed else 0)
              for name, failed in outcomes.items()}
    data[key] = counts
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, suffix=".tmp",
                                         encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(handle.name, path)
    except OSError:
        pass
    return counts
