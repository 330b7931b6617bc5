"""Log records as an operator wants them: one line per rejected request, no floods.

A rejected request (a 4xx: a bad Host header, a missing CSRF token, a page not found) is one
line, without the traceback Django attaches; a server error (5xx) keeps its traceback. Waitress
warns "Task queue depth is N" on every request that waits for a thread: under load that is tens
of thousands of lines, so it is let through at most once a minute, with a count of the rest.
"""
from __future__ import annotations

import logging
import threading
import time


class RequestLine(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        if getattr(record, "status_code", 500) < 500 and (record.exc_info or record.exc_text):
            record = logging.makeLogRecord(vars(record))
            record.exc_info = record.exc_text = None
            record.stack_info = None
        text = super().format(record)
        if getattr(record, "status_code", 500) < 500:
            text = text.replace("\r", "\\r").replace("\n", "\\n")  # one line, whatever it quotes
        return text


class AtMostEvery(logging.Filter):
    """Let a record through at most once every `seconds`; the next one says how many were held."""

    def __init__(self, seconds: float = 60.0) -> None:
        super().__init__()
        self.seconds = seconds
        self.last = float("-inf")
        self.held = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        with self.lock:
            now = time.monotonic()
            if now - self.last < self.seconds:
                self.held += 1
                return False
            if self.held:
                record.msg = (f"{record.getMessage()} ({self.held} more like this in the last "
                              f"{self.seconds:g} s)")
                record.args = ()
            self.last, self.held = now, 0
            return True
