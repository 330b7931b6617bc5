"""Courses as folders of files: the model, the loader that validates them, and where they live."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import CourseError, CourseErrors
from .model import Course, Exercise, Lesson, Module, Question, Recall, Review

__all__ = [
    "Course", "CourseError", "CourseErrors", "Exercise", "Lesson", "Module", "Question", "Recall",
    "Review",
    "apply_edits", "courses_root", "default_course_path", "load_course", "load_course_cached",
]

DEFAULT_COURSE = "microgpt"
# Loaded on first use: the loader brings in PyYAML and the check runtime, which a command that
# finds its course in the cache (cached.py) never needs.
_LAZY = {"apply_edits": ".loader", "load_course": ".loader", "load_course_cached": ".cached"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


# Resolved once: the web app asks for the course's folder on every page it serves.
_REPOSITORY_COURSES = Path(__file__).resolve().parents[3] / "courses"


def courses_root() -> Path:
    """The folder of courses: $LINEBYLINE_COURSES, else the repository's courses/ folder."""
    configured = os.environ.get("LINEBYLINE_COURSES")
    if configured:
        return Path(configured)
    return _REPOSITORY_COURSES


def default_course_path() -> Path:
    return courses_root() / DEFAULT_COURSE
