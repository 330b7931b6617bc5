"""`linebyline serve`: prepare the web app (database, static files) and serve it with waitress.

On a loopback address (the default) only this machine can connect. On any other address the
server says which host names it answers to and how to add one, and it refuses to run in debug
mode, whose error pages show settings and code to whoever triggers them.

Waitress reads each request in full before a thread runs it, so slow clients do not hold
threads; what they can hold is connections. The limits below (many connections, short idle
timeouts, small request bodies) keep a few hundred slow clients from locking everyone out; a
reverse proxy in front does more (docs/deploy.md), and LINEBYLINE_TRUSTED_PROXY tells the server
to believe the client address and scheme it forwards.
"""
from __future__ import annotations

import hashlib
import ipaddress
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

WEB = Path(__file__).parents[1] / "web"
BUILT = [WEB / "static" / "linebyline" / "dist" / "app.js", WEB / "static" / "pyodide"]
DEFAULT_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
EVERY_ADDRESS = {"0.0.0.0", "::", ""}
THREADS = 8
CONNECTIONS = 1000  # open connections at most (each needs a file descriptor or more)
IDLE_TIMEOUT = 30  # seconds a connection may stay silent before it is closed
MAX_HEADERS = 64 * 1024  # bytes of request headers
MAX_BODY = 4 * 1024 * 1024  # bytes of a request body: feedback and admin forms are small


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

    from ..course import CourseErrors
    from ..course.dataset import DatasetError, check_dataset
    from ..web.pages import current

    try:
        check_dataset(settings.NAMES_FILE)
    except DatasetError as error:
        raise ServeError(f"the names file for the browser is unusable: {error}") from None
    try:
        current.get()
    except CourseErrors as errors:
        raise ServeError("the course has problems:\n" + "\n".join(f"  {e}" for e in errors.errors)
                         ) from None

    # Several servers may start at once on one database, or one data folder: one at a time
    # migrates, and one at a time collects the static files.
    with _database_lock():
        call_command("migrate", interactive=False, verbosity=0)
        call_command("createcachetable", verbosity=0)  # the cache rate limits share (settings.py)
    # Beside the static files, not among them: everything in STATIC_ROOT is served.
    stamp = Path(settings.BUILD_DIR) / "collected"
    stamp.parent.mkdir(exist_ok=True)
    with _file_lock(stamp.parent / "collect.lock"):
        fingerprint = _static_fingerprint()
        if not stamp.exists() or stamp.read_text() != fingerprint:
            if verbose:
                print("Preparing static files (only when they have changed)…", flush=True)
            call_command("collectstatic", interactive=False, clear=True, verbosity=0)
            stamp.write_text(fingerprint)


MIGRATION_LOCK = 0x6C62_7973  # a PostgreSQL advisory lock number of our own ("lbys")


@contextmanager
def _database_lock() -> Iterator[None]:
    """On PostgreSQL, hold an advisory lock (SQLite serialises writers by itself)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATION_LOCK])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATION_LOCK])


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # not on this system: one server per data folder there
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address) means this machine only."""
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    try:
        found = {info[4][0] for info in socket.getaddrinfo(name, None)}
    except OSError:
        return False
    return bool(found) and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in found)


def _this_machine() -> list[str]:
    """Names and the main address other machines most likely use to reach this one."""
    names = []
    for name in (socket.gethostname(), socket.getfqdn()):
        # Whatever the name means here (Debian points it at 127.0.1.1), it is what another
        # machine puts in its requests' Host header.
        if name and name not in names and name not in ("localhost", "localhost.localdomain"):
            names.append(name)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
            address = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback and address not in names:
            names.append(address)
    except OSError:
        pass
    return names


def allowed_hosts(host: str) -> tuple[list[str], bool]:
    """The host names the server answers to, and whether they come from LINEBYLINE_ALLOWED_HOSTS.

    Unless set there, they are worked out from the address served: on a loopback address the
    local names; on a specific address that address too; on every address (0.0.0.0, ::) also
    this machine's names and main address.
    """
    configured = os.environ.get("LINEBYLINE_ALLOWED_HOSTS")
    if configured:
        return [h.strip() for h in configured.split(",") if h.strip()], True
    hosts = list(DEFAULT_HOSTS)
    if host in EVERY_ADDRESS:
        hosts += _this_machine()
    elif not is_loopback(host):
        hosts.append(f"[{host}]" if ":" in host else host)
    return hosts, False


def check_debug(host: str) -> None:
    if os.environ.get("LINEBYLINE_DEBUG", "") == "1" and not is_loopback(host):
        raise ServeError(
            f"debug mode is on (LINEBYLINE_DEBUG=1) and {host or 'every address'} is not a "
            "loopback address: debug error pages show settings and code to anyone who triggers "
            "an error. Unset LINEBYLINE_DEBUG, or serve on 127.0.0.1.")


def _enough_file_descriptors() -> int:
    """Raise the soft limit on open files as far as allowed; how many connections it carries."""
    try:
        import resource
    except ImportError:  # not on this system: waitress's own default is safe
        return 100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = CONNECTIONS * 2 + 100
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return CONNECTIONS if soft == resource.RLIM_INFINITY else max(50, min(CONNECTIONS, (soft - 100) // 2))


def _proxy() -> dict[str, object]:
    """Behind a reverse proxy (LINEBYLINE_TRUSTED_PROXY: its address), believe what it says about
    the client: its address (per-address rate limits) and whether it came over HTTPS (CSRF)."""
    proxy = os.environ.get("LINEBYLINE_TRUSTED_PROXY", "").strip()
    if not proxy:
        return {}
    return {"trusted_proxy": proxy, "trusted_proxy_count": 1,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}}


def check_production() -> None:
    """In production mode, refuse an insecure configuration, naming every problem at once."""
    from ..web import production

    if production.enabled(os.environ):
        found = production.problems(os.environ)
        if found:
            raise ServeError(production.refusal(found))


def serve(host: str, port: int, production: bool = False) -> None:
    if production:
        os.environ["LINEBYLINE_PRODUCTION"] = "1"
    check_production()
    check_debug(host)
    hosts, configured = allowed_hosts(host)
    os.environ["LINEBYLINE_ALLOWED_HOSTS"] = ",".join(hosts)
    prepare()
    from waitress.server import create_server

    from ..web.wsgi import application

    # Listening before it says so: whoever waits for the line below can connect at once.
    server = create_server(
        application, host=host, port=port, threads=THREADS, ident="linebyline",
        connection_limit=_enough_file_descriptors(), channel_timeout=IDLE_TIMEOUT,
        cleanup_interval=max(1, IDLE_TIMEOUT // 3), asyncore_use_poll=True,
        max_request_header_size=MAX_HEADERS, max_request_body_size=MAX_BODY, **_proxy())
    shown = f"[{host}]" if ":" in host else host
    print(f"linebyline is running at http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
    if not is_loopback(host):
        where = "every address of this machine" if host in EVERY_ADDRESS else host
        source = "LINEBYLINE_ALLOWED_HOSTS" if configured else "worked out from the address"
        print(f"Listening on {where}, so other machines can connect. It answers requests for "
              f"these host names only ({source}): {', '.join(hosts)}.\n"
              f"To reach it under another name, add that name to the list, e.g.\n"
              f"  LINEBYLINE_ALLOWED_HOSTS={','.join(hosts)},NAME linebyline serve "
              f"--host {host or '0.0.0.0'}\n"
              "It serves plain HTTP: where others share the network, put a reverse proxy with "
              "HTTPS in front (see docs/deploy.md).", flush=True)
    try:
        server.run()
    finally:
        server.close()


def manage(arguments: list[str]) -> None:
    """Django's management commands (createsuperuser, migrate, …) with our settings."""
    setup_django()
    from django.core.management import execute_from_command_line

    execute_from_command_line(["linebyline manage", *arguments])

