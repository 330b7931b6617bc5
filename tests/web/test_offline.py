"""What the service worker keeps (web/offline.py), /sw.js, the app manifest, /api/account/ for a
visitor without a session, and My microgpt's assembly in the browser from the course as data."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from linebyline.mine.assemble import Assembler, PlainCourse, Work, plain_course, progress_from
from linebyline.web import mine, offline
from linebyline.web.pages import current

from ..conftest import replace

# Pages, the service worker and the course as data: no query (make test's PostgreSQL run
# leaves them out; tests/web/conftest.py holds the mark to that).
pytestmark = pytest.mark.same_on_every_database

STATIC = Path(offline.__file__).parent / "static"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


def kept(client: Client) -> dict:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    head = response.content.decode().split("\n", 1)[0]
    return json.loads(re.fullmatch(r"self\.LINEBYLINE_OFFLINE=(.*);", head).group(1))


def test_the_worker_keeps_every_page_checks_script_and_pyodide(client, course):
    listed = kept(client)
    urls = {entry["url"] for entry in listed["entries"]}
    paths = {url.split("?")[0] for url in urls}
    for lesson in course.lessons():
        page = f"/lessons/{lesson.number}-{lesson.slug}/"
        assert page in listed["pages"] and page in urls
        if lesson.exercise is not None:
            assert page + "checks.json" in paths
    for module in course.modules:
        if module.lessons:
            assert f"/modules/{module.number}/review/" in urls
    assert {"/", "/program/", "/my-microgpt/", "/next/", "/offline/", "/data/input.txt",
            "/runtime.json", "/my-microgpt/course.json", "/manifest.webmanifest"} <= paths
    assert any(path.endswith("pyodide.asm.wasm") for path in paths)
    assert any(path.endswith("/app.js") for path in paths) and any("/scripts/" in p for p in paths)
    assert not [p for p in paths if p.startswith(offline.SERVER_ONLY)]
    assert not [p for p in paths if "teach" in p]  # the teacher's code stays on the server
    # What the page says it downloads: the sum of the entries (about 9 MB gzipped as `serve`
    # collects the static files; here, without them collected, Pyodide counts uncompressed).
    assert 5e6 < listed["bytes"] < 25e6
    assert listed["bytes"] == sum(entry["bytes"] for entry in listed["entries"])


def test_the_worker_changes_with_the_course_version_and_answers_304(client, copy):
    with override_settings(COURSE_DIR=str(copy)):
        first = client.get("/sw.js")
        assert client.get("/sw.js", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        before = kept(client)["version"]
        replace(next(copy.glob("lessons/7.5-*/lesson.yaml")), "lead: >-\n  ", "lead: >-\n  New. ")
        current.RECHECK_SECONDS, was = 0, current.RECHECK_SECONDS
        try:
            assert kept(client)["version"] != before
            assert client.get("/sw.js", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
        finally:
            current.RECHECK_SECONDS = was


def test_the_app_manifest_names_the_course_its_icons_and_opens_at_the_next_lesson(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    described = response.json()
    assert described["name"].startswith("linebyline") and described["display"] == "standalone"
    assert described["start_url"] == "/next/" and described["theme_color"]
    sizes = {icon["sizes"] for icon in described["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in described["icons"])
    for name in offline.ICONS.values():
        assert (STATIC / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert page.count('<meta name="theme-color"') == 2  # light and dark


def test_the_account_api_says_nobody_is_signed_in_and_refuses_a_bad_token(client):
    answer = client.get("/api/account/")
    assert answer.status_code == 200 and answer["Cache-Control"].startswith("max-age=0")
    assert answer.json()["signedIn"] is False and answer.json()["links"]["signIn"]
    assert client.get("/api/account/", HTTP_AUTHORIZATION="Bearer nope").status_code == 401
    assert client.post("/api/account/").status_code == 405


def test_the_offline_page_says_so(client):
    page = client.get("/offline/").content.decode()
    assert "You are offline" in page and "data-offline-page" in page


def test_my_microgpt_assembles_the_same_from_the_course_as_data(client, course):
    """Offline, the browser's Python assembles from /my-microgpt/course.json: the very answer
    the server gives from the course itself."""
    data = client.get(current.get().exercise_data(course.lesson("7.5"))["checksUrl"])
    assert data.status_code == 200
    served = json.loads(client.get(mine.assembler_url(current.get())).content)
    assert served == json.loads(json.dumps(plain_course(course)))
    lesson = course.lesson("7.4")
    progress = {"7.4": Work("done", lesson.exercise.solution.replace("\n", "\n# mine\n", 1))}
    sent = {"7.4": {"status": "done", "passed": progress["7.4"].draft}, "7.5": {"status": "odd"}}
    assert progress_from(sent) == progress
    for name in Assembler(course).script_names:
        expected = Assembler(course).assemble(name, progress).to_dict()
        assert Assembler(PlainCourse(served)).assemble(name, progress).to_dict() == expected
