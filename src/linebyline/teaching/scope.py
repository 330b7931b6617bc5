"""Whose events and feedback a teacher's page counts: one class's learners, or (for staff) everyone.

A class counts what its learners did: everything of a learner still in it, and of a learner a
teacher removed ("left") what they did until then. An archived class stops where it was archived.
A period (the last 7, 30, 90 days) keeps only what happened in it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet
from django.utils import timezone

from ..course import Course
from ..web.models import LessonFeedback
from .models import Classroom, LearningEvent, Membership

PERIODS = {"7": "the last 7 days", "30": "the last 30 days", "90": "the last 90 days", "all": "all time"}


@dataclass
class Member:
    user: AbstractBaseUser
    joined: datetime
    left: datetime | None

    @property
    def learner(self) -> str:
        return f"u{self.user.pk}"

    @property
    def name(self) -> str:
        return self.user.get_username()

    @property
    def full_name(self) -> str:
        return self.user.get_full_name() or self.user.first_name


@dataclass
class Scope:
    title: str
    course: str
    events: QuerySet
    feedback: QuerySet
    period: str
    since: datetime | None = None
    until: datetime | None = None  # an archived class's end
    classroom: Classroom | None = None
    members: list[Member] = field(default_factory=list)  # a class's learners, left ones last

    @property
    def by_learner(self) -> dict[str, Member]:
        return {member.learner: member for member in self.members}

    def counts(self, moment: datetime | None) -> bool:
        """Whether something that happened at `moment` is inside this scope's time."""
        if moment is None:
            return self.since is None and self.until is None
        return (self.since is None or moment >= self.since) and (self.until is None or moment <= self.until)


def since(period: str) -> datetime | None:
    return None if period == "all" else timezone.now() - timedelta(days=int(period))


def members_of(classroom: Classroom) -> list[Member]:
    rows = (Membership.objects.filter(classroom=classroom).select_related("user")
            .order_by("left", "user__username"))
    people = [Member(m.user, m.joined, m.left) for m in rows]
    return sorted(people, key=lambda m: (m.left is not None, m.name.lower()))


def _whose(members: list[Member]) -> Q:
    """Events (or feedback) of the class's learners: all of those in it, and of those who left,
    what came before they left."""
    staying = [m.user.pk for m in members if m.left is None]
    condition = Q(user_id__in=staying)
    for member in members:
        if member.left is not None:
            condition |= Q(user_id=member.user.pk, created__lte=member.left)
    return condition


def class_scope(classroom: Classroom, period: str) -> Scope:
    members = members_of(classroom)
    whose = _whose(members)
    events = LearningEvent.objects.filter(course=classroom.course).filter(whose)
    feedback = LessonFeedback.objects.filter(course=classroom.course).filter(whose)
    scope = Scope(classroom.name, classroom.course, events, feedback, period,
                  classroom=classroom, members=members, until=classroom.archived)
    return _bounded(scope)


def everyone_scope(course: Course, period: str) -> Scope:
    events = LearningEvent.objects.filter(course=course.slug)
    feedback = LessonFeedback.objects.filter(course=course.slug)
    return _bounded(Scope("Everyone", course.slug, events, feedback, period))


def _bounded(scope: Scope) -> Scope:
    scope.since = since(scope.period)
    if scope.since is not None:
        scope.events = scope.events.filter(created__gte=scope.since)
        scope.feedback = scope.feedback.filter(created__gte=scope.since)
    if scope.until is not None:
        scope.events = scope.events.filter(created__lte=scope.until)
        scope.feedback = scope.feedback.filter(created__lte=scope.until)
    return scope
