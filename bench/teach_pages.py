"""How long the teacher's pages take for a class, and the staff's for everyone, as the data grows.

    .venv/bin/python bench/teach_pages.py [--learners 30] [--lessons 12] [--runs 8] [--everyone 2000]

Makes a throwaway database (SQLite in a temporary folder, or LINEBYLINE_DATABASE_URL), a class of
LEARNERS members who each worked LESSONS lessons (a few failing runs each, with the code, hints,
a pass) and brought progress from before joining, plus EVERYONE anonymous browsers; then times
each teacher page through Django's test client (the median CPU time of RUNS), beside the course home
(a page every learner loads) in the same run, as a ratio. Not part of CI; never a pass or fail.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup(data_dir: str) -> None:
    os.environ["LINEBYLINE_DATA_DIR"] = data_dir
    os.environ["DJANGO_SETTINGS_MODULE"] = "tests.settings"
    sys.path.insert(0, str(ROOT))
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


def fill(learners: int, lessons: int, everyone: int):
    from django.contrib.auth.models import User
    from django.utils import timezone

    from linebyline.accounts.models import ProgressDocument
    from linebyline.course import default_course_path, load_course
    from linebyline.teaching.models import CheckFailure, Classroom, LearningEvent, Membership
    from linebyline.teaching.roles import make_teacher

    course = load_course(default_course_path())
    numbers = [lesson.number for module in course.modules for lesson in module.lessons][:lessons]
    teacher = User.objects.create_user("teacher")
    make_teacher(teacher)
    classroom = Classroom.objects.create(name="Bench", course=course.slug)
    classroom.teachers.add(teacher)
    now = timezone.now()
    events, failures = [], []
    for index in range(learners):
        user = User.objects.create_user(f"learner{index:03d}")
        Membership.objects.create(classroom=classroom, user=user)
        ProgressDocument.objects.create(user=user, course=course.slug, lessons=json.dumps(
            {numbers[0]: {"status": "done", "quiz": {}, "hintsShown": 1, "doneAt": 0}}))
        mine = {"course": course.slug, "learner": f"u{user.pk}", "user": user, "created": now}
        for number in numbers[1:]:
            total = len(course.lesson(number).exercise.check_names)
            for run in range(4):  # three failing runs, then a pass, each with its code
                passed = run == 3
                events.append(LearningEvent(lesson=number, kind="check", client_id=uuid.uuid4().hex,
                                            status="pass" if passed else "fail", total=total,
                                            passed=total if passed else 1, code="x = 1\n" * 80, **mine))
            events.append(LearningEvent(lesson=number, kind="hint", hint=1, **mine))
    for index in range(everyone):
        for number in numbers[:3]:
            events.append(LearningEvent(course=course.slug, lesson=number, kind="check", status="fail",
                                        learner=f"b{index:032x}", passed=0, total=3, created=now))
    made = LearningEvent.objects.bulk_create(events, batch_size=2000)
    for event in made:
        if event.kind == "check" and event.status == "fail":
            names = course.lesson(event.lesson).exercise.check_names
            failures += [CheckFailure(event=event, name=name, status="fail", message="not yet", first=first)
                         for name, first in zip(names[:2], (True, False))]
    CheckFailure.objects.bulk_create(failures, batch_size=2000)
    return classroom, teacher, numbers, len(made)


def timed(client, url: str, runs: int) -> float:
    """The median CPU time of this process for the page (SQLite runs in it too): steadier than the
    wall clock on a machine others share."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        response = client.get(url)
        times.append(time.process_time() - started)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--lessons", type=int, default=12)
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--everyone", type=int, default=2000, help="anonymous browsers besides the class")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        setup(data_dir)
        from django.contrib.auth.models import User
        from django.test import Client
        classroom, teacher, numbers, count = fill(args.learners, args.lessons, args.everyone)
        staff = User.objects.create_user("staff", is_staff=True)
        client, admin = Client(HTTP_HOST="localhost"), Client(HTTP_HOST="localhost")
        client.force_login(teacher)
        admin.force_login(staff)
        learner = User.objects.get(username="learner000")
        base = f"/teach/classes/{classroom.pk}/"
        home = timed(client, "/", args.runs)
        print(f"{count:,} events; {args.learners} learners x {args.lessons} lessons; "
              f"{args.everyone:,} anonymous browsers; median of {args.runs}")
        print(f"{'page':<34} {'CPU ms':>8} {'x home':>8}")
        print(f"{'course home (the baseline)':<34} {home * 1000:>8.1f} {1:>8.1f}")
        pages = [("class page", base), ("class page, last 7 days", base + "?period=7"),
                 (f"class lesson {numbers[1]}", base + f"lessons/{numbers[1]}/"),
                 ("one learner", base + f"learners/{learner.pk}/"), ("grid.csv", base + "grid.csv"),
                 ("attempts.csv", base + "attempts.csv")]
        for name, url in pages:
            seconds = timed(client, url, args.runs)
            print(f"{name:<34} {seconds * 1000:>8.1f} {seconds / home:>8.1f}")
        for name, url in (("everyone (staff)", "/teach/everyone/"),
                          (f"everyone lesson {numbers[1]}", f"/teach/everyone/lessons/{numbers[1]}/")):
            seconds = timed(admin, url, args.runs)
            print(f"{name:<34} {seconds * 1000:>8.1f} {seconds / home:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
