"""The learner's classes, shown on the account page (the accounts app's): the classes they teach,
the ones they are in (a removed learner's too, with a button to take their work out), a form to
join one with a code, and a button to leave each."""
from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
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


def _cell(number: str, cell, link: str) -> tuple:
    if cell is None:
        return ('<td class="cell none" data-cell="{}" data-state="not-started">'
                '<span class="visually-hidden">not started</span></td>', (number,))
    classes = " ".join(["cell", cell.state] + ["outside"] * bool(cell.outside) + ["stuck"] * bool(cell.stuck))
    runs = cell.shown_runs
    words = cell.words()
    said = words + (f", {runs} run{'s' if runs != 1 else ''}" if runs else "")
    said += ", stuck" if cell.stuck else ""
    title = f"{number}: {words}" + (f", stuck: {cell.stuck.reason()}" if cell.stuck else "")
    mark = format_html("{}{}{}", cell.glyph, format_html("<small>{}</small>", runs) if runs else "",
                       mark_safe('<b class="stuck-mark">!</b>') if cell.stuck else "")
    return ('<td class="{}" data-cell="{}" data-state="{}"><a href="{}#lesson-{}" title="{}">'
            '<span aria-hidden="true">{}</span><span class="visually-hidden">{}</span></a></td>',
            (classes, number, cell.state, link, number, title, mark, said))


@register.simple_tag
def grid_cells(row: dict, classroom) -> SafeString:
    """A learner's cells of the class's grid, in lesson order. Built here rather than in the
    template: for 60 learners in 30 lessons the class page then takes a third less time
    (bench/teach_pages.py: 270 to 180 ms of CPU)."""
    link = reverse("teach-learner", args=[classroom.pk, row["member"].user.pk])
    cells = [_cell(number, cell, link) for number, cell in row["pairs"]]
    return format_html_join("", "{}", ((format_html(markup, *values),) for markup, values in cells))
