"""token-strip (1.5, 1.6): the vocabulary as a row of ids (each character, then BOS), and a name
typed by the learner turned into its ids, with toggles that show classic mistakes.

The lesson's compute sets ``data = {"chars": chars, "BOS": BOS, "vocab_size": vocab_size}`` from
the solution's own lines; the widget works every id out from that list and what the learner types.
"""
from __future__ import annotations

from typing import Any

from ..fields import Fields
from . import _common

KIND = "token-strip"
# The mistakes the widget knows how to show (the lesson picks which ones it offers).
MISTAKES = {
    "bos-zero": "BOS = 0",
    "bos-last-letter": "BOS = len(chars) - 1",
    "bos-gap": "BOS = len(chars) + 1",
    "vocab-without-bos": "vocab_size = len(chars)",
    "bos-start-only": "BOS only at the start",
    "bos-end-only": "BOS only at the end",
    "ids-from-one": "chars.index(ch) + 1",
    "ord": "ord(ch) - ord('a')",
}
ENCODING_MISTAKES = {"bos-start-only", "bos-end-only", "ids-from-one", "ord"}


def validate(params: Fields) -> None:
    params.only("encode", "name", "mistakes", "caption")
    encode = params.get("encode", bool, False)
    name = params.get("name", str, None)
    if name is not None and not encode:
        params.error("`name` is the name typed in at first: it needs `encode: true`", "name")
    if name is not None and len(name) > 16:
        params.error("`name` must be at most 16 characters", "name")
    mistakes = _common.known_list(params, "mistakes", MISTAKES)
    for index, mistake in enumerate(mistakes):
        if mistake in ENCODING_MISTAKES and not encode:
            line = mistakes.line_of(index) if hasattr(mistakes, "line_of") else None
            params.error(f"mistake {mistake!r} shows how a name is encoded: it needs "
                         "`encode: true`", line=line)
    if len(set(mistakes)) != len(mistakes):
        params.error("a mistake is listed twice", "mistakes")
    _common.texts(params, "caption")


def check_data(data: Any) -> str | None:
    if not isinstance(data, dict) or set(data) != {"chars", "BOS", "vocab_size"}:
        return "it must be a dict with exactly the keys chars, BOS and vocab_size"
    chars, bos, size = data["chars"], data["BOS"], data["vocab_size"]
    if not isinstance(chars, list) or not chars:
        return "`chars` must be a non-empty list"
    if not all(isinstance(ch, str) and len(ch) == 1 for ch in chars):
        return "`chars` must hold single characters"
    if len(set(chars)) != len(chars) or chars != sorted(chars):
        return "`chars` must hold each character once, sorted"
    if isinstance(bos, bool) or bos != len(chars):
        return f"`BOS` must be len(chars) = {len(chars)}, not {bos!r}"
    if isinstance(size, bool) or size != len(chars) + 1:
        return f"`vocab_size` must be len(chars) + 1 = {len(chars) + 1}, not {size!r}"
    return None
