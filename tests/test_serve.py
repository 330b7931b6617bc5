"""`linebyline serve` as an operator meets it: addresses, hosts, debug, files, logs, slow clients.

A real server in a child process, on every address (0.0.0.0), with a throwaway data folder.
"""
from __future__ import annotations

import http.client
import logging
import os
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from linebyline.web.logs import AtMostEvery, RequestLine

from .conftest import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, data: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.data, self.port = data, free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "linebyline", "serve", "--port", str(self.port), *args],
            env={**os.environ, "LINEBYLINE_DATA_DIR": str(data), **(env or {})},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self.said: list[str] = []
        self.logged: list[str] = []
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=self.logged.extend, args=(self.process.stderr,),
                         daemon=True).start()
        for line in self.process.stdout:
            self.said.append(line)
            if line.startswith("It serves plain HTTP") or "Ctrl+C" in line and "127.0.0.1" in line:
                break
        if not any("is running at" in line for line in self.said):
            self.stop()
            raise AssertionError("the server did not start:\n" + "".join(self.said))

    def get(self, path: str, host: str | None = None) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", path, headers={"Host": host or f"127.0.0.1:{self.port}"})
        response = connection.getresponse()
        response.read()
        connection.close()
        return response

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def everywhere(tmp_path_factory):
    data = tmp_path_factory.mktemp("served") / "data"
    served = Served(data, "--host", "0.0.0.0")
    yield served
    served.stop()


def test_on_every_address_it_says_which_hosts_it_answers_and_how_to_add_one(everywhere):
    said = "".join(everywhere.said)
    assert "Listening on every address of this machine" in said
    assert "It answers requests for these host names only (worked out from the address): " \
           f"localhost, 127.0.0.1, [::1], {socket.gethostname()}" in said
    assert "LINEBYLINE_ALLOWED_HOSTS=localhost,127.0.0.1,[::1]," in said and ",NAME " in said
    # Another machine asks for it by this machine's name: it answers.
    assert everywhere.get("/", host=f"{socket.gethostname()}:{everywhere.port}").status == 200
    assert everywhere.get("/", host="evil.example").status == 400


def test_on_loopback_it_says_nothing_more(everywhere):
    served = Served(everywhere.data)  # the same data: its static files are ready
    served.stop()  # it has said all it says before it serves
    assert [line for line in served.said if "Preparing" not in line] == [
        f"linebyline is running at http://127.0.0.1:{served.port}/  (Ctrl+C stops it)\n"]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.1", "::"])
def test_debug_mode_is_refused_off_loopback(tmp_path, host):
    done = subprocess.run([sys.executable, "-m", "linebyline", "serve", "--host", host],
                          env={**os.environ, "LINEBYLINE_DATA_DIR": str(tmp_path),
                               "LINEBYLINE_DEBUG": "1"},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "debug mode is on (LINEBYLINE_DEBUG=1)" in done.stderr
    assert "Unset LINEBYLINE_DEBUG, or serve on 127.0.0.1." in done.stderr


def test_the_data_folder_and_database_are_readable_by_their_owner_only(everywhere):
    assert stat.S_IMODE(everywhere.data.stat().st_mode) == 0o700
    for name in ("linebyline.sqlite3", "secret_key"):
        assert stat.S_IMODE((everywhere.data / name).stat().st_mode) == 0o600, name


def test_an_existing_open_data_folder_is_closed(tmp_path):
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    (data / "linebyline.sqlite3").write_bytes(b"")
    (data / "linebyline.sqlite3").chmod(0o644)
    subprocess.run([sys.executable, "-m", "linebyline", "manage", "check"], check=True,
                   env={**os.environ, "LINEBYLINE_DATA_DIR": str(data)}, capture_output=True,
                   timeout=60)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert stat.S_IMODE((data / "linebyline.sqlite3").stat().st_mode) == 0o600


def test_build_bookkeeping_is_not_served_but_the_files_are(everywhere):
    for path in ("/static/staticfiles.json", "/static/.linebyline-build",
                 "/static/build/collected", "/static/build/staticfiles.json"):
        assert everywhere.get(path).status == 404, path
    assert (everywhere.data / "build" / "staticfiles.json").is_file()
    assert everywhere.get("/static/linebyline/favicon.svg").status == 200


def test_pages_and_the_python_worker_carry_the_content_security_policy(everywhere):
    page = everywhere.get("/lessons/7.5-backward/")
    policy = page.getheader("Content-Security-Policy")
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self' 'wasm-unsafe-eval'"  # no inline script, no eval
    worker = everywhere.get("/static/linebyline/dist/worker.js")
    assert worker.status == 200 and worker.getheader("Content-Security-Policy") == policy


def test_slow_clients_do_not_lock_everyone_out(everywhere):
    """150 clients that send their headers a line at a time, for ever (slowloris)."""
    slow, stop = [], threading.Event()
    for _ in range(150):
        client = socket.create_connection(("127.0.0.1", everywhere.port), timeout=10)
        client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.append(client)

    talked = threading.Event()

    def trickle() -> None:
        while True:
            for client in slow:
                try:
                    client.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    pass
            talked.set()
            if stop.wait(1.0):
                return

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        assert talked.wait(30)  # the slow clients are all connected and talking
        assert everywhere.get("/").status == 200
        still_open = sum(1 for client in slow if _open(client))
        assert still_open == len(slow)  # served while every slow client still held its connection
    finally:
        stop.set()
        trickler.join()
        for client in slow:
            client.close()


def _open(client: socket.socket) -> bool:
    try:
        client.sendall(b"X-Still: 1\r\n")
        return True
    except OSError:
        return False


def test_a_rejected_request_is_one_line_in_the_log(everywhere):
    for _ in range(3):
        assert everywhere.get("/", host="bad.example").status == 400
    assert everywhere.get("/lessons/9.9-nothing/").status == 404
    deadline = time.monotonic() + 30  # the log lines are read in another thread: until all came
    while time.monotonic() < deadline and "9.9-nothing" not in "".join(everywhere.logged):
        time.sleep(0.05)
    log = "".join(everywhere.logged)
    assert "Traceback" not in log
    assert len([line for line in log.splitlines() if "bad.example" in line]) == 3
    assert len([line for line in log.splitlines() if "9.9-nothing" in line]) == 1


def test_request_lines_keep_tracebacks_for_server_errors_only():
    formatter = RequestLine("%(message)s")
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        import sys as _sys
        error = _sys.exc_info()
    rejected = logging.LogRecord("django.security", logging.ERROR, "", 0, "bad %s", ("x\ny",), error)
    rejected.status_code = 400
    assert formatter.format(rejected) == "bad x\\ny"
    failed = logging.LogRecord("django.request", logging.ERROR, "", 0, "failed", (), error)
    failed.status_code = 500
    assert "Traceback" in formatter.format(failed)


def test_queue_depth_warnings_are_let_through_once_a_minute_with_a_count():
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger = logging.getLogger("linebyline.test.queue")
    logger.propagate = False
    logger.addHandler(handler)
    gate = AtMostEvery(seconds=60)
    logger.addFilter(gate)
    for depth in range(1, 10_001):
        logger.warning("Task queue depth is %d", depth)
    assert seen == ["Task queue depth is 1"]
    gate.last -= 61  # a minute later
    logger.warning("Task queue depth is %d", 3)
    assert seen[-1] == "Task queue depth is 3 (9999 more like this in the last 60 s)"


def post_feedback_over_https(served: Served) -> int:
    """Feedback as a browser on https://… behind a proxy sends it; the HTTP status."""
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    connection.request("GET", "/lessons/7.5-backward/", headers={"Host": "127.0.0.1"})
    page = connection.getresponse()
    page.read()
    cookie = page.getheader("Set-Cookie").split(";")[0]
    token = cookie.removeprefix("csrftoken=")  # the page is the same for all: the token is in the cookie
    connection.request("POST", "/feedback/7.5/", body=f"clear=yes&comment=&csrfmiddlewaretoken={token}",
                       headers={"Host": "127.0.0.1", "Origin": "https://127.0.0.1",
                                "Referer": "https://127.0.0.1/lessons/7.5-backward/",
                                "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9",
                                "Cookie": cookie, "Accept": "application/json",
                                "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def test_behind_a_trusted_proxy_https_forms_work_and_untrusted_headers_are_ignored(everywhere):
    assert post_feedback_over_https(everywhere) == 403  # no proxy trusted: the page seems http
    proxied = Served(everywhere.data, env={"LINEBYLINE_TRUSTED_PROXY": "127.0.0.1"})
    try:
        assert post_feedback_over_https(proxied) == 201
    finally:
        proxied.stop()


def test_the_settings_put_the_gate_on_waitress_queue_warnings(settings):
    # pytest-django has applied the settings' LOGGING, as `serve` does.
    assert any(isinstance(f, AtMostEvery) for f in logging.getLogger("waitress.queue").filters)
    formatters = {type(h.formatter) for h in logging.getLogger("django").handlers}
    assert formatters == {RequestLine}
