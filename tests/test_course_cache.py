"""The course as the CLI loads it: validated once per version, then from the user's cache."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from linebyline.course import CourseErrors, load_course_cached

from .conftest import replace

TITLE = 'title: "backward(): let the graph do calculus"'


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LINEBYLINE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "courses"


def test_a_course_comes_from_the_cache_until_one_of_its_files_changes(copy, cache):
    first = load_course_cached(copy)
    kept = list(cache.glob("*.pickle"))
    assert len(kept) == 1 and kept[0].stat().st_mode & 0o077 == 0
    again = load_course_cached(copy)
    assert again == first and again is not first
    replace(copy / "lessons/7.5-backward/lesson.yaml", "One method turns", "One short method turns")
    assert load_course_cached(copy).lesson("7.5").lead.startswith("One short method")
    assert len(list(cache.glob("*.pickle"))) == 1  # the new version replaced the old


def test_a_course_with_errors_is_never_kept(copy, cache):
    replace(copy / "lessons/7.5-backward/lesson.yaml", TITLE, "title: [not, text]")
    for _ in range(2):
        with pytest.raises(CourseErrors):
            load_course_cached(copy)
    assert not list(cache.glob("*.pickle"))


def test_a_cache_file_others_may_write_is_not_believed(copy, cache):
    real = load_course_cached(copy)
    (kept,) = cache.glob("*.pickle")
    key, _ = pickle.loads(kept.read_bytes())
    kept.write_bytes(pickle.dumps((key, dataclasses.replace(real, title="Planted by someone else"))))
    kept.chmod(0o666)
    assert load_course_cached(copy).title == real.title
    assert kept.stat().st_mode & 0o077 == 0  # written afresh, by its owner
