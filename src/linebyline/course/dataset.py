"""The data sets a script trains on: the bundled names file, or any one-document-per-line file."""
from __future__ import annotations

import os
from pathlib import Path

BUNDLED_NAMES = Path(__file__).parents[1] / "data" / "names.txt"


def names_file() -> Path:
    """The file learner code reads as input.txt: $LINEBYLINE_NAMES_FILE, else the bundled names."""
    return Path(os.environ.get("LINEBYLINE_NAMES_FILE") or BUNDLED_NAMES)


class DatasetError(Exception):
    """A data file that cannot be trained on; the message names the file and the problem."""


def check_dataset(path: Path) -> int:
    """Make sure ``path`` is a non-empty UTF-8 text file; return how many documents it holds."""
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"{path}: no such file")
    if path.is_dir():
        raise DatasetError(f"{path}: is a folder, not a text file with one document per line")
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise DatasetError(f"{path}: cannot be read ({error.strerror})") from None
    if not raw:
        raise DatasetError(f"{path}: is empty; a data set needs one document (e.g. a name) per line")
    if b"\0" in raw[:65536]:
        raise DatasetError(f"{path}: looks like a binary file (it contains NUL bytes), not text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise DatasetError(
            f"{path}: is not UTF-8 text (byte 0x{raw[error.start]:02x} on line {line}); "
            "save it as UTF-8 and try again"
        ) from None
    documents = sum(1 for line in text.splitlines() if line.strip())
    if documents == 0:
        raise DatasetError(f"{path}: holds only blank lines; a data set needs one document per line")
    return documents
