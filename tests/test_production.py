"""Production mode refuses an insecure configuration and names every problem; /healthz."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from linebyline.web.production import problems

GOOD = {"LINEBYLINE_SECRET_KEY": "k" * 30 + "abcdefghijklmnopqrstuvwxyz",
        "LINEBYLINE_ALLOWED_HOSTS": "course.example.org", "LINEBYLINE_TRUSTED_PROXY": "127.0.0.1"}


def test_a_complete_configuration_has_no_problem():
    assert problems(GOOD) == []


@pytest.mark.parametrize("change, named", [
    ({"LINEBYLINE_DEBUG": "1"}, "debug mode is on"),
    ({"LINEBYLINE_SECRET_KEY": ""}, "LINEBYLINE_SECRET_KEY is not set"),
    ({"LINEBYLINE_SECRET_KEY": "short"}, "LINEBYLINE_SECRET_KEY is too weak"),
    ({"LINEBYLINE_SECRET_KEY": "a" * 60}, "LINEBYLINE_SECRET_KEY is too weak"),
    ({"LINEBYLINE_SECRET_KEY": "django-insecure-" + "x1y2z3" * 10}, "LINEBYLINE_SECRET_KEY is too weak"),
    ({"LINEBYLINE_ALLOWED_HOSTS": ""}, "LINEBYLINE_ALLOWED_HOSTS is not set"),
    ({"LINEBYLINE_ALLOWED_HOSTS": "course.example.org, *"}, "contains '*'"),
    ({"LINEBYLINE_TRUSTED_PROXY": ""}, "no HTTPS"),
    ({"LINEBYLINE_RATE_LIMITS": "0"}, "rate limits are off"),
])
def test_each_insecure_setting_is_named(change, named):
    found = problems({**GOOD, **change})
    assert len(found) == 1 and named in found[0]


def run(*args: str, env: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("LINEBYLINE_")}
    return subprocess.run([sys.executable, "-m", "linebyline", *args], capture_output=True, text=True,
                          timeout=120, env={**clean, "LINEBYLINE_DATA_DIR": str(tmp_path), **env})


def test_serve_production_refuses_and_lists_every_problem(tmp_path):
    done = run("serve", "--production", "--host", "0.0.0.0", env={"LINEBYLINE_DEBUG": "1"}, tmp_path=tmp_path)
    assert done.returncode == 1
    assert "production mode (LINEBYLINE_PRODUCTION=1) refuses this configuration:" in done.stderr
    for named in ("debug mode is on", "LINEBYLINE_SECRET_KEY is not set",
                  "LINEBYLINE_ALLOWED_HOSTS is not set", "no HTTPS"):
        assert named in done.stderr
    assert not (tmp_path / "secret_key").exists()  # it stopped before making anything


def test_production_mode_guards_every_entry_point(tmp_path):
    done = run("manage", "check", env={"LINEBYLINE_PRODUCTION": "1", **GOOD, "LINEBYLINE_ALLOWED_HOSTS": "*"},
               tmp_path=tmp_path)
    assert done.returncode != 0 and "contains '*'" in done.stderr
    fine = run("manage", "check", env={"LINEBYLINE_PRODUCTION": "1", **GOOD}, tmp_path=tmp_path)
    assert fine.returncode == 0, fine.stderr


HEALTH = ("import json; from django.test import Client; r = Client(HTTP_HOST='localhost').get('/healthz'); "
          "print(json.dumps([r.status_code, r.json(), r['Cache-Control']]))")


def healthz(tmp_path, env: dict[str, str]) -> tuple[int, dict, str]:
    done = run("manage", "shell", "-c", HEALTH, env=env, tmp_path=tmp_path)
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def test_healthz_says_whether_the_database_answers(tmp_path):
    status, body, cache_control = healthz(tmp_path, {})
    assert (status, body) == (200, {"status": "ok", "database": "ok"}) and "no-store" in cache_control
    status, body, _ = healthz(tmp_path, {
        "LINEBYLINE_DATABASE_URL": "postgres://linebyline:secret@127.0.0.1:1/nowhere"})
    # 503, and nothing of the configuration (no address, no password) in the answer
    assert (status, body) == (503, {"status": "unavailable", "database": "unreachable"})
