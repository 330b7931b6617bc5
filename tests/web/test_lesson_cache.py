"""Lesson pages: rendered once per course version and sent as files, with ETag / 304, never personal."""
from __future__ import annotations

import gzip

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from django.test.signals import template_rendered

from linebyline.web.pages import current
from linebyline.web.rendered import etag_of

LESSON = "/lessons/7.5-backward/"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()


@pytest.fixture
def renders():
    """The names of the templates rendered while the test runs."""
    seen: list[str] = []

    def note(sender, template, context, **kwargs):
        seen.append(template.name)

    template_rendered.connect(note)
    yield seen
    template_rendered.disconnect(note)


def test_a_first_visit_gets_the_page_its_etag_and_a_csrf_cookie(client):
    response = client.get(LESSON)
    assert response.status_code == 200
    assert response["ETag"] == etag_of(response.content)
    assert response["Cache-Control"] == "no-cache"
    assert {"Cookie", "Accept-Encoding"} <= {v.strip() for v in response["Vary"].split(",")}
    assert response.cookies["csrftoken"].value
    assert b"csrfmiddlewaretoken" not in response.content


def test_a_repeat_visit_is_answered_304_without_a_body_or_a_new_cookie(client):
    first = client.get(LESSON)
    again = client.get(LESSON, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    assert "csrftoken" not in again.cookies  # the browser already has it
    assert client.get(LESSON, HTTP_IF_NONE_MATCH='W/"something else"').status_code == 200


def test_gzip_is_done_once_and_is_the_same_page(client):
    plain = client.get(LESSON)
    packed = client.get(LESSON, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(packed.content) == plain.content
    assert packed["ETag"] == plain["ETag"]
    gzipped = client.get(LESSON, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=plain["ETag"])
    assert gzipped.status_code == 304


def test_the_lesson_is_rendered_once_per_course_version(copy, renders):
    with override_settings(COURSE_DIR=str(copy)):
        first = Client().get(LESSON)
        assert renders.count("linebyline/_lesson_main.html") == 1
        for _ in range(3):
            assert Client().get(LESSON)["ETag"] == first["ETag"]
        assert renders.count("linebyline/_lesson_main.html") == 1
        assert renders.count("linebyline/lesson.html") == 1

        lead = next(copy.glob("lessons/7.5-*/lesson.yaml"))
        lead.write_text(lead.read_text().replace("One method turns", "One short method turns", 1))
        # The course files are looked at once a second; here at once.
        current.RECHECK_SECONDS, was = 0, current.RECHECK_SECONDS
        try:
            changed = Client().get(LESSON, HTTP_IF_NONE_MATCH=first["ETag"])
        finally:
            current.RECHECK_SECONDS = was
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert b"One short method turns" in changed.content
    assert renders.count("linebyline/_lesson_main.html") == 2


PAGES = ("/", LESSON, "/modules/7/review/", "/program/", "/my-microgpt/", "/next/", "/offline/")


@pytest.mark.parametrize("path", PAGES)
def test_a_signed_in_learner_gets_the_very_page_everyone_gets(client, path):
    """One page for everyone (so the service worker keeps it, signed in too): the header's
    account part is filled in by the page's script from /api/account/."""
    anonymous = client.get(path)
    staff = User.objects.create_user("grace_h", password="x", first_name="Grace", is_staff=True)
    signed_in = Client()
    signed_in.force_login(staff)
    theirs = signed_in.get(path)
    assert theirs.status_code == anonymous.status_code == 200
    assert theirs.content == anonymous.content and theirs["ETag"] == anonymous["ETag"]
    assert signed_in.get(path, HTTP_IF_NONE_MATCH=theirs["ETag"]).status_code == 304
    page = theirs.content.decode()
    assert "grace_h" not in page and "Grace" not in page and "csrfmiddlewaretoken" not in page
    assert '<a href="/teach/" data-teach-link hidden>Teach</a>' in page  # shown by the script
    assert signed_in.get("/api/account/").json()["teach"] is True


def test_a_signed_in_page_does_not_read_the_session(client, django_assert_num_queries):
    """The page costs what an anonymous one does: no query at all (the session, the user and the
    "Teach" link are the account API's business)."""
    learner = User.objects.create_user("ada", password="x")
    signed_in = Client()
    signed_in.force_login(learner)
    signed_in.get(LESSON)  # rendered once for this course version
    with django_assert_num_queries(0):
        assert signed_in.get(LESSON).status_code == 200


def test_a_course_page_is_answered_before_the_session_and_the_account_are_read(client):
    response = client.get(LESSON)
    request = response.wsgi_request
    assert not hasattr(request, "session") and not hasattr(request, "user")
    assert response["X-Frame-Options"] == "DENY"
    assert int(response["Content-Length"]) == len(response.content)
    assert response["Content-Security-Policy"].startswith("default-src 'self'")
    # Everything else goes down the whole chain: a page that is not shared, an unknown lesson
    # (its 404 page as always), and anything but GET.
    for url, status in (("/accounts/login/", 200), ("/lessons/99.9-nothing/", 404)):
        other = client.get(url)
        assert other.status_code == status and hasattr(other.wsgi_request, "session"), url
    posted = client.post(LESSON)
    assert posted.status_code in (403, 405) and hasattr(posted.wsgi_request, "session")
    assert client.get(LESSON, HTTP_HOST="bad.example").status_code == 400  # ALLOWED_HOSTS holds


def test_a_cookie_the_browser_has_is_kept_and_a_signed_in_learner_gets_the_same_bytes(client):
    first = client.get(LESSON)
    token = first.cookies["csrftoken"].value
    again = client.get(LESSON)
    assert "csrftoken" not in again.cookies and client.cookies["csrftoken"].value == token
    User.objects.create_user("ada", password="a long enough password 1")
    signed_in = Client()
    assert signed_in.login(username="ada", password="a long enough password 1")
    assert signed_in.get(LESSON).content == first.content


def test_a_returning_visitor_gets_the_page_from_its_file_not_from_its_view(client, monkeypatch):
    """The first visit goes through the view (which sets the CSRF cookie the page's scripts send
    back) and writes the page to a file; with the cookie, the page then comes from that file as
    WhiteNoise sends a static file, with the view's bytes, ETag and headers."""
    first = client.get(LESSON, HTTP_ACCEPT_ENCODING="gzip")
    assert first.cookies["csrftoken"].value and "Last-Modified" not in first

    def no_view(*args, **kwargs):
        raise AssertionError("the view answered a page that has its file")

    monkeypatch.setattr("linebyline.web.rendered.respond", no_view)
    again = client.get(LESSON, HTTP_ACCEPT_ENCODING="gzip")
    assert again.status_code == 200 and "Last-Modified" in again  # WhiteNoise's answer
    assert again.content == first.content and again["Content-Encoding"] == "gzip"
    for header in ("ETag", "Cache-Control", "X-Frame-Options", "Content-Security-Policy"):
        assert again[header] == first[header], header
    assert {"Cookie", "Accept-Encoding"} <= {v.strip() for v in again["Vary"].split(",")}
    assert not hasattr(again.wsgi_request, "session")
    plain = client.get(LESSON)
    assert gzip.decompress(first.content) == plain.content and "Content-Encoding" not in plain
    assert client.get(LESSON, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.head(LESSON).status_code == 200
    assert client.get(LESSON, HTTP_HOST="bad.example").status_code == 400  # ALLOWED_HOSTS holds

    # Without a cookie the framework keeps, the view answers again (and sets a new one).
    monkeypatch.undo()
    client.cookies["csrftoken"] = "not a token"
    fixed = client.get(LESSON)
    assert fixed.status_code == 200 and fixed.cookies["csrftoken"].value != "not a token"


def test_a_changed_course_is_written_to_new_files(copy, client):
    with override_settings(COURSE_DIR=str(copy)):
        client.get(LESSON)
        first = client.get(LESSON)  # from its file
        assert "Last-Modified" in first
        lead = next(copy.glob("lessons/7.5-*/lesson.yaml"))
        lead.write_text(lead.read_text().replace("One method turns", "One short method turns", 1))
        current.RECHECK_SECONDS, was = 0, current.RECHECK_SECONDS
        try:
            changed = client.get(LESSON, HTTP_IF_NONE_MATCH=first["ETag"])
            again = client.get(LESSON)
        finally:
            current.RECHECK_SECONDS = was
    assert changed.status_code == 200 and b"One short method turns" in changed.content
    assert "Last-Modified" in again and again.content == changed.content


def test_a_page_that_cannot_be_written_is_still_answered_by_its_view(client, monkeypatch):
    def full_disk(self, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("pathlib.Path.write_bytes", full_disk)
    first = client.get(LESSON)
    again = client.get(LESSON)
    assert first.status_code == again.status_code == 200
    assert again.content == first.content and "Last-Modified" not in again  # from the view
