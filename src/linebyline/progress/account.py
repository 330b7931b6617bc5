"""The terminal's link to a linebyline account: `linebyline login URL` keeps a personal token
(created on the account page) in the user's config folder, readable by them only; `check` then
records results to the account and `start` can write the latest draft from the browser.

Only the standard library talks to the server (urllib). The progress itself lives on this machine
(local.py); sync.py merges it with the account's as the browser does, and what the server
cannot take right now (offline, server down) simply stays there and goes with the next sync.

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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .local import LocalProgress

TIMEOUT_S = 15
TOKEN_PREFIX = "lbl_"


class AccountError(Exception):
    """The account could not be reached or refused; the message says what to do. ``status`` is
    the HTTP status of a refusal (0: not reached); ``unknown``, lessons a 400 named."""

    def __init__(self, message: str, status: int = 0, unknown: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.unknown = status, list(unknown or [])


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
    seed: str = ""  # the account's quiz seed: choices in the same order as in its browsers

    def request(self, method: str, path: str, body: dict | None = None,
                timeout: float = TIMEOUT_S) -> Any:
        import urllib.error
        import urllib.request

        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Authorization": f"Bearer {self.token}", "Accept": "application/json",
                     **({"Content-Type": "application/json"} if data is not None else {})})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as error:
            try:
                answer = json.loads(error.read().decode("utf-8"))
                message = answer["error"]
            except (ValueError, KeyError, TypeError):
                answer, message = {}, f"the server answered {error.code}"
            unknown = answer.get("unknown") if isinstance(answer, dict) else None
            unknown = [n for n in unknown if isinstance(n, str)] if isinstance(unknown, list) else []
            raise AccountError(f"{self.url}: {message}", error.code, unknown) from None
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
    about = login.request("GET", "/api/account/")
    login.username = about["username"]
    login.seed = about.get("learnerSeed", "") if isinstance(about.get("learnerSeed"), str) else ""
    _write_private(_login_file(), json.dumps(login.__dict__, indent=2))
    return login


def quiz_seed(login: Login, timeout: float = 4.0) -> str:
    """The account's quiz seed; asked of the server once (a login from before it was kept)."""
    if login.seed:
        return login.seed
    try:
        seed = login.request("GET", "/api/account/", timeout=timeout).get("learnerSeed", "")
    except (AccountError, AttributeError, ValueError):
        return ""
    if isinstance(seed, str) and seed:
        login.seed = seed
        _write_private(_login_file(), json.dumps(login.__dict__, indent=2))
    return login.seed


def current() -> Login | None:
    """The saved login, or None (never signed in, or signed out)."""
    try:
        data = json.loads(_login_file().read_text(encoding="utf-8"))
        return Login(data["url"], data["token"], data["username"], data["device"],
                     data.get("seed", "") if isinstance(data.get("seed", ""), str) else "")
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


def adopt_pending(local: LocalProgress) -> None:
    """Results an older linebyline kept waiting in the config folder join this machine's
    progress (and so go with the next sync); the file goes once they are safely stored."""
    pending = _pending_file(local.course)
    if not pending.is_file():
        return
    from . import merge as pm

    try:
        _, waiting = pm.read_document(json.loads(pending.read_text(encoding="utf-8")),
                                      local.course)
    except (OSError, ValueError, RecursionError):
        return  # left where it is: never lost by this
    local.absorb(waiting)
    pending.unlink(missing_ok=True)


REFUSED_RETRY_MS = 24 * 3600 * 1000  # lessons a server refused are offered again a day later


def sync_state(local: LocalProgress, url: str) -> dict[str, Any]:
    state = local.notes().get("sync")
    state = state.get(url) if isinstance(state, dict) else None
    return state if isinstance(state, dict) else {}


def save_sync_state(local: LocalProgress, url: str, **changes: Any) -> None:
    with local.changing_notes() as notes:
        every = notes.get("sync") if isinstance(notes.get("sync"), dict) else {}
        state = every.get(url) if isinstance(every.get(url), dict) else {}
        state.update(changes)
        every[url] = state
        notes["sync"] = every


def refused_lessons(local: LocalProgress, url: str) -> dict[str, int]:
    """Lessons the server refused (not in its course), each with when: kept here, not resent
    until a day has passed."""
    refused = sync_state(local, url).get("refused")
    if not isinstance(refused, dict):
        return {}
    return {n: at for n, at in refused.items() if isinstance(at, int)
            and at + REFUSED_RETRY_MS > int(time.time() * 1000)}


def refuse_lessons(local: LocalProgress, url: str, numbers: list[str]) -> None:
    """Remember that the server at url lacks these lessons (from now, for a day)."""
    now = int(time.time() * 1000)
    save_sync_state(local, url, refused={**refused_lessons(local, url),
                                          **{n: now for n in numbers}})


def _lessons_named(numbers: list[str]) -> str:
    from .merge import number_order

    ordered = sorted(numbers, key=number_order)
    if len(ordered) == 1:
        return f"Lesson {ordered[0]}"
    return f"Lessons {', '.join(ordered[:-1])} and {ordered[-1]}"


def refused_note(login: Login, local: LocalProgress) -> str:
    """What to say about lessons kept here because the server's course lacks them ("" if none)."""
    refused = list(refused_lessons(local, login.url))
    if not refused:
        return ""
    return (f"{_lessons_named(refused)} stay{'s' if len(refused) == 1 else ''} on this machine: "
            f"the course at {login.url} does not have {'them' if len(refused) > 1 else 'it'} "
            "(tried again in a day).")


def last_problem(login: Login, local: LocalProgress) -> str:
    """Why the last sync failed ("" if it did not)."""
    problem = sync_state(local, login.url).get("problem")
    return problem if isinstance(problem, str) else ""
