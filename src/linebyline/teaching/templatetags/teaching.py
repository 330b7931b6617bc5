"""The learner's classes, shown on the account page (the accounts app's): the classes they teach,
the ones they are in (a removed learner's too, with a button to take their work out), a form to
join one with a code, and a button to leave each."""
from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from ..forms import JoinForm
from ..models import Classroom, Membership

register = template.Library()


@register.inclusion_tag("teaching/_your_classes.html", takes_context=True)
def your_classes(context: template.Context) -> dict[str, object]:
    request = context["request"]
    memberships = (Membership.objects.filter(user=request.user).select_related("classroom")
                   .prefetch_related("classroom__teachers").order_by("classroom__name"))
    taught = Classroom.objects.filter(teachers=request.user).order_by("archived", "name")
    return {"memberships": memberships, "taught": taught, "form": JoinForm(),
            "csrf_token": context.get("csrf_token")}


@register.filter
def lasted(since: datetime) -> str:
    """How long ago `since` was ("3 days"), or nothing within the last minute."""
    return timesince(since) if timezone.now() - since >= timedelta(minutes=1) else ""
