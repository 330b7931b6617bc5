"""A course's own modules, under its ``library/`` folder, which lessons' starters may import.

They hold the parts of the program that a later lesson has the learner write, finished, so a
starter can use them without showing them (``from given.train3 import gpt``). The check runtime
imports them from memory (:mod:`linebyline.runtime.library`); this reads them from the folder.
"""
from __future__ import annotations

from pathlib import Path

LIBRARY_FOLDER = "library"


def library_folder(course_path: Path) -> Path:
    return Path(course_path) / LIBRARY_FOLDER


def library_sources(course_path: Path) -> dict[str, str]:
    """``{"given/__init__.py": source, "given/train3.py": source, ...}``; {} without a library."""
    folder = library_folder(course_path)
    if not folder.is_dir():
        return {}
    return {path.relative_to(folder).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(folder.rglob("*.py")) if "__pycache__" not in path.parts}
