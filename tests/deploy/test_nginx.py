"""The documented deployment, run for real: Debian's nginx with deploy/nginx.conf (HTTPS with a
certificate made here) in front of two `linebyline serve --production` processes on one fresh
PostgreSQL database.

What one process writes the other reads (a learner's progress, feedback, events, a session, rate
limits); static files and Pyodide come from nginx, cached as immutable, even with both app
processes stopped; and a real browser runs Python from files nginx served.
"""
from __future__ import annotations

import gzip
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

from linebyline.web.headers import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PG_URL = os.environ.get("LINEBYLINE_TEST_PG", "postgres://linebyline:linebyline@127.0.0.1:5432/linebyline")
LESSON = "/lessons/7.5-backward/"
CLIENT = "203.0.113.7"  # the learner's address, as nginx forwards it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    def header(self, name: str) -> str:
        return self.headers.get(name, "")

    def cookies(self) -> dict[str, str]:
        found = {}
        for line in self.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            found[name] = rest.split(";")[0]
        return found

    def text(self) -> str:
        body = gzip.decompress(self.body) if self.header("Content-Encoding") == "gzip" else self.body
        return body.decode()


@dataclass
class Browser:
    """Cookies and headers of one visitor, talking to one address."""

    connect: object  # () -> HTTPConnection
    origin: str
    extra: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> Response:
        connection = self.connect()
        sent = {"Host": urlparse(self.origin).netloc, **self.extra, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            sent.setdefault("Origin", self.origin)
            sent.setdefault("Referer", self.origin + LESSON)
            sent["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        connection.request(method, path, body=body, headers=sent)
        raw = connection.getresponse()
        response = Response(raw.status, raw.headers, raw.read())
        connection.close()
        self.cookies.update(response.cookies())
        return response

    def get(self, path: str, **headers: str) -> Response:
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, fields: dict[str, str]) -> Response:
        body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded",
                                                 "Accept": "application/json"})

    def post_json(self, path: str, data: object) -> Response:
        return self.request("POST", path, json.dumps(data).encode(), {"Content-Type": "application/json"})


class App:
    def __init__(self, port: int, env: dict[str, str]) -> None:
        self.port = port
        self.process = subprocess.Popen(
            [sys.executable, "-m", "linebyline", "serve", "--production", "--port", str(port)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        self.said: list[str] = []

    def wait(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.said.append(line)
            if "is running at" in line:
                threading.Thread(target=self.process.stdout.read, daemon=True).start()  # keep draining
                return
        raise AssertionError(f"app on {self.port} did not start:\n" + "".join(self.said))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def readable_dir(prefix: str) -> Path:
    """A folder nginx's workers (www-data) can read: /tmp's pytest folders are owner-only."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    return path


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    import psycopg

    name = f"linebyline_deploy_{secrets.token_hex(4)}"
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield urlparse(PG_URL)._replace(path=f"/{name}").geturl()
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Deployment:
    apps: list[App]
    https_port: int
    http_port: int
    certificate: Path
    access_log: Path
    env: dict[str, str]

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.https_port}"

    def through_nginx(self) -> Browser:
        context = ssl.create_default_context(cafile=str(self.certificate))
        return Browser(lambda: http.client.HTTPSConnection("localhost", self.https_port, timeout=30,
                                                           context=context), self.origin)

    def straight_to(self, app: App, cookies: dict[str, str] | None = None, client: str = CLIENT) -> Browser:
        """Talk to one app process as nginx does: the visitor's address and scheme forwarded."""
        return Browser(lambda: http.client.HTTPConnection("127.0.0.1", app.port, timeout=30), self.origin,
                       {"X-Forwarded-Proto": "https", "X-Forwarded-For": client}, dict(cookies or {}))


def site_for_test(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        assert old in text, f"deploy/nginx.conf no longer contains {old!r}: update this test with it"
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def deployment(database) -> Iterator[Deployment]:
    assert Path(NGINX).exists(), "nginx is needed (scripts/system-deps.sh installs Debian's)"
    work = readable_dir("linebyline-deploy-")
    static, data, nginx_dir = work / "static", work / "data", work / "nginx"
    nginx_dir.mkdir()
    certificate, key = nginx_dir / "cert.pem", nginx_dir / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    ports = [free_port(), free_port()]
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("LINEBYLINE_")},
           "LINEBYLINE_DATA_DIR": str(data), "LINEBYLINE_STATIC_ROOT": str(static),
           "LINEBYLINE_DATABASE_URL": database, "LINEBYLINE_SECRET_KEY": secrets.token_urlsafe(50),
           "LINEBYLINE_ALLOWED_HOSTS": "localhost", "LINEBYLINE_TRUSTED_PROXY": "127.0.0.1"}
    # Both at once on an empty database: one migrates while the other waits for it.
    apps = [App(port, env) for port in ports]
    try:
        for app in apps:
            app.wait()
        https_port, http_port = free_port(), free_port()
        site = site_for_test(SITE.read_text(), {
            "server 127.0.0.1:8001;": f"server 127.0.0.1:{ports[0]};",
            "server 127.0.0.1:8002;": f"server 127.0.0.1:{ports[1]};",
            "listen 80;": f"listen 127.0.0.1:{http_port};", "listen [::]:80;": "",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
            "listen [::]:443 ssl http2;": "",
            "server_name course.example.org;": "server_name localhost;",
            "/etc/letsencrypt/live/course.example.org/fullchain.pem": str(certificate),
            "/etc/letsencrypt/live/course.example.org/privkey.pem": str(key),
            "alias /srv/linebyline/static/;": f"alias {static}/;",
        })
        (nginx_dir / "site.conf").write_text(site)
        access_log = nginx_dir / "access.log"
        (nginx_dir / "nginx.conf").write_text(
            ("user www-data;\n" if os.geteuid() == 0 else "")
            + f"pid {nginx_dir}/nginx.pid;\nworker_processes 1;\nevents {{}}\nhttp {{\n"
            f"  log_format upstream '$request_method $uri $status upstream=$upstream_addr';\n"
            f"  access_log {access_log} upstream;\n"
            f"  client_body_temp_path {nginx_dir}/body; proxy_temp_path {nginx_dir}/proxy;\n"
            f"  fastcgi_temp_path {nginx_dir}/fastcgi; uwsgi_temp_path {nginx_dir}/uwsgi;\n"
            f"  scgi_temp_path {nginx_dir}/scgi;\n  include {nginx_dir}/site.conf;\n}}\n")
        command = [NGINX, "-p", str(nginx_dir), "-c", str(nginx_dir / "nginx.conf"),
                   "-e", str(nginx_dir / "error.log")]
        tested = subprocess.run(command + ["-t"], capture_output=True, text=True)
        assert tested.returncode == 0, tested.stderr
        nginx = subprocess.Popen(command + ["-g", "daemon off;"], stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(100):
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", https_port)) == 0:
                        break
                time.sleep(0.1)
            yield Deployment(apps, https_port, http_port, certificate, access_log, env)
        finally:
            nginx.terminate()
            nginx.wait(timeout=30)
    finally:
        for app in apps:
            if app.process.poll() is None:
                app.stop()
        shutil.rmtree(work, ignore_errors=True)


def test_it_answers_over_https_only_with_the_apps_headers(deployment):
    browser = deployment.through_nginx()
    health = browser.get("/healthz")
    assert health.status == 200 and json.loads(health.body) == {"status": "ok", "database": "ok"}
    page = browser.get(LESSON, **{"Accept-Encoding": "gzip"})
    assert page.status == 200 and "backward()" in page.text()
    assert page.header("Content-Security-Policy") == CONTENT_SECURITY_POLICY
    assert page.header("Strict-Transport-Security") == "max-age=31536000"
    assert "Secure" in page.headers.get("Set-Cookie")  # production mode: cookies over HTTPS only
    plain = http.client.HTTPConnection("127.0.0.1", deployment.http_port, timeout=10)
    plain.request("GET", LESSON, headers={"Host": "localhost"})
    moved = plain.getresponse()
    assert moved.status == 301 and moved.getheader("Location") == f"https://localhost{LESSON}"


def test_what_one_process_writes_the_other_reads(deployment, course):
    first, second = deployment.apps
    anonymous = deployment.straight_to(first)
    assert anonymous.get(LESSON).status == 200
    feedback = {"clear": "no", "comment": "written+through+the+first"}
    assert anonymous.post_form("/feedback/7.5/", feedback).status == 201
    names = course.lesson("7.5").exercise.check_names
    event = {"course": "microgpt", "browser": "c" * 32, "events": [{
        "lesson": "7.5", "kind": "check", "status": "fail", "checks": [
            {"name": names[0], "status": "fail", "message": "sent through the first process"}]}]}
    assert anonymous.post_json("/events/", event).status == 201

    password = secrets.token_urlsafe(16)
    subprocess.run([sys.executable, "-m", "linebyline", "manage", "createsuperuser", "--noinput",
                    "--username", "staff", "--email", "staff@example.org"], check=True,
                   capture_output=True, env={**deployment.env, "LINEBYLINE_PRODUCTION": "1",
                                             "DJANGO_SUPERUSER_PASSWORD": password})
    staff = deployment.straight_to(first)
    staff.get("/accounts/login/")
    signed_in = staff.post_form("/accounts/login/", {
        "login": "staff", "password": password, "next": "/admin/",
        "csrfmiddlewaretoken": staff.cookies["csrftoken"]})
    # Asked for JSON (as this client does), allauth answers where it would redirect to.
    assert signed_in.status == 200 and json.loads(signed_in.body)["location"] == "/admin/"
    assert "sessionid" in staff.cookies

    progress = {"format": "linebyline-progress", "version": 2, "course": "microgpt",
                "lessons": {"7.4": {"status": "done", "doneAt": 1_700_000_000_000}}}
    synced = staff.post_json("/api/progress/", progress)
    assert synced.status == 200, synced.body

    # The session made by the first process works on the second, which sees what the first stored.
    on_second = deployment.straight_to(second, staff.cookies)
    page = on_second.get("/teach/everyone/lessons/7.5/")
    assert page.status == 200
    assert "written through the first" in page.text() and "sent through the first process" in page.text()
    read = on_second.get("/api/progress/?course=microgpt")
    assert read.status == 200 and json.loads(read.text())["lessons"]["7.4"]["status"] == "done"


def test_rate_limits_are_counted_across_processes(deployment):
    first, second = deployment.apps
    visitor = {"csrftoken": deployment.straight_to(first).get(LESSON).cookies()["csrftoken"]}
    statuses = []
    one_learner = {"clear": "yes", "browser": "d" * 32}
    for index in range(22):  # feedback allows 20 an hour per learner, whichever process answers
        browser = deployment.straight_to((first, second)[index % 2], visitor, client="198.51.100.4")
        statuses.append(browser.post_form("/feedback/7.4/", one_learner).status)
    assert statuses == [201] * 20 + [429] * 2
    other = deployment.straight_to(second, visitor, client="198.51.100.4")  # another learner there
    assert other.post_form("/feedback/7.4/", {"clear": "yes", "browser": "e" * 32}).status == 201


def test_both_processes_give_a_lesson_the_same_etag(deployment):
    first, second = deployment.apps
    tag = deployment.straight_to(first).get(LESSON).header("ETag")
    assert tag and deployment.straight_to(second).get(LESSON).header("ETag") == tag
    assert deployment.straight_to(second).get(LESSON, **{"If-None-Match": tag}).status == 304
    assert deployment.through_nginx().get(LESSON, **{"If-None-Match": tag}).status == 304


def static_urls(deployment: Deployment) -> dict[str, str]:
    page = deployment.through_nginx().get(LESSON).text()
    pyodide = re.search(r'data-pyodide-url="([^"]+)"', page).group(1)
    return {"app": re.search(r'src="(/static/linebyline/dist/app\.[0-9a-f]{12}\.js)"', page).group(1),
            "worker": re.search(r'data-worker-url="([^"]+)"', page).group(1),
            "pyodide module": pyodide + "pyodide.mjs", "pyodide wasm": pyodide + "pyodide.asm.wasm",
            "stdlib": pyodide + "python_stdlib.zip"}


def assert_served_by_nginx_as_immutable(deployment: Deployment, urls: dict[str, str]) -> None:
    browser = deployment.through_nginx()
    for what, url in urls.items():
        response = browser.get(url, **{"Accept-Encoding": "gzip"})
        assert response.status == 200, (what, url)
        assert response.header("Cache-Control") == "public, max-age=31536000, immutable", what
        assert response.header("Cross-Origin-Embedder-Policy") == "require-corp", what
        assert response.header("Content-Security-Policy") == CONTENT_SECURITY_POLICY, what
        assert response.header("Server").startswith("nginx"), what
    types = {what: browser.get(url).header("Content-Type") for what, url in urls.items()}
    assert types["pyodide module"] == types["app"] == "application/javascript"
    assert types["pyodide wasm"] == "application/wasm"
    assert browser.get(urls["app"], **{"Accept-Encoding": "gzip"}).header("Content-Encoding") == "gzip"


def test_static_files_and_pyodide_come_from_nginx_as_immutable(deployment):
    urls = static_urls(deployment)
    assert_served_by_nginx_as_immutable(deployment, urls)
    changing = deployment.through_nginx().get("/static/linebyline/favicon.svg")
    assert changing.status == 200 and changing.header("Cache-Control") == "public, max-age=60"
    log = deployment.access_log.read_text().splitlines()
    static = [line for line in log if " /static/" in line]
    assert static and all(line.endswith("upstream=-") for line in static)  # no app process asked
    pages = [line for line in log if f" {LESSON} 200 " in line or f" {LESSON} 304 " in line]
    assert pages and all(re.search(r"upstream=127\.0\.0\.1:\d+$", line) for line in pages)


@pytest.mark.browser
def test_a_learner_runs_python_from_files_nginx_served(deployment, browser):
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(deployment.origin + LESSON)
        page.wait_for_selector('[data-python-status][data-state="ready"]', timeout=120_000)
        assert page.evaluate("crossOriginIsolated") is True  # what the Stop button needs
        # The check's events go in a batch a moment later, through nginx to an app process.
        with page.expect_response(lambda answer: answer.url.endswith("/events/"),
                                  timeout=60_000) as sent:
            page.click('[data-action="check"]')
            page.wait_for_selector('[data-checks-summary][data-status]', timeout=60_000)
        assert sent.value.status == 201
    finally:
        context.close()
    logged = re.compile(r"POST /events/ 201 upstream=127\.0\.0\.1:\d+")
    deadline = time.monotonic() + 10  # nginx writes its log line as the answer goes
    while not logged.search(log := deployment.access_log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert logged.search(log)
    assert re.search(r"GET /static/pyodide/[^ ]+/pyodide\.asm\.wasm 200 upstream=-", log)


def test_with_both_apps_stopped_nginx_still_serves_static_files(deployment):
    urls = static_urls(deployment)
    for app in deployment.apps:
        app.stop()
    assert_served_by_nginx_as_immutable(deployment, urls)
    assert deployment.through_nginx().get(LESSON).status == 502
