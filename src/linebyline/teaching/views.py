"""Pages for teachers (/teach/...) and for learners joining or leaving a class (/classes/...; a
learner's classes are listed, with a join form, on their account page)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import is_ratelimited

from ..course import CourseErrors, Lesson
from ..web.pages import CourseView, current, lesson_url
from . import stats
from .access import can_create_classes, can_teach, classroom_for, taught_classes
from .forms import ClassForm, JoinForm, PeriodForm
from .models import Classroom, Membership, new_join_code

JOIN_RATE = "20/h"  # per account: a code cannot be guessed by trying


def _view() -> CourseView:
    try:
        return current.get()
    except CourseErrors:
        raise Http404("The course has errors; fix them first (they are listed on the course home).") \
            from None


def _not_a_teacher(request: HttpRequest) -> HttpResponse:
    return render(request, "teaching/not_a_teacher.html", {"view": _view()}, status=403)


def _period(request: HttpRequest) -> tuple[PeriodForm, str]:
    form = PeriodForm(request.GET or None)
    return form, form.chosen() if request.GET else "all"


# --- teachers -------------------------------------------------------------------------------

@login_required
@require_safe
def teach_home(request: HttpRequest) -> HttpResponse:
    if not can_teach(request.user):
        return _not_a_teacher(request)
    classes = taught_classes(request.user).distinct().prefetch_related("teachers")
    rows = [{"classroom": c, "learners": c.learners.count()} for c in classes]
    return render(request, "teaching/home.html", {
        "view": _view(), "classes": rows, "form": ClassForm(),
        "can_create": can_create_classes(request.user)})


@login_required
@require_POST
def create_class(request: HttpRequest) -> HttpResponse:
    if not can_create_classes(request.user):
        return _not_a_teacher(request)
    view = _view()
    form = ClassForm(request.POST)
    if not form.is_valid():
        classes = taught_classes(request.user).distinct()
        return render(request, "teaching/home.html", {
            "view": view, "classes": [{"classroom": c, "learners": c.learners.count()} for c in classes],
            "form": form, "can_create": True}, status=400)
    for _ in range(5):  # a fresh code is almost never taken; if it is, draw again
        try:
            with transaction.atomic():
                classroom = Classroom.objects.create(name=form.cleaned_data["name"],
                                                     course=view.course.slug, join_code=new_join_code())
        except IntegrityError:
            continue
        classroom.teachers.add(request.user)
        messages.success(request, f"Class “{classroom.name}” created. Give your learners its join "
                                  f"code, {classroom.shown_code}, or the join link below.")
        return redirect("teach-class", pk=classroom.pk)
    raise RuntimeError("could not draw an unused join code")


def _overview(request: HttpRequest, scope: stats.Scope, period_form: PeriodForm,
              lesson_link: Callable[[str], str], extra: dict[str, Any]) -> HttpResponse:
    view = _view()
    rows = stats.lesson_rows(scope, view.lessons)
    for row in rows:
        row["url"] = lesson_link(row["lesson"].number)
    funnels = stats.module_funnels(scope, view.course, rows)
    charts = [{
        "id": f"funnel-{funnel['module'].number}", "kind": "bars",
        "title": f"Module {funnel['module'].number}: learners per lesson",
        "labels": [step["number"] for step in funnel["steps"]],
        "series": [{"label": "started", "color": "--chart-started",
                    "values": [step["started"] for step in funnel["steps"]]},
                   {"label": "done", "color": "--chart-done",
                    "values": [step["done"] for step in funnel["steps"]]}],
    } for funnel in funnels]
    by_module = {funnel["module"].number: [r for r in rows if r["lesson"].module == funnel["module"].number]
                 for funnel in funnels}
    for funnel in funnels:
        funnel["rows"] = by_module[funnel["module"].number]
    return render(request, "teaching/overview.html", {
        "view": view, "scope": scope, "period_form": period_form,
        "period_text": stats.PERIODS[scope.period], "funnels": funnels, "charts": charts, **extra})


@login_required
@require_safe
def class_overview(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    form, period = _period(request)
    scope = stats.class_scope(classroom, period)
    join_url = request.build_absolute_uri(reverse("join-class") + f"?code={classroom.shown_code}")
    return _overview(request, scope, form, lambda number: reverse("teach-class-lesson", args=[pk, number]), {
        "classroom": classroom, "join_url": join_url, "roster": stats.roster(classroom, period),
        "teachers": classroom.teachers.order_by("username")})


@login_required
@require_safe
def everyone_overview(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        return _not_a_teacher(request)
    form, period = _period(request)
    scope = stats.everyone_scope(_view().course, period)
    learners = scope.events.values("learner").distinct().count()
    signed_in = scope.events.filter(user__isnull=False).values("learner").distinct().count()
    return _overview(request, scope, form, lambda number: reverse("teach-everyone-lesson", args=[number]),
                     {"learners": learners, "signed_in": signed_in})


def _lesson(view: CourseView, number: str) -> Lesson:
    lesson = view.course.lesson(number)
    if lesson is None:
        raise Http404("No such lesson")
    return lesson


def _lesson_page(request: HttpRequest, scope: stats.Scope, lesson: Lesson, period_form: PeriodForm,
                 extra: dict[str, Any]) -> HttpResponse:
    view = _view()
    row = stats.lesson_rows(scope, [lesson])[0]
    failing = stats.failing_checks(scope, lesson)
    chart = {"id": "failures", "kind": "bars", "title": "Checked runs in which each check failed",
             "labels": [str(check["index"]) for check in failing["checks"]],
             "series": [{"label": "runs failed", "color": "--chart-failed",
                         "values": [check["runs"] for check in failing["checks"]]}]}
    return render(request, "teaching/lesson.html", {
        "view": view, "scope": scope, "lesson": lesson, "row": row, "failing": failing,
        "help": stats.help_used(scope, lesson), "feedback": stats.feedback_for(scope, lesson),
        "charts": [chart] if failing["runs"] else [], "period_form": period_form,
        "period_text": stats.PERIODS[scope.period], "lesson_url": lesson_url(lesson), **extra})


@login_required
@require_safe
def class_lesson(request: HttpRequest, pk: int, number: str) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    lesson = _lesson(_view(), number)
    form, period = _period(request)
    return _lesson_page(request, stats.class_scope(classroom, period), lesson, form, {
        "classroom": classroom, "back": reverse("teach-class", args=[pk])})


@login_required
@require_safe
def everyone_lesson(request: HttpRequest, number: str) -> HttpResponse:
    if not request.user.is_staff:
        return _not_a_teacher(request)
    lesson = _lesson(_view(), number)
    form, period = _period(request)
    return _lesson_page(request, stats.everyone_scope(_view().course, period), lesson, form,
                        {"back": reverse("teach-everyone")})


@login_required
@require_POST
def new_code(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    old = classroom.shown_code
    for _ in range(5):
        classroom.join_code = new_join_code()
        try:
            with transaction.atomic():
                classroom.save(update_fields=["join_code"])
        except IntegrityError:
            continue
        messages.success(request, f"The join code is now {classroom.shown_code}; {old} no longer works. "
                                  "Learners already in the class stay in it.")
        return redirect("teach-class", pk=pk)
    raise RuntimeError("could not draw an unused join code")


@login_required
@require_POST
def remove_learner(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    user_id = request.POST.get("user", "")
    if not user_id.isdigit():
        raise Http404("No such learner in this class")
    membership = get_object_or_404(Membership, classroom=classroom, user_id=int(user_id))
    name = membership.user.get_username()
    membership.delete()
    messages.success(request, f"{name} is no longer in “{classroom.name}”. They can join again with "
                              "the join code: make a new one if they should not.")
    return redirect("teach-class", pk=pk)


# --- learners ---------------------------------------------------------------------------------

def _tried_too_many_codes(request: HttpRequest) -> bool:
    """One limiter for every code tried, whether by the join page (?code=...) or its form: the
    page names the class a right code belongs to, so it must not be a cheaper way to guess."""
    return is_ratelimited(request, group="join-class", key="user", rate=JOIN_RATE, increment=True)


@login_required
def join_class(request: HttpRequest) -> HttpResponse:
    view = _view()
    if request.method == "POST":
        form = JoinForm(request.POST)
    elif request.method in ("GET", "HEAD"):
        form = JoinForm(request.GET if "code" in request.GET else None)
    else:
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    classroom = None
    if form.is_bound and _tried_too_many_codes(request):
        form.is_valid()
        form.add_error(None, "You have tried many join codes in the last hour. Check the code with "
                             "your teacher, then try again later.")
        return render(request, "teaching/join.html", {"view": view, "form": form}, status=429)
    if form.is_bound and form.is_valid():
        classroom = Classroom.objects.filter(join_code=form.cleaned_data["code"]).first()
        if classroom is None:
            form.add_error("code", "No class has this join code. Check it with your teacher: "
                                   "it may have been replaced by a new one.")
    if request.method == "POST" and classroom is not None:
        _, made = Membership.objects.get_or_create(classroom=classroom, user=request.user)
        messages.success(request, f"You have joined “{classroom.name}”." if made
                         else f"You are already in “{classroom.name}”.")
        return redirect(reverse("accounts:account") + "#classes")
    status = 400 if request.method == "POST" else 200
    return render(request, "teaching/join.html", {
        "view": view, "form": form, "classroom": classroom}, status=status)


@login_required
@require_POST
def leave_class(request: HttpRequest, pk: int) -> HttpResponse:
    membership = get_object_or_404(Membership, classroom_id=pk, user=request.user)
    name = membership.classroom.name
    membership.delete()
    messages.success(request, f"You have left “{name}”. Its teachers no longer see your work.")
    return redirect(reverse("accounts:account") + "#classes")
