"""Typed, line-aware reading of one YAML mapping, collecting errors instead of stopping at one."""
from __future__ import annotations

from typing import Any

from .errors import CourseError
from .yamlfile import Mapping, Sequence

_KIND_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
               list: "a list", dict: "a mapping"}
_MISSING = object()


def type_name(value: Any) -> str:
    for kind, name in (
        (bool, "true or false"), (int, "a whole number"), (float, "a number"), (str, "text"),
        (list, "a list"), (dict, "a mapping"),
    ):
        if isinstance(value, kind):
            return name
    return "empty" if value is None else type(value).__name__


class Fields:
    """Read keys of one mapping in ``file``; every problem is appended to ``errors``."""

    def __init__(self, file: str, data: Mapping, errors: list[CourseError], where: str = "") -> None:
        self.file, self.data, self.errors, self.where = file, data, errors, where

    def error(self, message: str, key: Any = None, line: int | None = None) -> None:
        if line is None:
            line = self.data.line_of(key) if key is not None else self.data.line
        self.errors.append(CourseError(self.file, line, f"{self.where}{message}"))

    def line(self, key: Any = None) -> int:
        return self.data.line_of(key) if key is not None else self.data.line

    def get(self, key: str, kind: type, default: Any = _MISSING) -> Any:
        """The value at key, checked to be of ``kind``; on a problem, records it and returns None."""
        if key not in self.data:
            if default is _MISSING:
                self.error(f"missing `{key}`")
                return None
            return default
        value = self.data[key]
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if kind is str and ok and not value.strip():
            self.error(f"`{key}` is empty", key)
            return None
        if not ok:
            self.error(f"`{key}` must be {_KIND_NAMES[kind]}, not {type_name(value)}", key)
            return None
        return value

    def mapping(self, key: str, where: str = "", required: bool = True) -> Fields | None:
        value = self.get(key, dict) if required else self.get(key, dict, None)
        return Fields(self.file, value, self.errors, where or f"{key}: ") if value is not None else None

    def items(self, key: str, where: str, required: bool = True) -> list[Fields]:
        """The entries of a list of mappings, each as Fields with its own place in errors."""
        entries = self.get(key, list) if required else self.get(key, list, [])
        result = []
        for index, entry in enumerate(entries or []):
            if isinstance(entry, Mapping):
                result.append(Fields(self.file, entry, self.errors, f"{where} {index + 1}: "))
            else:
                line = entries.line_of(index) if isinstance(entries, Sequence) else self.line(key)
                self.error(f"{where} {index + 1} must be a mapping, not {type_name(entry)}",
                           line=line)
        return result

    def only(self, *allowed: str) -> None:
        """Report keys that are not allowed here: usually a typo that would silently do nothing."""
        for key in self.data:
            if key not in allowed:
                self.error(f"unknown key `{key}` (allowed: {', '.join(allowed)})", key)
