"""Changing a class, for its teachers (no admin needed): its name and when a learner counts as
stuck, co-teachers, archiving and deleting it, a new join code, removing a learner and adding them
back. Whatever loses something asks first (a page that says what will happen, then a button), and
what can be undone is offered right after, on the class's page."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from .access import classroom_for
from .forms import ClassSettingsForm, CoTeacherForm, DeleteClassForm
from .models import Classroom, Membership, new_join_code, shown_code
from .views import course_view


def _settings_page(request: HttpRequest, classroom: Classroom, form: ClassSettingsForm | None = None,
                   teacher_form: CoTeacherForm | None = None, status: int = 200) -> HttpResponse:
    return render(request, "teaching/settings.html", {
        "view": course_view(), "classroom": classroom,
        "form": form or ClassSettingsForm(instance=classroom),
        "teacher_form": teacher_form or CoTeacherForm(),
        "teachers": classroom.teachers.order_by("username")}, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def class_settings(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    if request.method != "POST":
        return _settings_page(request, classroom)
    form = ClassSettingsForm(request.POST, instance=classroom)
    if not form.is_valid():
        return _settings_page(request, classroom, form=form, status=400)
    old = Classroom.objects.get(pk=pk).name
    form.save()
    said = f"Renamed “{old}” to “{classroom.name}”." if old != classroom.name else "Saved."
    messages.success(request, said)
    return redirect("teach-settings", pk=pk)


@login_required
@require_POST
def add_teacher(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    form = CoTeacherForm(request.POST)
    if not form.is_valid():
        return _settings_page(request, classroom, teacher_form=form, status=400)
    person = form.cleaned_data["user"]
    if classroom.teachers.filter(pk=person.pk).exists():
        messages.info(request, f"{person.get_username()} already teaches “{classroom.name}”.")
    else:
        classroom.teachers.add(person)
        messages.success(request, f"{person.get_username()} now teaches “{classroom.name}” with you: "
                                  "they see it under Teach.")
    return redirect("teach-settings", pk=pk)


@login_required
@require_POST
def remove_teacher(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    person = get_object_or_404(classroom.teachers, pk=user_id)
    with transaction.atomic():
        if classroom.teachers.count() <= 1:
            messages.error(request, "A class needs a teacher: add another one before you remove "
                                    f"{person.get_username()}, or delete the class.")
            return redirect("teach-settings", pk=pk)
        classroom.teachers.remove(person)
    if person == request.user:
        messages.success(request, f"You no longer teach “{classroom.name}”.")
        return redirect("teach")
    messages.success(request, f"{person.get_username()} no longer teaches “{classroom.name}”.")
    return redirect("teach-settings", pk=pk)


@login_required
@require_POST
def archive(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    if classroom.archived is None:
        classroom.archived = timezone.now()
        classroom.save(update_fields=["archived"])
        messages.success(request, f"“{classroom.name}” is archived: its join code no longer works, "
                                  "and its figures stay as they are now. You can bring it back.")
    return redirect("teach-class", pk=pk)


@login_required
@require_POST
def unarchive(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    if classroom.archived is not None:
        classroom.archived = None
        classroom.save(update_fields=["archived"])
        messages.success(request, f"“{classroom.name}” is back: its join code works again.")
    return redirect("teach-class", pk=pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def delete_class(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    form = DeleteClassForm(classroom, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        name = classroom.name
        classroom.delete()
        messages.success(request, f"“{name}” is deleted. What its learners did stays in their own "
                                  "accounts.")
        return redirect("teach")
    return render(request, "teaching/delete.html", {"view": course_view(), "classroom": classroom,
                                                    "form": form},
                  status=400 if request.method == "POST" else 200)


def _confirm(request: HttpRequest, classroom: Classroom, **context) -> HttpResponse:
    return render(request, "teaching/confirm.html", {"view": course_view(), "classroom": classroom,
                                                     "back": reverse("teach-class", args=[classroom.pk]),
                                                     **context})


def _save_code(classroom: Classroom, code: str, previous: str) -> bool:
    classroom.join_code, classroom.previous_code = code, previous
    try:
        with transaction.atomic():
            classroom.save(update_fields=["join_code", "previous_code"])
    except IntegrityError:
        return False
    return True


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def new_code(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    if request.method != "POST":
        return _confirm(request, classroom, title="Make a new join code?", button="Make a new join code",
                        action=reverse("teach-new-code", args=[pk]),
                        said=[f"The code {classroom.shown_code} and its join link stop working: anyone "
                              "who has them can no longer join.",
                              "Learners already in the class stay in it. You can undo this right after."])
    old = classroom.join_code
    for _ in range(5):
        if _save_code(classroom, new_join_code(), old):
            messages.success(request, f"The join code is now {classroom.shown_code}; "
                                      f"{shown_code(old)} no longer works.")
            return redirect(reverse("teach-class", args=[pk]) + "?new_code=1#join")
    raise RuntimeError("could not draw an unused join code")


@login_required
@require_POST
def undo_code(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    previous = classroom.previous_code
    if previous and _save_code(classroom, previous, ""):
        messages.success(request, f"The join code is {classroom.shown_code} again.")
    else:
        messages.error(request, "The earlier join code cannot come back; the current one stays.")
    return redirect(reverse("teach-class", args=[pk]) + "#join")


def _membership(classroom: Classroom, user_id: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user"), classroom=classroom, user_id=user_id)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def remove_learner(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    membership = _membership(classroom, user_id)
    name = membership.user.get_username()
    if membership.left is not None:
        messages.info(request, f"{name} has already left “{classroom.name}”.")
        return redirect("teach-class", pk=pk)
    if request.method != "POST":
        return _confirm(request, classroom, title=f"Remove {name} from “{classroom.name}”?",
                        button=f"Remove {name}", action=reverse("teach-remove", args=[pk, user_id]),
                        said=[f"{name} will be shown as “left”: what they did until now stays in "
                              "the class's figures and on their page, and nothing after it.",
                              "They can join again with the join code (make a new one if they should "
                              "not). You can add them back at any time."])
    membership.left = timezone.now()
    membership.save(update_fields=["left"])
    messages.success(request, f"{name} is no longer in “{classroom.name}”.")
    return redirect(reverse("teach-class", args=[pk]) + f"?removed={user_id}")


def _back(request: HttpRequest, fallback: str) -> str:
    wanted = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                       require_https=request.is_secure()):
        return wanted
    return fallback


@login_required
@require_POST
def add_back(request: HttpRequest, pk: int, user_id: int) -> HttpResponse:
    classroom = classroom_for(request.user, pk)
    membership = _membership(classroom, user_id)
    if membership.left is None:
        raise Http404("This learner is in the class")
    membership.left = None
    membership.save(update_fields=["left"])
    messages.success(request, f"{membership.user.get_username()} is back in “{classroom.name}”.")
    return redirect(_back(request, reverse("teach-class", args=[pk])))

