"""Errors in course files, always reported as ``file:line: what is wrong``."""
from __future__ import annotations


class CourseError(Exception):
    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file, self.line, self.message = file, line, message


class CourseErrors(Exception):
    """Every problem found while loading a course, so an author can fix them in one go."""

    def __init__(self, errors: list[CourseError]) -> None:
        super().__init__("\n".join(str(error) for error in errors))
        self.errors = errors
