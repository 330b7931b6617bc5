"""What the apps above accounts add to a learner's account without accounts importing them: the
teaching app adds its "teach" flag to the account API (/api/account/) and the classes and events
to the data download. Each registers in its AppConfig.ready(), so that imports point one way
(teaching -> accounts)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

_flags: dict[str, Callable[[Any], bool]] = {}
_data: list[Callable[[Any], dict[str, Any]]] = []


def add_flag(name: str, test: Callable[[Any], bool]) -> None:
    """A yes/no the account API reports for the signed-in user, under `name`."""
    _flags[name] = test


def add_data(provider: Callable[[Any], dict[str, Any]]) -> None:
    """A part of the user's data download (keys of its own)."""
    _data.append(provider)


def flags_of(user: Any) -> dict[str, bool]:
    return {name: test(user) for name, test in _flags.items()}


def data_of(user: Any) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for provider in _data:
        merged.update(provider(user))
    return merged
