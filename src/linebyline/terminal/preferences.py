"""The terminal's remembered settings (`linebyline config`), kept in the config folder beside the
login: today one, the level of the TODO comments `start` writes (guided, or on my own)."""
from __future__ import annotations

import json
from pathlib import Path

from ..course.levels import GUIDED, LEVELS, OWN
from ..progress.account import config_dir
from ..progress.local import write_private

# Each setting: its values, its default, and what it does (for `config` and its --help).
SETTINGS = {
    "level": (LEVELS, GUIDED,
              "the TODO comments `start` writes: guided (how to write each line) or own (on my "
              "own: only what the lines must achieve, and which check proves it)"),
}
LEVEL_NAMES = {GUIDED: "guided", OWN: "on my own"}


class PreferenceError(ValueError):
    """An unknown setting or value; the message says which ones there are."""


def _file() -> Path:
    return config_dir() / "settings.json"


def _stored() -> dict[str, str]:
    try:
        data = json.loads(_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def get(name: str) -> str:
    """The setting's value: as set, else its default (a value no longer allowed reads as it)."""
    values, default, _ = _known(name)
    value = _stored().get(name)
    return value if value in values else default


def set_value(name: str, value: str) -> None:
    values, _, _ = _known(name)
    if value not in values:
        raise PreferenceError(f"{name} is one of {', '.join(values)}, not {value!r}")
    data = {key: item for key, item in _stored().items() if key in SETTINGS}
    data[name] = value
    write_private(_file(), json.dumps(data, indent=2) + "\n")


def _known(name: str) -> tuple[tuple[str, ...], str, str]:
    if name not in SETTINGS:
        raise PreferenceError(f"there is no setting {name!r} (settings: {', '.join(SETTINGS)})")
    return SETTINGS[name]
