"""Data files: the bundled one is good, and every bad one gets an error naming file and problem."""
from __future__ import annotations

from pathlib import Path

import pytest

from linebyline.course.dataset import BUNDLED_NAMES, DatasetError, check_dataset

from .conftest import run_cli


def test_the_bundled_names_ship_with_the_package_and_are_plain_lowercase_names():
    names = BUNDLED_NAMES.read_text(encoding="utf-8").split()
    assert check_dataset(BUNDLED_NAMES) == len(names) == 32_000
    assert len(set(names)) == len(names)
    assert all(name.isascii() and name.isalpha() and name.islower() for name in names)
    assert names[:3] == ["james", "john", "robert"]  # most common first


def test_the_published_file_is_accepted(names_file):
    assert check_dataset(names_file) == 32_033


@pytest.mark.parametrize("content, problem", [
    (b"", "is empty"),
    (b"\n  \n\n", "only blank lines"),
    (b"emma\x00\x01\x02olivia\n", "binary"),
    ("zoë\n".encode("latin-1"), "not UTF-8 text (byte 0xeb on line 1)"),
])
def test_bad_files_are_named_with_their_problem(tmp_path: Path, content: bytes, problem: str):
    path = tmp_path / "data.txt"
    path.write_bytes(content)
    with pytest.raises(DatasetError) as error:
        check_dataset(path)
    assert str(error.value).startswith(f"{path}: ") and problem in str(error.value)


def test_missing_file_and_folder(tmp_path: Path):
    with pytest.raises(DatasetError, match="no such file"):
        check_dataset(tmp_path / "nope.txt")
    with pytest.raises(DatasetError, match="is a folder"):
        check_dataset(tmp_path)


def test_train_refuses_a_bad_data_set_before_starting(tmp_path: Path):
    path = tmp_path / "names.bin"
    path.write_bytes(b"\xff\xfe\x00a")
    done = run_cli("train", "--steps", "1", "--dataset", str(path))
    assert done.returncode == 2
    assert f"{path}: looks like a binary file" in done.stderr
    assert "step" not in done.stdout
