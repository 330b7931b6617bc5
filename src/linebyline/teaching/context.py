"""Template context for the site header: whether to show the "Teach" link."""
from __future__ import annotations

from django.http import HttpRequest

from .access import can_teach


def teaching(request: HttpRequest) -> dict[str, object]:
    # A callable, so the database is asked only by a template that shows the link.
    return {"shows_teach_link": lambda: can_teach(request.user)}
