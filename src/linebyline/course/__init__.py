"""Courses as folders of files: the model, the loader that validates them, and where they live."""
from __future__ import annotations

import os
from pathlib import Path

from .errors import CourseError, CourseErrors
from .loader import apply_edits, load_course
from .model import Course, Exercise, Lesson, Module, Question, Review

__all__ = [
    "Course", "CourseError", "CourseErrors", "Exercise", "Lesson", "Module", "Question", "Review",
    "apply_edits", "courses_root", "default_course_path", "load_course",
]

DEFAULT_COURSE = "microgpt"


def courses_root() -> Path:
    """The folder of courses: $LINEBYLINE_COURSES, else the repository's courses/ folder."""
    configured = os.environ.get("LINEBYLINE_COURSES")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parents[3] / "courses"


def default_course_path() -> Path:
    return courses_root() / DEFAULT_COURSE
