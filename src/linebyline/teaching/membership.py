"""Learners joining and leaving a class (/classes/...; a learner's classes are listed, with a join
form, on their account page). Joining says what the class's teachers will see; leaving takes the
learner's work out of the class."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from .forms import JoinForm
from .models import Classroom, Membership
from .views import course_view

JOIN_RATE = "20/h"  # per account: a code cannot be guessed by trying


def _join(request: HttpRequest, classroom: Classroom) -> str:
    membership, made = Membership.objects.get_or_create(classroom=classroom, user=request.user)
    if made:
        return f"You have joined “{classroom.name}”."
    if membership.left is not None:
        membership.left = None
        membership.save(update_fields=["left"])
        return f"You have joined “{classroom.name}” again."
    return f"You are already in “{classroom.name}”."


def _tried_too_many_codes(request: HttpRequest) -> bool:
    """One limiter for every code tried, whether by the join page (?code=...) or its form: the
    page names the class a right code belongs to, so it must not be a cheaper way to guess."""
    return is_ratelimited(request, group="join-class", key="user", rate=JOIN_RATE, increment=True)


@login_required
def join_class(request: HttpRequest) -> HttpResponse:
    view = course_view()
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
        elif classroom.archived is not None:
            form.add_error("code", f"“{classroom.name}” is archived: it takes no new learners. "
                                   "Ask your teacher which class to join.")
            classroom = None
    if request.method == "POST" and classroom is not None:
        messages.success(request, _join(request, classroom))
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
