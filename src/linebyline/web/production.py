"""Production mode (LINEBYLINE_PRODUCTION=1, or `linebyline serve --production`): the settings a
site serving the public must have, checked before anything starts, every problem named at once.
"""
from __future__ import annotations

from collections.abc import Mapping

MIN_SECRET_LENGTH = 50


def enabled(environ: Mapping[str, str]) -> bool:
    return environ.get("LINEBYLINE_PRODUCTION", "") == "1"


def problems(environ: Mapping[str, str]) -> list[str]:
    """What makes this configuration unsafe to serve the public with, each with what to do."""
    found = []
    if environ.get("LINEBYLINE_DEBUG", "") == "1":
        found.append("debug mode is on (LINEBYLINE_DEBUG=1): its error pages show settings and code "
                     "to whoever triggers an error. Unset LINEBYLINE_DEBUG.")
    key = environ.get("LINEBYLINE_SECRET_KEY", "")
    if not key:
        found.append(
            "LINEBYLINE_SECRET_KEY is not set, so each server would use a key generated in its own "
            "data folder: servers on other machines would disagree, and refuse each other's "
            "sessions and CSRF tokens. Set LINEBYLINE_SECRET_KEY to one long random value, the "
            "same on every server (python3 -c 'import secrets; print(secrets.token_urlsafe(50))').")
    elif len(key) < MIN_SECRET_LENGTH or len(set(key)) < 5 or key.startswith("django-insecure"):
        found.append(f"LINEBYLINE_SECRET_KEY is too weak: use at least {MIN_SECRET_LENGTH} random "
                     "characters (python3 -c 'import secrets; print(secrets.token_urlsafe(50))').")
    hosts = [h.strip() for h in environ.get("LINEBYLINE_ALLOWED_HOSTS", "").split(",") if h.strip()]
    if not hosts:
        found.append("LINEBYLINE_ALLOWED_HOSTS is not set: list the host names the site answers to, "
                     "e.g. LINEBYLINE_ALLOWED_HOSTS=course.example.org.")
    elif "*" in hosts:
        found.append("LINEBYLINE_ALLOWED_HOSTS contains '*', which lets any Host header in (and "
                     "with it poisoned links in password-reset mails). List the site's host names.")
    if not environ.get("LINEBYLINE_TRUSTED_PROXY", "").strip():
        found.append(
            "no HTTPS: `serve` speaks plain HTTP, so in production HTTPS comes from a reverse proxy "
            "in front (docs/deploy.md). Set LINEBYLINE_TRUSTED_PROXY to the proxy's address, so "
            "that the server knows which requests came over HTTPS; cookies are then sent over "
            "HTTPS only.")
    if environ.get("LINEBYLINE_RATE_LIMITS", "1") == "0":
        found.append("rate limits are off (LINEBYLINE_RATE_LIMITS=0, meant for load tests only). "
                     "Unset it.")
    return found


def refusal(found: list[str]) -> str:
    return ("production mode (LINEBYLINE_PRODUCTION=1) refuses this configuration:\n"
            + "\n".join(f"  - {problem}" for problem in found))
