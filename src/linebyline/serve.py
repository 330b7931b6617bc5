"""`linebyline serve`: prepare the web app (database, static files) and serve it with waitress."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

WEB = Path(__file__).parent / "web"
BUILT = [WEB / "static" / "linebyline" / "dist" / "app.js", WEB / "static" / "pyodide"]


class ServeError(Exception):
    """The app cannot start; the message says why and what to do."""


def setup_django() -> None:
    # Always our settings (they read LINEBYLINE_* variables), whatever the environment says.
    os.environ["DJANGO_SETTINGS_MODULE"] = "linebyline.web.settings"
    import django

    django.setup()


def _static_fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted((WEB / "static").rglob("*")):
        if path.is_file():
            stat = path.stat()
            digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def prepare(verbose: bool = True) -> None:
    """Everything a first run needs: checks, migrations, collected static files."""
    missing = [str(path) for path in BUILT if not path.exists()]
    if missing:
        raise ServeError("the browser code is not built (missing: " + ", ".join(missing) + "). "
                         "Run `make start`, or `npm --prefix frontend ci && npm --prefix frontend "
                         "run build`.")
    setup_django()
    from django.conf import settings
    from django.core.management import call_command

    from .course import CourseErrors
    from .dataset import DatasetError, check_dataset
    from .web.pages import current

    try:
        check_dataset(settings.NAMES_FILE)
    except DatasetError as error:
        raise ServeError(f"the names file for the browser is unusable: {error}") from None
    try:
        current.get()
    except CourseErrors as errors:
        raise ServeError("the course has problems:\n" + "\n".join(f"  {e}" for e in errors.errors)
                         ) from None

    call_command("migrate", interactive=False, verbosity=0)
    stamp = Path(settings.STATIC_ROOT) / ".linebyline-build"
    fingerprint = _static_fingerprint()
    if not stamp.exists() or stamp.read_text() != fingerprint:
        if verbose:
            print("Preparing static files (only when they have changed)…", flush=True)
        call_command("collectstatic", interactive=False, clear=True, verbosity=0)
        stamp.write_text(fingerprint)


def serve(host: str, port: int) -> None:
    prepare()
    from waitress import serve as waitress_serve

    from .web.wsgi import application

    shown = f"[{host}]" if ":" in host else host
    print(f"linebyline is running at http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
    waitress_serve(application, host=host, port=port, threads=8, ident="linebyline",
                   _quiet=True)


def manage(arguments: list[str]) -> None:
    """Django's management commands (createsuperuser, migrate, …) with our settings."""
    setup_django()
    from django.core.management import execute_from_command_line

    execute_from_command_line(["linebyline manage", *arguments])

