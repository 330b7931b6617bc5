"""Where a command's words go: rich on a terminal (colour, Markdown, a pager), plain text
elsewhere (a pipe, a file, an editor running `check`), so that a log reads the same as the screen
without its colours. rich honours NO_COLOR, and is imported only when a terminal is there."""
from __future__ import annotations

import os
import sys
from typing import Any, TextIO

STYLES = {"pass": "bold green", "fail": "bold red", "error": "bold red", "note": "dim",
          "not-attempted": "yellow", "title": "bold", "code": "cyan", "warn": "yellow"}


class Screen:
    """Lines, styled when the stream is a terminal. ``rich`` is loaded on first use."""

    def __init__(self, stream: TextIO | None = None, force_plain: bool = False) -> None:
        self.stream = stream or sys.stdout
        self.rich = not force_plain and _is_terminal(self.stream)
        self._console: Any = None

    @property
    def console(self) -> Any:
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.stream, highlight=False, soft_wrap=False)
        return self._console

    def line(self, text: str = "", style: str = "") -> None:
        """One line of plain text (never read as markup), in `style` on a terminal."""
        if not self.rich:
            print(text, file=self.stream)
            return
        from rich.text import Text

        self.console.print(Text(text, style=STYLES.get(style, style)), soft_wrap=True)

    def wrapped(self, text: str, indent: int, style: str = "") -> None:
        """A paragraph, wrapped to the terminal's width under its indentation (plain: as is)."""
        if not self.rich:
            print(" " * indent + text, file=self.stream)
            return
        from rich.padding import Padding
        from rich.text import Text

        self.console.print(Padding(Text(text, style=STYLES.get(style, style)),
                                   (0, 0, 0, indent)))

    def markdown(self, text: str, indent: int = 0) -> None:
        """Markdown, rendered on a terminal; as written (it reads well as it is) elsewhere."""
        if not self.rich:
            pad = " " * indent
            print("\n".join(pad + line if line else "" for line in text.strip().splitlines()),
                  file=self.stream)
            return
        from rich.markdown import Markdown
        from rich.padding import Padding

        self.console.print(Padding(Markdown(text, code_theme="ansi_dark"), (0, 0, 0, indent)))

    def code(self, text: str) -> None:
        if not self.rich:
            print(text.rstrip("\n"), file=self.stream)
            return
        from rich.syntax import Syntax

        self.console.print(Syntax(text.rstrip("\n"), "python", theme="ansi_dark",
                                  line_numbers=True, word_wrap=True))

    def clear(self) -> None:
        if self.rich:
            self.console.clear()

    def pager(self) -> Any:
        """A context in which everything printed goes through a pager, when on a terminal whose
        reader can page (rich uses $PAGER, as `less` and `git` do). Unless the learner set LESS,
        less is told what git tells it: show colours (R), and quit when the text fits on one
        screen (F) without clearing it (X), so only long text is paged."""
        import contextlib

        if not self.rich or not sys.stdin.isatty():
            return contextlib.nullcontext()
        os.environ.setdefault("LESS", "FRX")
        return self.console.pager(styles=True)

    def ask(self, prompt: str) -> str | None:
        """One line typed by the learner; None at the end of input (no terminal, Ctrl-D)."""
        try:
            return input(prompt)
        except EOFError:
            print(file=self.stream)
            return None


def _is_terminal(stream: TextIO) -> bool:
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
