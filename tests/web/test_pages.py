"""The web app's pages and endpoints, through Django's test client and a real database."""
from __future__ import annotations

import json
import shutil

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings

from linebyline.course import default_course_path, load_course
from linebyline.web.models import LessonFeedback
from linebyline.web.pages import runtime_sources

LESSON_URL = "/lessons/7.5-backward/"


@pytest.fixture(autouse=True)
def fresh_rate_limits(db):
    cache.clear()  # rate limits live in the database cache, shared by every server process


def test_home_lists_modules_lessons_minutes_and_scripts(client, course):
    page = client.get("/").content.decode()
    assert "Module 7 · Autograd = automatic chain rule" in page
    assert "<code>train2.py</code>" in page
    assert 'href="/lessons/7.4-building-value/"' in page and "25 min" in page
    assert 'href="/lessons/7.5-backward/"' in page
    assert 'href="/lessons/7.1-what-gets-deleted/"' in page
    published = {lesson.title for lesson in course.lessons()}
    still_to_come = next((title for module in course.modules for title in module.planned
                          if title not in published), None)
    if still_to_come is None:  # every planned lesson is published: the course can be completed
        assert "data-all-published" in page and "coming soon" not in page
    else:
        assert still_to_come in page and "coming soon" in page
    assert f"0</span> / {len(course.countable_lines())} lines learned" in page
    assert "Export progress" in page and "Import progress" in page


def test_lesson_page_has_the_header_five_parts_and_footer(client, course):
    lesson = course.lesson("7.5")
    response = client.get(LESSON_URL)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Module 7 · Autograd = automatic chain rule" in page
    assert "backward(): let the graph do calculus" in page and "about 30 min" in page
    for number, part in enumerate(["Watch", "Explore", "Build", "Check yourself",
                                   "Unlocked in microgpt"], 1):
        assert f'<span class="part-number">{number}</span> {part}</h2>' in page
    # rendered server-side: the Watch text, the check names, the quiz prompts, the starter
    assert "topological" in page.lower()
    for name in lesson.exercise.check_names:
        assert name.replace("'", "&#x27;") in page
    assert "Was this lesson clear?" in page and "Progress is saved in this browser" in page
    lessons = list(course.lessons())
    following = lessons[lessons.index(lesson) + 1] if lesson is not lessons[-1] else None
    if following is None:
        assert 'data-next-lesson' not in page
    else:
        assert (f'<a data-next-lesson href="/lessons/{following.number}-{following.slug}/">'
                f'Next: {following.number} {following.title} →</a>') in page
    module = next(m for m in course.modules if m.number == 7)
    ends_module = module.lessons[-1] is lesson
    assert ("Module 7 review: check what you learned" in page) == ends_module
    # The page is the same for everyone: the CSRF token comes in a cookie, not in the page.
    assert "csrfmiddlewaretoken" not in page and response.cookies["csrftoken"].value


def test_the_solution_is_not_in_the_page_until_asked_for(client, course):
    exercise = course.lesson("7.5").exercise
    page = client.get(LESSON_URL).content.decode()
    assert "        visit(self)\n        self.grad = 1\n" in page  # the starter, in the editor
    assert exercise.solution not in page
    checks_url = json.loads(page.split('id="exercise-data" type="application/json">')[1]
                            .split("</script>")[0])["checksUrl"]
    assert client.get(checks_url).json()["reference"] == exercise.solution  # "Stuck?" shows it


def test_the_checks_come_by_their_own_url_not_in_the_page(client, course):
    exercise = course.lesson("7.5").exercise
    response = client.get(LESSON_URL)
    page = response.content.decode()
    data = json.loads(page.split('<script id="exercise-data" type="application/json">')[1]
                      .split("</script>")[0])
    assert "checks" not in data and data["checksUrl"].startswith(LESSON_URL + "checks.json?v=")
    assert exercise.checks_source.splitlines()[0] not in page
    checks = client.get(data["checksUrl"])
    assert checks.status_code == 200 and checks["Content-Type"] == "application/json"
    # The solution comes with them: differential checks compare the learner's functions with it.
    assert checks.json() == {"checks": exercise.checks_source, "reference": exercise.solution}
    assert "max-age=3600" in checks["Cache-Control"]
    assert client.get("/lessons/7.9-no-such-lesson/checks.json").status_code == 404
    assert client.post(data["checksUrl"]).status_code in (403, 405)


def test_lesson_74_links_to_the_next_lesson(client):
    page = client.get("/lessons/7.4-building-value/").content.decode()
    assert 'data-next-lesson href="/lessons/7.5-backward/"' in page


def first_teacher(course, line: int) -> str:
    return next(lesson.number for lesson in course.lessons() if line in lesson.unlocked_lines())


def test_unlocked_lines_are_highlighted_and_link_to_their_lesson(client, course):
    page = client.get(LESSON_URL).content.decode()
    # Line 74 is 7.5's line; each line names the first lesson that teaches it.
    assert 74 in course.lesson("7.5").unlocked_lines()
    assert (f'<li id="L74" value="74" class="line this" data-line="74" '
            f'data-teacher="{first_teacher(course, 74)}">') in page
    assert 41 not in course.lesson("7.5").unlocked_lines()
    assert (f'<li id="L41" value="41" class="line later" data-line="41" '
            f'data-teacher="{first_teacher(course, 41)}">') in page
    taught = len(course.lesson("7.5").unlocked_lines() & course.countable_lines())
    assert f"This lesson teaches {taught} line{'s' if taught != 1 else ''} of" in page


def test_a_lesson_that_adds_no_line_says_why_in_its_own_words(client, course):
    # After 11.3 no line is left to teach: nothing may claim 12.3 prepares lines to come.
    lesson = course.lesson("12.3")
    assert not lesson.unlocked_lines()
    page = client.get(f"/lessons/12.3-{lesson.slug}/").content.decode()
    unlocked = page[page.index('id="unlocked"'):page.index('class="prose where"')]
    assert "This lesson" not in unlocked and "You have learned" in unlocked
    assert "This lesson adds no line" in page[page.index('class="prose where"'):]


def test_program_page_shows_every_line_linked_to_its_lesson(client, course):
    page = client.get("/program/").content.decode()
    assert page.count('data-line="') == len(course.program.rstrip("\n").split("\n"))
    teacher = course.lesson(first_teacher(course, 77))
    assert (f'<a href="/lessons/{teacher.number}-{teacher.slug}/" title="Taught in lesson '
            f'{teacher.number}"><code>                child.grad += local_grad * node.grad</code>'
            ) in page
    assert "karpathy.github.io" in page


def test_module_review_gathers_the_quizzes(client, course):
    page = client.get("/modules/7/review/").content.decode()
    assert "Module review: check what you learned" in page
    for lesson in course.lesson("7.4"), course.lesson("7.5"):
        for question in lesson.quiz:
            assert question.prompt.split("`")[0].replace("'", "&#x27;") in page
    assert client.get("/modules/13/review/").status_code == 404  # no such module


@pytest.mark.parametrize("url", ["/lessons/7.5-nope/", "/lessons/9.9-backward/",
                                 "/lessons/7.5-backward/../", "/modules/99/review/"])
def test_unknown_pages_are_404(client, url):
    assert client.get(url).status_code == 404


def test_pages_are_cross_origin_isolated_for_the_interrupt_buffer(client):
    response = client.get(LESSON_URL)
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert response["Cross-Origin-Embedder-Policy"] == "require-corp"


def test_runtime_bundle_ships_the_check_runtime_and_caches_forever(client):
    response = client.get("/runtime.json?v=1")
    files = response.json()["files"]
    assert files == runtime_sources()
    assert "linebyline/runtime/runner.py" in files and "linebyline/runtime/browser.py" in files
    assert "immutable" in response["Cache-Control"]


def test_the_names_file_is_served_as_input(client, settings, tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("ada\ngrace\n")
    settings.NAMES_FILE = names
    response = client.get("/data/input.txt")
    assert b"".join(response.streaming_content) == b"ada\ngrace\n"
    assert response["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
def test_feedback_is_validated_stored_and_shown_in_the_admin(client):
    response = client.post("/feedback/7.5/", {"clear": "no", "comment": "  The order part lost me.  "},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 201
    feedback = LessonFeedback.objects.get()
    assert (feedback.course, feedback.lesson, feedback.clear) == ("microgpt", "7.5", False)
    assert feedback.comment == "The order part lost me." and feedback.user is None

    User.objects.create_superuser("teacher", "t@example.com", "a long passphrase 42")
    admin = Client()
    # The admin's sign-in sends staff to the site's sign-in page (and its limits).
    assert admin.get("/admin/login/?next=/admin/")["Location"].startswith("/accounts/login/")
    signed_in = admin.post("/accounts/login/?next=/admin/", {"login": "teacher",
                                                             "password": "a long passphrase 42"})
    assert signed_in.status_code == 302 and signed_in["Location"] == "/admin/"
    listing = admin.get("/admin/linebyline/lessonfeedback/").content.decode()
    assert "The order part lost me." in listing and "7.5" in listing


@pytest.mark.django_db
@pytest.mark.parametrize("data, field", [
    ({}, "clear"),
    ({"clear": "maybe"}, "clear"),
    ({"clear": "yes", "comment": "x" * 1001}, "comment"),
])
def test_bad_feedback_is_refused_with_the_field_named(client, data, field):
    response = client.post("/feedback/7.5/", data, HTTP_ACCEPT="application/json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert LessonFeedback.objects.count() == 0


@pytest.mark.django_db
def test_feedback_for_an_unknown_lesson_is_404(client):
    assert client.post("/feedback/9.9/", {"clear": "yes"}).status_code == 404


@pytest.mark.django_db
def test_feedback_needs_the_csrf_token():
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/feedback/7.5/", {"clear": "yes"}).status_code == 403
    page = strict.get(LESSON_URL)
    token = page.cookies["csrftoken"].value
    ok = strict.post("/feedback/7.5/", {"clear": "yes"}, HTTP_X_CSRFTOKEN=token,
                     HTTP_ACCEPT="application/json")
    assert ok.status_code == 201


def answer(client, browser="", clear="yes"):
    data = {"clear": clear, **({"browser": browser} if browser else {})}
    return client.post("/feedback/7.5/", data, HTTP_ACCEPT="application/json")


@pytest.mark.django_db
def test_feedback_is_limited_per_learner(client):
    statuses = [answer(client, "a" * 32).status_code for _ in range(22)]
    assert statuses[:20] == [201] * 20 and statuses[20:] == [429, 429]
    refused = answer(client, "a" * 32)
    assert "a lot of answers from you" in refused.json()["errors"]["__all__"][0]
    assert answer(client, "b" * 32).status_code == 201  # another learner at the same address
    assert LessonFeedback.objects.count() == 21
    assert set(LessonFeedback.objects.values_list("learner", flat=True)) == {"b" + "a" * 32, "b" + "b" * 32}


@pytest.mark.django_db
def test_a_class_of_30_behind_one_address_can_all_answer(client):
    """The first answer of each of 30 learners at one address, and a few more each, all go in."""
    learners = []
    for n in range(30):
        signed = Client()
        signed.force_login(User.objects.create_user(f"learner{n}", password="x"))
        learners += [(signed, ""), (Client(), f"{n:032x}")]
    statuses = {answer(who, browser).status_code for _ in range(5) for who, browser in learners}
    assert statuses == {201} and LessonFeedback.objects.count() == 300
    first = User.objects.get(username="learner0")
    assert LessonFeedback.objects.filter(learner=f"u{first.pk}").count() == 5


@pytest.mark.django_db
def test_one_address_has_a_feedback_ceiling(client, monkeypatch):
    from linebyline.web import views
    monkeypatch.setattr(views, "FEEDBACK_RATE_PER_ADDRESS", "30/h")  # the real one is sized for a class
    statuses = [answer(client, f"{n:032x}").status_code for n in range(32)]
    assert statuses[:30] == [201] * 30 and statuses[30:] == [429, 429]
    assert "from your network" in answer(client, "f" * 32).json()["errors"]["__all__"][0]


def test_feedback_only_accepts_post(client):
    assert client.get("/feedback/7.5/").status_code == 405


def test_broken_course_files_are_shown_as_file_line_errors(client, tmp_path):
    broken = tmp_path / "microgpt"
    shutil.copytree(default_course_path(), broken)
    lesson_yaml = next(broken.glob("lessons/7.5-*/lesson.yaml"))
    lesson_yaml.write_text(lesson_yaml.read_text().replace("minutes: 30", "minutes: thirty"))
    with override_settings(COURSE_DIR=str(broken)):
        response = client.get("/")
    assert response.status_code == 500
    line = lesson_yaml.read_text().splitlines().index("minutes: thirty") + 1
    assert f"{lesson_yaml}:{line}: `minutes` must be a whole number, not text" in response.content.decode()


@pytest.mark.django_db
def test_the_database_is_the_configured_one():
    import os

    from django.db import connection

    wanted = "postgresql" if os.environ.get("LINEBYLINE_DATABASE_URL", "").startswith("postgres") \
        else "sqlite"
    assert connection.vendor == wanted
    LessonFeedback.objects.create(course="microgpt", lesson="7.4", clear=True, comment="é ✓")
    assert LessonFeedback.objects.get().comment == "é ✓"


def test_course_scripts_are_served_for_widgets_that_train_them(client):
    response = client.get("/scripts/train0.py")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/x-python")
    assert (default_course_path() / "train0.py").read_text(encoding="utf-8") == response.content.decode()
    assert client.get("/scripts/microgpt.py").status_code == 200
    # Only the program and the module scripts: never another file of the course folder.
    assert client.get("/scripts/checks.py").status_code == 404
    assert client.get("/scripts/course.yaml").status_code == 404


def test_a_module_review_ties_its_lessons_together(client, tmp_path):
    course = tmp_path / "microgpt"
    shutil.copytree(default_course_path(), course)
    (course / "reviews").mkdir(exist_ok=True)
    (course / "reviews" / "module-7.yaml").write_text(
        "module: 7\nsummary: You built **backward()**.\nquiz:\n"
        "  - kind: predict\n    prompt: With x = Value(3) and y = x * x, what is x.grad?\n"
        "    compute: |\n      x = Value(3)\n      y = x * x\n      y.backward()\n"
        "      answer = x.grad\n    explain: Two shares of 3.\n", encoding="utf-8")
    with override_settings(COURSE_DIR=str(course)):
        page = client.get("/modules/7/review/").content.decode()
    assert "You built <strong>backward()</strong>." in page
    assert "With x = Value(3) and y = x * x, what is x.grad?" in page
    data = json.loads(page.split('id="quiz-data" type="application/json">')[1].split("</script>")[0])
    review = data[0]
    # The answer is computed by running the lesson's code; it is kept with the module's last
    # lesson, and answering it does not start that lesson.
    loaded = load_course(course)
    module = loaded.modules[6]
    last = module.lessons[-1].number
    assert (review["id"], review["answer"], review["lesson"], review["touch"]) == (
        "review7-q1", 6.0, last, False)
    # Then every lesson's own questions, in the lessons' order.
    assert [item["lesson"] for item in data[1:]] == [
        lesson.number for lesson in module.lessons for _ in lesson.quiz]
    # The lines the module teaches are listed, each linked to the first lesson that teaches it.
    lines = set().union(*(lesson.unlocked_lines() for lesson in module.lessons))
    lines &= loaded.countable_lines()
    assert page.count('<li id="L') == len(lines) > 0
    assert page.count('title="Taught in lesson') == len(lines)


def test_quiz_prompts_and_choices_are_inline_markdown(client):
    page = client.get("/lessons/7.4-building-value/").content.decode()
    assert "Why does <code>__mul__</code> record <code>other.data</code>" in page
    assert "`" not in page.split('id="quiz"')[1].split("</section>")[0]


def test_code_blocks_and_tables_that_scroll_can_be_reached_by_keyboard(client):
    page = client.get("/lessons/2.1-the-27x27-table/").content.decode()
    assert '<table tabindex="0">' in page and '<pre tabindex="0"><code' in page
    assert "<table>" not in page and "<pre><code" not in page


def test_every_written_module_has_a_review_page(client, course):
    """Modules 1-6 are written in full: each review page shows its summary and its questions."""
    for module in course.modules[:6]:
        assert module.review is not None, f"module {module.number} has no review"
        assert len(module.lessons) == len(module.planned), f"module {module.number} is not complete"
        page = client.get(f"/modules/{module.number}/review/")
        assert page.status_code == 200
        text = page.content.decode()
        assert "Questions across the module" in text
        assert text.count('class="question"') == len(module.review.quiz) + sum(
            len(lesson.quiz) for lesson in module.lessons)



def test_lesson_references_link_published_lessons_and_mark_planned_ones(copy):
    import shutil

    from linebyline.course import load_course
    from linebyline.web.pages import CourseView

    shutil.rmtree(next(copy.glob("lessons/1.6-*")))  # planned, not published in this copy
    view = CourseView(load_course(copy), "test")
    html = view.link_lessons("<p>See lessons 1.5 and 1.6, then lesson 99.1. "
                             "<code>lesson 1.5</code></p>")
    assert html == ('<p>See lessons <a href="/lessons/1.5-bos-and-vocab-size/">1.5</a> and '
                    '1.6 <span class="soon">(coming soon)</span>, then lesson 99.1. '
                    '<code>lesson 1.5</code></p>')
