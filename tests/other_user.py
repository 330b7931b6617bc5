"""Running `linebyline` as root, or as another user, in a folder and with settings of its own.

Learners run the CLI as ordinary users, and the sandbox must hold for them as well as for root.
The tests run as root in CI, so "another user" is `nobody`: it gets a folder of its own (home,
cache, config, the learner's file) and a Python it may run. The venv's Python may live where
`nobody` cannot go (a pyenv under /root); then a system Python of the same version runs the CLI,
with the venv's packages and this repository's src/ on PYTHONPATH (the worker finds its package
from its own path, as it does for every user).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "TZ")


class CliUser:
    """`linebyline ARGS` as one user, with its own home folder."""

    def __init__(self, python: str, home: Path, user: int | None) -> None:
        self.python, self.home, self.user = python, home, user

    def env(self, sandbox: str) -> dict[str, str]:
        env = {name: os.environ[name] for name in KEPT_ENV if name in os.environ}
        env.setdefault("PATH", "/usr/bin:/bin")
        env.update(HOME=str(self.home), LINEBYLINE_CACHE_DIR=str(self.home / "cache"),
                   LINEBYLINE_CONFIG_DIR=str(self.home / "config"), LINEBYLINE_SANDBOX=sandbox,
                   PYTHONPATH=os.pathsep.join([str(ROOT / "src"), sysconfig.get_paths()["purelib"]]))
        return env

    def write(self, name: str, text: str) -> Path:
        path = self.home / "work" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if self.user is not None:
            os.chown(path.parent, self.user, self.user)
            os.chown(path, self.user, self.user)
        return path

    def run(self, *args: str, sandbox: str = "auto", timeout: float = 120,
            extra_env: dict[str, str] | None = None,
            within: list[str] = ()) -> subprocess.CompletedProcess:
        """`linebyline ARGS`; `within` is a command it runs under (a bwrap ... --), if any."""
        who = {} if self.user is None else dict(user=self.user, group=self.user, extra_groups=[])
        return subprocess.run([*within, self.python, "-m", "linebyline", *args], capture_output=True,
                              text=True, cwd=self.home, env={**self.env(sandbox), **(extra_env or {})},
                              timeout=timeout, **who)


def python_for(user: int) -> str | None:
    """A Python of this version that `user` may run: this one, or the system's."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, shutil.which(f"python{version}"),
                      f"/usr/bin/python{version}", "/usr/bin/python3"):
        if not candidate or not os.path.exists(candidate):
            continue
        try:
            done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                                  capture_output=True, text=True, timeout=30, user=user,
                                  group=user, extra_groups=[])
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and done.stdout.strip() == str(sys.version_info[:2]):
            return candidate
    return None


def make_home(user: int | None) -> Path:
    """A folder of the user's own, that the user can reach (not under root's pytest folders)."""
    home = Path(tempfile.mkdtemp(prefix="linebyline-user-"))
    home.chmod(0o755)
    if user is not None:
        os.chown(home, user, user)
    return home
