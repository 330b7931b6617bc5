"""The terminal's link to a linebyline account: `linebyline login URL` keeps a personal token
(created on the account page) in the user's config folder, readable by them only; `check` then
records results to the account and `start` can write the latest draft from the browser.

Only the standard library talks to the server (urllib). Results the server cannot take right now
(offline, server down) wait in the config folder, merged, and go with the next check.

`check` asks current() on every run, signed in or not: urllib.request and the progress merge are
imported only when they are used, so that a check does not pay for HTTP (and TLS) it never uses.
"""
from __future__ import annotations

import json
import os
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TIMEOUT_S = 15
TOKEN_PREFIX = "lbl_"


class AccountError(Exception):
    """The account could not be reached or refused; the message says what to do."""


def config_dir() -> Path:
    """$LINEBYLINE_CONFIG_DIR, else $XDG_CONFIG_HOME/linebyline, else ~/.config/linebyline."""
    if os.environ.get("LINEBYLINE_CONFIG_DIR"):
        return Path(os.environ["LINEBYLINE_CONFIG_DIR"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "linebyline"


def _login_file() -> Path:
    return config_dir() / "login.json"


def _write_private(path: Path, text: str) -> None:
    """Write a file only its owner can read (0600), in a folder only they can enter (0700)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.urandom(4).hex()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


@dataclass
class Login:
    url: str
    token: str
    username: str
    device: str  # this terminal's device id in merged drafts ("cli-…")

    def request(self, method: str, path: str, body: dict | None = None) -> Any:
        import urllib.error
        import urllib.request

        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Authorization": f"Bearer {self.token}", "Accept": "application/json",
                     **({"Content-Type": "application/json"} if data is not None else {})})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            try:
                message = json.loads(error.read().decode("utf-8"))["error"]
            except (ValueError, KeyError, TypeError):
                message = f"the server answered {error.code}"
            raise AccountError(f"{self.url}: {message}") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise AccountError(f"{self.url} could not be reached ({reason})") from None
        return json.loads(raw.decode("utf-8")) if raw else None


def normal_url(url: str) -> str:
    parsed = urllib.parse.urlsplit(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise AccountError(f"{url!r} is not a server address like https://linebyline.example.org")
    return f"{parsed.scheme}://{parsed.netloc}{parsed.path.rstrip('/')}"


def log_in(url: str, token: str) -> Login:
    """Check the token with the server, then keep it (0600)."""
    token = token.strip()
    if not token.startswith(TOKEN_PREFIX):
        raise AccountError(f"a personal token starts with {TOKEN_PREFIX}; create one on your "
                           f"account page ({url}/accounts/#terminal)")
    previous = current()
    device = previous.device if previous else f"cli-{os.urandom(6).hex()}"
    login = Login(normal_url(url), token, "", device)
    login.username = login.request("GET", "/api/account/")["username"]
    _write_private(_login_file(), json.dumps(login.__dict__, indent=2))
    return login


def current() -> Login | None:
    """The saved login, or None (never signed in, or signed out)."""
    try:
        data = json.loads(_login_file().read_text(encoding="utf-8"))
        return Login(data["url"], data["token"], data["username"], data["device"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def log_out() -> tuple[Login | None, str | None]:
    """Revoke the token on the server (if it can be reached) and forget it here."""
    login = current()
    if login is None:
        return None, None
    problem = None
    try:
        login.request("DELETE", "/api/token/")
    except AccountError as error:
        problem = str(error)
    _login_file().unlink(missing_ok=True)
    return login, problem


def _pending_file(course: str) -> Path:
    return config_dir() / f"pending-{course}.json"


def record_check(login: Login, course: str, lesson: str, status: str, passed: int, total: int,
                 source: str) -> str:
    """Send one check's result (and the file, as this terminal's draft) to the account, with
    whatever earlier results are still waiting; on failure they all wait for the next check."""
    from . import progress_merge as pm

    now = int(time.time() * 1000)
    entry: dict[str, Any] = {"status": "done" if status == "pass" else "in-progress",
                             "checks": {"passed": passed, "total": total}, "quiz": {}}
    if status == "pass":
        entry["doneAt"] = now
    if pm.utf16_length(source) <= pm.MAX_DRAFT and pm.is_unicode(source):
        entry.update(draft=source, draftAt=now, draftDevice=login.device, draftBase={})
    lessons = {lesson: pm.read_lesson(entry, f"lesson {lesson}")}
    pending = _pending_file(course)
    try:
        _, waiting = pm.read_document(json.loads(pending.read_text(encoding="utf-8")), course)
        lessons = pm.merge(waiting, lessons)
    except (OSError, ValueError):
        pass  # nothing waiting (or unreadable: replaced by what is sent now)
    try:
        login.request("POST", "/api/progress/", pm.document(course, lessons))
    except AccountError:
        _write_private(pending, json.dumps(pm.document(course, lessons)))
        raise
    pending.unlink(missing_ok=True)
    return f"Recorded to {login.username}'s account at {login.url}."


def latest_draft(login: Login, course: str, lesson: str) -> dict | None:
    """The account's draft for a lesson ({draft, at, device}), or None if it has none."""
    from . import progress_merge as pm

    answer = login.request("GET", f"/api/progress/?course={urllib.parse.quote(course)}")
    _, lessons = pm.read_document(answer, course)
    versions = pm.versions_of(lessons.get(lesson, {}))
    return versions[0] if versions else None
