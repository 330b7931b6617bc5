"""The Explore widget kinds a lesson may declare, one module per kind.

A lesson says ``explore: {kind: ..., params: {...}, compute: ...}``. Each module here names its
``KIND`` and validates that kind's parameters with ``validate(params)``; a kind whose numbers are
computed by the lesson's own code also has ``check_data(data)``, which returns what is wrong
with the computed ``data`` (or None); a kind that runs the course's scripts names the parameters
that hold a script's file name in ``SCRIPTS`` (the loader checks the files exist); a kind that
runs the lesson's own solution says ``RUNS_SOLUTION = True`` (the page hands it over). The browser
side of a kind lives in ``frontend/src/widgets/<kind>.ts``. Adding a kind means adding one file
here and one there. Checks that several kinds share live in ``_common`` (a module whose name
starts with an underscore is not a kind).
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..fields import Fields


@dataclass(frozen=True)
class WidgetKind:
    name: str
    validate: Callable[[Fields], None]
    check_data: Callable[[Any], str | None] | None
    scripts: tuple[str, ...] = ()
    runs_solution: bool = False


def _discover() -> dict[str, WidgetKind]:
    kinds = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        if info.name.startswith("_"):  # helpers shared by the kinds (_common), not kinds
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        kinds[module.KIND] = WidgetKind(module.KIND, module.validate,
                                        getattr(module, "check_data", None),
                                        getattr(module, "SCRIPTS", ()),
                                        getattr(module, "RUNS_SOLUTION", False))
    return kinds


KINDS: dict[str, WidgetKind] = _discover()
