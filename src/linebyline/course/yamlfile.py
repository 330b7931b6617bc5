"""Read YAML and remember which line every key and list item came from.

Course authors get errors as ``file:line: what is wrong``, so the loader needs line numbers,
which plain ``yaml.safe_load`` throws away.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import CourseError


class Mapping(dict):
    """A dict that knows its own line and the line of each key."""

    line: int = 0
    lines: dict[Any, int]

    def line_of(self, key: Any) -> int:
        return self.lines.get(key, self.line)


class Sequence(list):
    """A list that knows its own line and the line of each item."""

    line: int = 0
    lines: list[int]

    def line_of(self, index: int) -> int:
        return self.lines[index] if index < len(self.lines) else self.line


# libyaml's parser where PyYAML was built with it (its wheels are): the course loads about
# five times sooner; the marks, and so the lines, are the same.
class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Mapping:
    loader.flatten_mapping(node)
    result = Mapping()
    result.line, result.lines = node.start_mark.line + 1, {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in result:
            raise CourseError(loader.name, line, f"the key {key!r} appears twice")
        result[key] = loader.construct_object(value_node, deep=True)
        result.lines[key] = line
    return result


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> Sequence:
    result = Sequence(loader.construct_object(item, deep=True) for item in node.value)
    result.line = node.start_mark.line + 1
    result.lines = [item.start_mark.line + 1 for item in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load(path: Path) -> Mapping:
    """Parse a YAML file whose top level is a mapping; errors name the file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CourseError(str(path), 0, "file not found") from None
    except UnicodeDecodeError as error:
        raise CourseError(str(path), 0, f"not UTF-8 text ({error.reason})") from None
    loader = _Loader(text)
    loader.name = str(path)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 0
        raise CourseError(str(path), line, f"not valid YAML: {error.problem}") from None
    finally:
        loader.dispose()
    if not isinstance(data, Mapping):
        raise CourseError(str(path), 1, "the file must be a YAML mapping (key: value lines)")
    return data
