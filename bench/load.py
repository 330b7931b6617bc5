"""Requests per second and p50 / p99 latency of `linebyline serve`, on SQLite and PostgreSQL.

Starts its own server on 127.0.0.1 (a throwaway data folder; for PostgreSQL a throwaway
database), then drives it with keep-alive HTTP/1.1 connections from this process (asyncio), at
each concurrency for a fixed time:

  static file        a fingerprinted file WhiteNoise serves (the baseline: the least a request costs)
  lesson page        /lessons/7.5-backward/, gzip, a returning anonymous visitor (csrftoken cookie)
  lesson page 304    the same with If-None-Match: a repeat visit
  lesson, signed in  the same page for a signed-in learner (the very same page: the session is not read)
  events POST        POST /events/, one checked run: the write a learner's browser makes most
  progress sync      POST /api/progress/ for a signed-in learner: a lesson with a draft of a
                     lesson's size merged into the account's progress, the merge answered
                     (the same document every time: after the first, nothing changes to write)
  progress sync, each a write
                     the same, with a newer draft in every request: each merge is a commit
                     (what synchronous=FULL on SQLite costs shows here)
  static file, again the baseline once more, last: ratios are to the mean of its two figures, so
                     that a server's drift over the run favours no target

Rate limits are switched off in the server measured (LINEBYLINE_RATE_LIMITS=0): a load test from
one address would otherwise measure 429s. Figures depend on the machine; the ratios to the static
file, measured in the same run, carry over better. Nothing here fails on a time.

    .venv/bin/python bench/load.py                      # both databases, concurrency 1, 8, 32
    .venv/bin/python bench/load.py --databases sqlite --seconds 2 --concurrency 8
    .venv/bin/python bench/load.py --databases sqlite --only "progress sync"
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # only ever this machine
LESSON = "/lessons/7.5-backward/"
PG_URL = os.environ.get("LINEBYLINE_BENCH_PG", "postgres://linebyline:linebyline@127.0.0.1:5432/linebyline")
MAX_SECONDS = 30.0
MAX_CONCURRENCY = 256
PORT = [0]  # the port of the server being measured


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    expect: int = 200
    # When set, makes each request's body anew (so that every one can differ).
    body_of: Callable[[], bytes] | None = None

    def encoded(self) -> bytes:
        body = self.body_of() if self.body_of else self.body
        lines = [f"{self.method} {self.path} HTTP/1.1", f"Host: {HOST}:{PORT[0]}"]
        lines += [f"{name}: {value}" for name, value in self.headers.items()]
        if body or self.method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data: Path, database_url: str | None) -> None:
        self.port = free_port()
        env = {**os.environ, "LINEBYLINE_DATA_DIR": str(data), "LINEBYLINE_RATE_LIMITS": "0"}
        env.pop("LINEBYLINE_DATABASE_URL", None)
        if database_url:
            env["LINEBYLINE_DATABASE_URL"] = database_url
        self.env = env
        self.process = subprocess.Popen(
            [sys.executable, "-m", "linebyline", "serve", "--host", HOST, "--port", str(self.port)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if "is running at" in line:
                break
        else:
            raise SystemExit("the server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


async def one_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                      raw: bytes) -> tuple[int, dict[str, str], bytes]:
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = (part.strip() for part in line.split(":", 1))
            name = name.lower()
            headers[name] = f"{headers[name]}\n{value}" if name in headers else value
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return status, headers, body


async def fetch(request: Request) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection(HOST, PORT[0])
    try:
        return await one_request(reader, writer, request.encoded())
    finally:
        writer.close()


async def load(request: Request, concurrency: int, seconds: float) -> dict[str, float]:
    raw = request.encoded()
    latencies: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds

    async def connection() -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection(HOST, PORT[0])
        try:
            while time.perf_counter() < deadline:
                began = time.perf_counter()
                sent = request.encoded() if request.body_of else raw
                status, headers, _ = await one_request(reader, writer, sent)
                if headers.get("connection", "").lower() == "close":
                    # (waitress closes the connection after every 304: the reconnection is part
                    # of what a repeat visit costs, so it is timed)
                    writer.close()
                    reader, writer = await asyncio.open_connection(HOST, PORT[0])
                latencies.append(time.perf_counter() - began)
                if status != request.expect:
                    errors += 1
                    if errors == 1:
                        print(f"  (first unexpected status: {status}, wanted {request.expect})", flush=True)
        finally:
            writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(connection() for _ in range(concurrency)))
    elapsed = time.perf_counter() - began
    ordered = sorted(latencies)
    return {"rps": len(latencies) / elapsed, "p50": statistics.median(ordered) * 1000,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
            "n": len(latencies), "errors": errors}


def sign_in(server: Server) -> str:
    """A learner's session cookie: an account made with `manage`, signed in through the sign-in form."""
    password = secrets.token_urlsafe(16)
    subprocess.run([sys.executable, "-m", "linebyline", "manage", "createsuperuser", "--noinput",
                    "--username", "bench", "--email", "bench@example.org"], check=True, cwd=ROOT,
                   env={**server.env, "DJANGO_SUPERUSER_PASSWORD": password}, capture_output=True)

    async def go() -> str:
        status, headers, _ = await fetch(Request("GET", "/accounts/login/"))
        cookie = headers["set-cookie"].split(";")[0]
        token = cookie.split("=", 1)[1]
        form = f"login=bench&password={password}&csrfmiddlewaretoken={token}".encode()
        status, headers, _ = await fetch(Request("POST", "/accounts/login/", {
            "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"http://{HOST}:{PORT[0]}/accounts/login/"}, form, 302))
        assert status == 302, f"sign-in failed: {status}"
        session = re.search(r"sessionid=[^;]+", headers["set-cookie"])
        assert session, headers
        return session.group(0)

    return asyncio.run(go())


BASELINE = "static file"


def targets(server: Server) -> list[tuple[str, Request]]:
    async def prepare() -> tuple[str, str, str]:
        status, headers, body = await fetch(Request("GET", LESSON))
        assert status == 200, status
        cookie = headers["set-cookie"].split(";")[0]
        favicon = re.search(rb'href="(/static/linebyline/favicon[^"]*\.svg)"', body).group(1).decode()
        return cookie, headers["etag"], favicon

    cookie, etag, favicon = asyncio.run(prepare())
    token = cookie.split("=", 1)[1]
    session = sign_in(server)
    event = {"course": "microgpt", "browser": secrets.token_hex(16), "events": [{
        "lesson": "7.5", "kind": "check", "status": "fail", "checks": [
            {"name": "the example's gradients", "status": "pass", "message": ""},
            {"name": "a value used twice adds up", "status": "fail",
             "message": "x.grad is 3.0, expected 6.0: a value used twice gets both shares"}]}]}
    page = {"Accept-Encoding": "gzip, deflate, br", "Cookie": cookie}
    draft = (ROOT / "courses/microgpt/lessons").glob("7.5-*/starter.py")
    progress = {"format": "linebyline-progress", "version": 2, "course": "microgpt", "lessons": {
        "7.5": {"status": "in-progress", "hintsShown": 1, "draft": next(draft).read_text(),
                "draftAt": 1_700_000_000_000, "draftDevice": "b-bench"}}}
    edits = itertools.count(1)

    def newer_draft() -> bytes:
        number, lesson = next(edits), progress["lessons"]["7.5"]
        changed = {**lesson, "draft": f"{lesson['draft']}# edit {number}\n",
                   "draftAt": lesson["draftAt"] + number}
        return json.dumps({**progress, "lessons": {"7.5": changed}}).encode()

    write = {"X-CSRFToken": token, "Content-Type": "application/json", "Origin": f"http://{HOST}:{PORT[0]}"}
    return [
        ("static file", Request("GET", favicon, {"Accept-Encoding": "gzip"})),
        ("lesson page", Request("GET", LESSON, page)),
        ("lesson page 304", Request("GET", LESSON, {**page, "If-None-Match": etag}, expect=304)),
        ("lesson, signed in", Request("GET", LESSON, {**page, "Cookie": f"{cookie}; {session}"})),
        ("events POST", Request("POST", "/events/", {"Cookie": cookie, **write},
                                json.dumps(event).encode(), expect=201)),
        ("progress sync", Request("POST", "/api/progress/", {"Cookie": f"{cookie}; {session}", **write},
                                  json.dumps(progress).encode())),
        ("progress sync, each a write", Request("POST", "/api/progress/",
                                                {"Cookie": f"{cookie}; {session}", **write},
                                                body_of=newer_draft)),
    ]


def postgres_database() -> tuple[str, str]:
    import psycopg

    name = f"linebyline_bench_{os.getpid()}"
    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return urlparse(PG_URL)._replace(path=f"/{name}").geturl(), name


def drop_postgres(name: str) -> None:
    import psycopg

    with psycopg.connect(PG_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure(database: str, concurrencies: list[int], seconds: float, wanted: str) -> list[dict]:
    data = Path(tempfile.mkdtemp(prefix="linebyline-load-"))
    url, name = postgres_database() if database == "postgres" else (None, "")
    server = Server(data, url)
    PORT[0] = server.port
    rows = []
    try:
        chosen = [(label, request) for label, request in targets(server)
                  if label == "static file" or not wanted or label.startswith(wanted)]
        # The baseline again at the end: a server measured for a while runs a little slower or
        # faster than a fresh one, and the ratios are taken to the mean of both, not the first.
        chosen.append((f"{BASELINE}, again", chosen[0][1]))
        for label, request in chosen:
            asyncio.run(load(request, 4, 0.5))  # warm up: code paths, connections, caches
            for concurrency in concurrencies:
                figures = asyncio.run(load(request, concurrency, seconds))
                rows.append({"database": database, "target": label, "concurrency": concurrency, **figures})
                print(f"  {database:8} {label:28} c={concurrency:<3} {figures['rps']:8.0f} req/s  "
                      f"p50 {figures['p50']:6.1f} ms  p99 {figures['p99']:6.1f} ms"
                      + (f"  {figures['errors']} unexpected statuses" if figures["errors"] else ""),
                      flush=True)
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
        if name:
            drop_postgres(name)
    return rows


def table(rows: list[dict]) -> str:
    measured: dict[tuple[str, int], list[float]] = {}
    for r in rows:
        if r["target"].startswith(BASELINE):
            measured.setdefault((r["database"], r["concurrency"]), []).append(r["rps"])
    static = {key: statistics.mean(figures) for key, figures in measured.items()}
    lines = ["| database | target | concurrency | req/s | p50 ms | p99 ms | vs static (mean of both) |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        ratio = r["rps"] / static[(r["database"], r["concurrency"])]
        lines.append(f"| {r['database']} | {r['target']} | {r['concurrency']} | {r['rps']:,.0f} | "
                     f"{r['p50']:.1f} | {r['p99']:.1f} | {ratio:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--databases", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument("--concurrency", default="1,8,32", help="comma-separated (default 1,8,32)")
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement (default 3)")
    parser.add_argument("--only", default="", metavar="NAME",
                        help='only the targets whose name starts with NAME, e.g. "progress sync" '
                        "(and the static file, the baseline)")
    args = parser.parse_args()
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    if not 0 < args.seconds <= MAX_SECONDS or not all(0 < c <= MAX_CONCURRENCY for c in concurrencies):
        parser.error(f"--seconds must be in (0, {MAX_SECONDS}] and each concurrency in 1..{MAX_CONCURRENCY}")
    databases = [d.strip() for d in args.databases.split(",")]
    if set(databases) - {"sqlite", "postgres"}:
        parser.error("--databases takes sqlite and/or postgres")
    print(f"linebyline serve on {HOST}, {os.cpu_count()} CPUs, {args.seconds:g} s per figure", flush=True)
    rows = [row for database in databases
            for row in measure(database, concurrencies, args.seconds, args.only)]
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
