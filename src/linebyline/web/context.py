"""Template context every page needs: where the browser code and Pyodide are served from."""
from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest
from django.templatetags.static import static
from django.urls import reverse

PYODIDE = Path(__file__).parent / "static" / "pyodide"
# The browser's title bar in the light and the dark theme: the icon's blue, and site.css's dark --bg.
THEME_COLORS = {"light": "#1d4ed8", "dark": "#15171b"}


@cache
def _pyodide_version() -> str:
    versions = sorted(p.name for p in PYODIDE.iterdir() if p.is_dir()) if PYODIDE.is_dir() else []
    return versions[-1] if versions else "missing"


def assets(request: HttpRequest | None) -> dict[str, object]:
    return {
        "worker_url": static("linebyline/dist/worker.js"),
        "pyodide_url": f"{settings.STATIC_URL}pyodide/{_pyodide_version()}/",
        "dataset_url": reverse("dataset"),
        "theme_colors": THEME_COLORS,
    }
