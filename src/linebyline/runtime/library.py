"""The course's own modules (its ``library/`` folder), which a learner's file may import.

A starter imports the parts of the program that a later lesson has the learner write
(``from given.train3 import gpt``) instead of showing them, so that no exercise is a copy away.
The modules come as data, ``{"given/__init__.py": source, "given/train3.py": source}``, from
wherever the code runs (the CLI's sandbox job, the browser's runtime bundle, lint), and are
imported from memory: nothing is written next to the learner's file, and no file permission or
folder decides what runs.

Every program run gets fresh module objects: what one run does to them (a learner's patch of
``given.train3.softmax``) reaches neither the next run nor the lesson's reference solution.
"""
from __future__ import annotations

import builtins
import linecache
import sys
from collections.abc import Mapping
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

SUFFIX = ".py"
INIT = "__init__.py"


def module_names(sources: Mapping[str, str]) -> dict[str, tuple[str, bool]]:
    """``{"given.train3": ("given/train3.py", False), "given": ("given/__init__.py", True)}``."""
    names: dict[str, tuple[str, bool]] = {}
    for path in sources:
        if not path.endswith(SUFFIX):
            continue
        parts = path[:-len(SUFFIX)].split("/")
        package = parts[-1] == INIT[:-len(SUFFIX)]
        if package:
            parts = parts[:-1]
        if parts:
            names[".".join(parts)] = (path, package)
    return names


class _Finder:
    """A meta-path finder and loader for the course's modules, served from their sources."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = dict(sources)
        self.names = module_names(sources)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if name not in self.names:
            return None
        filename, package = self.names[name]
        spec = ModuleSpec(name, self, origin=filename, is_package=package)
        if package:
            spec.submodule_search_locations = []
        return spec

    def create_module(self, spec: ModuleSpec) -> None:
        return None  # the default module object

    def exec_module(self, module: ModuleType) -> None:
        filename, _ = self.names[module.__name__]
        source = self.sources[filename]
        # Tracebacks and inspect quote the module's lines, as for a file on disk.
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        module.__file__ = filename
        # The real builtins, as the learner's file gets: its imports then give the very modules
        # the file has (a check's patch of `code.random` reaches a course module's draws too),
        # never the private copies the checks' own package imports.
        module.__dict__["__builtins__"] = builtins
        exec(compile(source, filename, "exec", dont_inherit=True), module.__dict__)

    def get_source(self, name: str) -> str | None:
        entry = self.names.get(name)
        return self.sources[entry[0]] if entry else None


class CourseModules:
    """The course's modules made importable for the length of a ``with`` block.

    ``fresh()`` starts a program run: it forgets the modules an earlier run imported and puts
    the import machinery back as it was when the block began, so a finder the learner's code
    added cannot serve the reference its own versions.
    """

    def __init__(self, sources: Mapping[str, str] | None) -> None:
        self.finder = _Finder(sources or {})
        self.saved: list[Any] = []

    def __bool__(self) -> bool:
        return bool(self.finder.names)

    def _forget(self) -> None:
        for name in [name for name in sys.modules if name.partition(".")[0] in self._tops()]:
            del sys.modules[name]

    def _tops(self) -> set[str]:
        return {name.partition(".")[0] for name in self.finder.names}

    def fresh(self) -> None:
        if not self:
            return
        self._forget()
        sys.meta_path[:] = [self.finder, *self.saved]

    def __enter__(self) -> CourseModules:
        self.saved = list(sys.meta_path)
        self.fresh()
        return self

    def __exit__(self, *error: object) -> None:
        if self:
            sys.meta_path[:] = self.saved
            self._forget()
