"""Progress of long work: tqdm's bar when stderr is a terminal; into a pipe or a log file, a
plain line now and then instead (a bar redraws itself with carriage returns, which a log would
keep, every one of them)."""
from __future__ import annotations

import sys
import time
from typing import Any


class _Lines:
    """What a bar would show, as lines: at most one every `every_s` seconds, and the last."""

    def __init__(self, total: int, desc: str, every_s: float) -> None:
        self.total, self.desc, self.every_s = total, desc, every_s
        self.n = 0
        self._said = 0.0
        self._said_n = 0

    def update(self, steps: int = 1) -> None:
        self.n += steps
        now = time.monotonic()
        if self.n >= self.total or now - self._said >= self.every_s:
            self._say(now)

    def _say(self, now: float) -> None:
        if self.n != self._said_n:
            label = f"{self.desc}: " if self.desc else ""
            print(f"{label}{self.n}/{self.total} steps", file=sys.stderr, flush=True)
            self._said, self._said_n = now, self.n

    def set_postfix(self, **_: Any) -> None:
        """The bar's loss; the lines on stdout carry it already."""

    @staticmethod
    def write(text: str) -> None:
        print(text, flush=True)

    def close(self) -> None:
        """Nothing stays on screen to take away."""

    def __enter__(self) -> _Lines:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def progress(total: int, desc: str = "", every_s: float = 10.0, leave: bool = True) -> Any:
    """A bar on a terminal; lines elsewhere (each step when `every_s` is 0)."""
    if sys.stderr.isatty():
        from tqdm import tqdm

        return tqdm(total=total, unit="step", desc=desc or None, file=sys.stderr, leave=leave)
    return _Lines(total, desc, every_s)
