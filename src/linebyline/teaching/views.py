"""The teacher's pages (/teach/...): their classes, a class at a glance (who is stuck, the
learners × lessons grid, the figures per lesson), one learner's work, one lesson's figures, the
CSV files; for staff, the same figures for everyone. Changing a class is in manage.py, joining
and leaving in membership.py."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from ..course import CourseErrors, Lesson
from ..web.pages import CourseView, current, lesson_url
from . import attempts, csv_files, grid, stats
from .access import can_create_classes, can_teach, classroom_for, taught_classes
from .forms import ClassForm, PeriodForm
from .models import Classroom, new_join_code
from .scope import Scope, class_scope, everyone_scope


def course_view() -> CourseView:
    try:
        return current.get()
    except CourseErrors:
        raise Http404("The course has errors; fix them first (they are listed on the course home).") \
            from None


def not_a_teacher(request: HttpRequest) -> HttpResponse:
    return render(request, "teaching/not_a_teacher.html", {"view": course_view()}, status=403)


def _period(request: HttpRequest) -> tuple[PeriodForm, str]:
    form = PeriodForm(request.GET or None)
    return form, form.chosen() if "period" in request.GET else "all"


def _stuck(classroom: Classroom) -> int:
    view = course_view()
    cells = grid.cells_for(class_scope(classroom, "all"), {lesson.number for lesson in view.lessons})
    return sum(cell.stuck is not None for cell in cells.values())


def _home(request: HttpRequest, form: ClassForm, status: int = 200) -> HttpResponse:
    classes = taught_classes(request.user).distinct().prefetch_related("teachers")
    rows = [{"classroom": c, "learners": c.membership_set.filter(left=None).count(),
             # Who is stuck, for the classes this teacher teaches (staff see every class: only
             # their own are counted here, each class's page has the rest).
             "stuck": _stuck(c) if c.archived is None and request.user in c.teachers.all() else None}
            for c in classes]
    return render(request, "teaching/home.html", {
        "view": course_view(), "form": form, "can_create": can_create_classes(request.user),
        "classes": [row for row in rows if row["classroom"].archived is None],
        "archived": [row for row in rows if row["classroom"].archived is not None]}, status=status)


@login_required
@require_safe
def teach_home(request: HttpRequest) -> HttpResponse:
    if not can_teach(request.user):
        return not_a_teacher(request)
    return _home(request, ClassForm())


@login_required
@require_POST
def create_class(request: HttpRequest) -> HttpResponse:
    if not can_create_classes(request.user):
        return not_a_teacher(request)
    form = ClassForm(request.POST)
    if not form.is_valid():
        return _home(request, form, status=400)
    for _ in range(5):  # a fresh code is almost never taken; if it is, draw again
        try:
            with transaction.atomic():
                classroom = Classroom.objects.create(name=form.cleaned_data["name"],
                                                     course=course_view().course.slug,
                                                     join_code=new_join_code())
        except IntegrityError:
            continue
        classroom.teachers.add(request.user)
        messages.success(request, f"Class “{classroom.name}” created. Give your learners its join "
                                  f"code, {classroom.shown_code}, or the join link below.")
        return redirect("teach-class", pk=classroom.pk)
    raise RuntimeError("could not draw an unused join code")


def _figures(scope: Scope, view: CourseView) -> dict[str, Any]:
    """The cells of the grid and the figures folded from them, for the scope's lessons."""
    cells = grid.cells_for(scope, {lesson.number for lesson in view.lessons})
    rows = stats.lesson_rows(scope, view.lessons, cells)
    funnels = stats.module_funnels(view.course, rows, cells)
    return {"cells": cells, "rows": rows, "funnels": funnels}


def _charts(funnels: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{
        "id": f"funnel-{funnel['module'].number}", "kind": "bars",
        "title": f"Module {funnel['module'].number}: learners per lesson",
        "labels": [step["number"] for step in funnel["steps"]],
        "series": [{"label": "started", "color": "--chart-started",
                    "values": [step["started"] for step in funnel["steps"]]},
                   {"label": "done", "color": "--chart-done",
                    "values": [step["done"] for step in funnel["steps"]]}],
    } for funnel in funnels if funnel["active"]]


def _module_tables(request: HttpRequest, scope: Scope, figures: dict[str, Any],
                   lesson_link: Callable[[str], str]) -> dict[str, Any]:
    for row in figures["rows"]:
        row["url"] = lesson_link(row["lesson"].number)
    funnels = figures["funnels"]
    return {"funnels": [f for f in funnels if f["active"]], "quiet": [f for f in funnels if not f["active"]],
            "charts": _charts(funnels), "period_text": stats.PERIODS[scope.period]}


def _undo_offers(request: HttpRequest, classroom: Classroom, scope: Scope) -> dict[str, Any]:
    """Right after removing a learner or replacing the join code, the page offers to undo it."""
    offers: dict[str, Any] = {}
    removed = request.GET.get("removed", "")
    if removed.isdigit():
        member = grid.member_of(scope.members, int(removed))
        if member is not None and member.left is not None:
            offers["removed"] = member
    if request.GET.get("new_code") and classroom.previous_code:
        offers["previous_code"] = f"{classroom.previous_code[:4]}-{classroom.previous_code[4:]}"
    return offers


@login_required
@require_safe
def class_overview(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    view = course_view()
    form, period = _period(request)
    scope = class_scope(classroom, period)
    figures = _figures(scope, view)
    order = {lesson.number: index for index, lesson in enumerate(view.lessons)}
    # The grid's lessons: those of every module someone worked in (before anyone did: the first).
    active = [funnel for funnel in figures["funnels"] if funnel["active"]] or figures["funnels"][:1]
    columns = [row["lesson"] for funnel in active for row in funnel["rows"]]
    sort = request.GET.get("sort", "name")
    people = grid.sorted_rows(grid.member_rows(scope, figures["cells"], [c.number for c in columns]), sort)
    join_url = request.build_absolute_uri(reverse("join-class") + f"?code={classroom.shown_code}")
    return render(request, "teaching/class.html", {
        "view": view, "scope": scope, "classroom": classroom, "period_form": form,
        "join_url": join_url, "teachers": classroom.teachers.order_by("username"),
        "columns": columns, "people": people, "sort": sort if sort in grid.SORTS else "name",
        "sorts": [(key, label) for key, (label, _) in grid.SORTS.items()],
        "stuck": grid.stuck_list(scope, figures["cells"], order),
        "staying": sum(member.left is None for member in scope.members),
        "left_count": sum(member.left is not None for member in scope.members),
        **_undo_offers(request, classroom, scope),
        **_module_tables(request, scope, figures, lambda n: reverse("teach-class-lesson", args=[pk, n]))})


@login_required
@require_safe
def everyone_overview(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        return not_a_teacher(request)
    view = course_view()
    form, period = _period(request)
    scope = everyone_scope(view.course, period)
    learners = scope.events.values("learner").distinct().count()
    signed_in = scope.events.filter(user__isnull=False).values("learner").distinct().count()
    figures = _figures(scope, view)
    return render(request, "teaching/overview.html", {
        "view": view, "scope": scope, "period_form": form, "learners": learners, "signed_in": signed_in,
        **_module_tables(request, scope, figures, lambda n: reverse("teach-everyone-lesson", args=[n]))})


def _lesson(view: CourseView, number: str) -> Lesson:
    lesson = view.course.lesson(number)
    if lesson is None:
        raise Http404("No such lesson")
    return lesson


def _lesson_page(request: HttpRequest, scope: Scope, lesson: Lesson, period_form: PeriodForm,
                 extra: dict[str, Any]) -> HttpResponse:
    view = course_view()
    cells = grid.cells_for(scope, {lesson.number})
    row = stats.lesson_rows(scope, [lesson], cells)[0]
    failing = stats.failing_checks(scope, lesson)
    chart = {"id": "failures", "kind": "bars", "title": "Checked runs in which each check failed first",
             "labels": [str(check["index"]) for check in failing["checks"]],
             "series": [{"label": "runs failed", "color": "--chart-failed",
                         "values": [check["runs"] for check in failing["checks"]]}]}
    people, waiting = [], []
    if scope.classroom is not None:
        # Who needs the teacher first: stuck, then trying, then the rest; who has not started, apart.
        need = {grid.TRYING: 1, grid.SOLUTION: 2, grid.DONE: 3}
        for member in scope.members:
            cell = cells.get((member.learner, lesson.number))
            (people if cell else waiting).append({"member": member, "cell": cell})
        people.sort(key=lambda p: (p["cell"].stuck is None, need[p["cell"].state], p["member"].name.lower()))
        members = scope.by_learner
        for check in failing["checks"]:
            check["names"] = sorted(members[key].name for key in check["who"] if key in members)
    return render(request, "teaching/lesson.html", {
        "view": view, "scope": scope, "lesson": lesson, "row": row, "failing": failing,
        "help": stats.help_used(lesson, cells), "feedback": stats.feedback_for(scope, lesson),
        "charts": [chart] if failing["runs"] else [], "period_form": period_form, "people": people,
        "waiting": waiting,
        "period_text": stats.PERIODS[scope.period], "lesson_url": lesson_url(lesson), **extra})


@login_required
@require_safe
def class_lesson(request: HttpRequest, pk: int, number: str) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    lesson = _lesson(course_view(), number)
    form, period = _period(request)
    return _lesson_page(request, class_scope(classroom, period), lesson, form, {
        "classroom": classroom, "back": reverse("teach-class", args=[pk])})


@login_required
@require_safe
def everyone_lesson(request: HttpRequest, number: str) -> HttpResponse:
    if not request.user.is_staff:
        return not_a_teacher(request)
    lesson = _lesson(course_view(), number)
    form, period = _period(request)
    return _lesson_page(request, everyone_scope(course_view().course, period), lesson, form,
                        {"back": reverse("teach-everyone")})


@login_required
@require_safe
def learner_page(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    view = course_view()
    scope = class_scope(classroom, "all")
    member = grid.member_of(scope.members, user_id)
    if member is None:
        raise Http404("No such learner in this class")
    numbers = [lesson.number for lesson in view.lessons]
    cells = grid.cells_for(scope, set(numbers))
    only = request.GET.get("lesson")
    if only is not None and view.course.lesson(only) is None:
        raise Http404("No such lesson")
    order = {number: index for index, number in enumerate(numbers)}
    summary = [{"lesson": lesson, "cell": cells[(member.learner, lesson.number)]}
               for lesson in view.lessons if (member.learner, lesson.number) in cells]
    titles = {lesson.number: lesson.title for lesson in view.lessons}
    lessons = attempts.lessons_of(scope.events, member.learner, only, order)
    for lesson in lessons:
        lesson["title"] = titles.get(lesson["number"], "")
    return render(request, "teaching/learner.html", {
        "view": view, "classroom": classroom, "member": member, "summary": summary, "only": only,
        "done": sum(item["cell"].done for item in summary), "lessons": lessons})


@login_required
@require_safe
def grid_csv(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    view = course_view()
    _, period = _period(request)
    scope = class_scope(classroom, period)
    numbers = [lesson.number for lesson in view.lessons]
    cells = grid.cells_for(scope, set(numbers))
    rows = grid.sorted_rows(grid.member_rows(scope, cells, numbers), "name")
    return csv_files.grid_csv(scope, numbers, rows)


@login_required
@require_safe
def attempts_csv(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    _, period = _period(request)
    scope = class_scope(classroom, period)
    members = scope.members
    wanted = request.GET.get("learner", "")
    if wanted.isdigit():
        members = [m for m in members if m.user.pk == int(wanted)]
    return csv_files.attempts_csv(scope, members)
