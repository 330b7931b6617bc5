"""A course loaded once per version: the validated model kept in the user's cache folder.

Loading a course reads and validates every lesson and executes every checks.py, which takes far
longer than a terminal command should wait for one lesson. So the loaded model is pickled (one
file per course folder) beside a description of everything it was made from: the name, size and
time of every file of the course folder and of the code that loads it (this package and the check
runtime), and the Python and linebyline versions. Change any of them and the next command loads,
validates and keeps the course afresh; a course with errors is never kept, so its errors show
every time.

The pickle is read only from a file the current user owns and no one else may write (a cache
others could write to would run their code), in the folder of linebyline's cache.
"""
from __future__ import annotations

import os
import pickle
import stat
import sys
from pathlib import Path

from .model import Course

PACKAGE = Path(__file__).resolve().parents[1]  # linebyline/: the loader's code is part of the key
CODE = ("course", "runtime")


def cache_dir() -> Path:
    """Where this user's computed figures and reference runs are kept (LINEBYLINE_CACHE_DIR, or
    linebyline/computed in the user's cache folder)."""
    configured = os.environ.get("LINEBYLINE_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "linebyline" / "computed"


def cache_folder() -> Path:
    configured = os.environ.get("LINEBYLINE_CACHE_DIR")
    if configured:
        return Path(configured) / "courses"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "linebyline" / "courses"


def _files(folder: Path) -> list[str]:
    entries = []
    for root, folders, names in os.walk(folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        for name in sorted(names):
            path = os.path.join(root, name)
            try:
                info = os.stat(path)
            except OSError:
                continue
            entries.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
    return entries


def made_from(path: Path) -> str:
    """Everything a loaded course depends on, as text: equal text, equal course."""
    from .. import __version__

    parts = [sys.version, __version__]
    for folder in (path, *(PACKAGE / part for part in CODE)):
        parts += _files(folder)
    return "\n".join(parts)


def _file_for(path: Path) -> Path:
    name = str(path).strip(os.sep).replace(os.sep, "_").replace(".", "_") or "root"
    return cache_folder() / f"{name[-150:]}.pickle"


def _read(file: Path, key: str) -> Course | None:
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid()
                or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
            return None
        try:
            kept_key, course = pickle.load(handle)
        except Exception:  # noqa: BLE001 - a damaged or outdated file: load the course again
            return None
    return course if kept_key == key and isinstance(course, Course) else None


def _keep(file: Path, key: str, course: Course) -> None:
    """Write the cache file atomically; a cache that cannot be written is only slower."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        temporary = file.with_name(f".{file.name}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            pickle.dump((key, course), handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, file)
    except OSError:
        pass


def load_course_cached(path: Path) -> Course:
    """load_course(path), from the cache when this version of the course was loaded before."""
    path = path.resolve()
    key, file = made_from(path), _file_for(path)
    course = _read(file, key)
    if course is None:
        from .loader import load_course

        course = load_course(path)
        _keep(file, key, course)
    return course
