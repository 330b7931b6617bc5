"""The account page under /accounts/: name, e-mail address, terminal tokens, progress set aside,
"download my data", "delete my account". Signing up and in, e-mail and passwords are
django-allauth's (auth_views.py)."""
from __future__ import annotations

import json

from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from ..web.models import LessonFeedback
from ..web.pages import current
from .contributions import data_of
from .forms import ConfirmPasswordForm, ProfileForm, TokenForm
from .models import MAX_TOKENS, AccessToken, ProgressDocument, SetAsideProgress


def page(request: HttpRequest, template: str, context: dict | None = None,
         status: int = 200) -> HttpResponse:
    return render(request, template, {**(context or {}), "view": current.get()}, status=status)


@never_cache
@login_required
def account(request: HttpRequest, new_token: str = "", token_form: TokenForm | None = None,
            profile_form: ProfileForm | None = None) -> HttpResponse:
    tokens = request.user.access_tokens.all()
    return page(request, "accounts/account.html", {
        "profile_form": profile_form or ProfileForm(instance=request.user),
        "token_form": token_form or TokenForm(),
        "tokens": tokens, "new_token": new_token, "max_tokens": MAX_TOKENS,
        "server_url": request.build_absolute_uri("/").rstrip("/"),
        "set_aside": request.user.progress_set_aside.all(),
        "addresses": EmailAddress.objects.filter(user=request.user).order_by("-primary", "email"),
    })


@require_POST
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST, instance=request.user)
    if not form.is_valid():
        return account(request, profile_form=form)
    form.save()
    messages.success(request, "Saved.")
    return redirect("accounts:account")


@require_POST
@login_required
def create_token(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST)
    if form.is_valid() and request.user.access_tokens.count() >= MAX_TOKENS:
        form.add_error(None, f"You have {MAX_TOKENS} tokens, the most an account can have: "
                       "revoke one you no longer use first.")
    if not form.is_valid():
        return account(request, token_form=form)
    _, token = AccessToken.issue(request.user, form.cleaned_data["name"])
    # Shown on this answer only: it is not stored, so a reload cannot show it again.
    return account(request, new_token=token)


@require_POST
@login_required
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    token = get_object_or_404(AccessToken, pk=pk, user=request.user)
    token.delete()
    messages.success(request, f"The token “{token.name}” is revoked: the terminal that used it is "
                     "signed out.")
    return redirect("accounts:account")


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def _set_aside_document(part: SetAsideProgress) -> dict:
    """A progress document (the course page imports it) that also says why it was set aside."""
    return {"format": "linebyline-progress", "version": 2, "course": part.course,
            "lessons": json.loads(part.lessons),
            "setAside": {"reason": part.reason, "when": _iso(part.created)}}


def _json_download(data: dict, filename: str) -> HttpResponse:
    response = HttpResponse(json.dumps(data, indent=2, ensure_ascii=False),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@never_cache
@login_required
def set_aside_download(request: HttpRequest, pk: int) -> HttpResponse:
    part = get_object_or_404(SetAsideProgress, pk=pk, user=request.user)
    return _json_download(_set_aside_document(part),
                          f"linebyline-set-aside-{part.course}-{part.pk}.json")


@require_POST
@login_required
def set_aside_delete(request: HttpRequest, pk: int) -> HttpResponse:
    get_object_or_404(SetAsideProgress, pk=pk, user=request.user).delete()
    messages.success(request, "The progress that was set aside is deleted.")
    return redirect(reverse("accounts:account") + "#data")


@never_cache
@login_required
def my_data(request: HttpRequest) -> HttpResponse:
    """Everything the server keeps about the learner, as one JSON file."""
    user = request.user
    data = {
        "format": "linebyline-account-data", "exported": timezone.now().isoformat(),
        "account": {"username": user.get_username(), "name": user.first_name,
                    "email": user.email,
                    "email_addresses": [{"email": a.email, "confirmed": a.verified}
                                        for a in EmailAddress.objects.filter(user=user)],
                    "joined": _iso(user.date_joined),
                    "last_sign_in": _iso(user.last_login)},
        "progress": [{"format": "linebyline-progress", "version": 2, "course": doc.course,
                      "updated": _iso(doc.updated), "lessons": json.loads(doc.lessons),
                      **({"settings": json.loads(doc.settings)}
                         if doc.settings and doc.settings != "{}" else {})}
                     for doc in ProgressDocument.objects.filter(user=user).order_by("course")],
        "progress_set_aside": [_set_aside_document(part) for part in user.progress_set_aside.all()],
        "feedback": [{"course": f.course, "lesson": f.lesson, "clear": f.clear,
                      "comment": f.comment, "created": _iso(f.created)}
                     for f in LessonFeedback.objects.filter(user=user).order_by("created")],
        "terminal_tokens": [{"name": t.name, "starts_with": t.hint, "created": _iso(t.created),
                             "last_used": _iso(t.last_used)} for t in user.access_tokens.all()],
        **data_of(user),  # from the teaching app: the classes joined, what the pages recorded
    }
    return _json_download(data, f"linebyline-data-{user.pk}.json")


@never_cache
@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    form = ConfirmPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        with transaction.atomic():
            # Feedback would outlive the account (it is kept, anonymous, for the course): the
            # learner asked for their data to go, so their comments go too.
            LessonFeedback.objects.filter(user=user).delete()
            user.delete()  # progress and tokens go with it (CASCADE)
        logout(request)
        messages.success(request, "Your account and everything kept with it are deleted.")
        return redirect("home")
    return page(request, "accounts/delete.html", {"form": form})
