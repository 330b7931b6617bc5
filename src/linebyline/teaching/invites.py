"""Invite links that make someone a teacher: staff make them (/teach/invites/), the person they
send one to opens it signed in and accepts (/teach/invite/TOKEN/). See roles.py."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from .forms import InviteForm
from .models import TeacherInvite
from .roles import INVITE_DAYS, InviteProblem, accept_invite, find_invite, is_teacher, new_invite
from .views import course_view, not_a_teacher


def invite_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("teach-invite", args=[token]))


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def invites(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        return not_a_teacher(request)
    form = InviteForm(request.POST if request.method == "POST" else None)
    link = ""
    if request.method == "POST" and form.is_valid():
        _, token = new_invite(request.user, form.cleaned_data["note"])
        link = invite_url(request, token)  # shown on this answer only: only its digest is kept
        form = InviteForm()
    recent = TeacherInvite.objects.select_related("created_by", "used_by")[:20]
    return render(request, "teaching/invites.html", {
        "view": course_view(), "form": form, "link": link, "invites": recent, "days": INVITE_DAYS,
        "now": timezone.now()}, status=400 if request.method == "POST" and not link else 200)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def accept(request: HttpRequest, token: str) -> HttpResponse:
    problem = ""
    try:
        invite = find_invite(token)
    except InviteProblem as error:
        invite, problem = None, str(error)
    if invite is not None and request.method == "POST":
        try:
            accept_invite(token, request.user)
        except InviteProblem as error:
            problem = str(error)
        else:
            messages.success(request, "You are a teacher now: create your first class below.")
            return redirect("teach")
    return render(request, "teaching/invite.html", {
        "view": course_view(), "invite": invite, "problem": problem,
        "already": is_teacher(request.user)}, status=400 if problem else 200)
