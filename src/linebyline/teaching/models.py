"""Classes (a teacher, a join code, learners) and what learners do in the Build part.

Events come from signed-in and anonymous learners alike. An anonymous learner is known only by a
random id their browser made up (no address, no name); a signed-in one by their account, and
their events go with it when the account is deleted.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

# Join codes avoid letters and digits that look alike (0/O, 1/I/L), so they can be read aloud.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What a learner typed ("k7qx-m3pd ") as a stored code ("K7QXM3PD")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


class Classroom(models.Model):
    """A class: its teachers see what its learners do in the course, per learner and per lesson."""

    name = models.CharField(max_length=100)
    course = models.SlugField(max_length=60)
    join_code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_join_code)
    # The code a new one replaced, so that "Make a new join code" can be undone.
    previous_code = models.CharField(max_length=CODE_LENGTH, blank=True)
    teachers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="classes_taught")
    learners = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership",
                                      related_name="classes_joined")
    created = models.DateTimeField(auto_now_add=True)
    archived = models.DateTimeField(null=True, blank=True,
                                    help_text="an archived class takes no one new; its figures stop here")
    stuck_failures = models.PositiveSmallIntegerField(
        default=3, help_text="a learner who failed the same check this many times is stuck")
    stuck_hours = models.PositiveSmallIntegerField(
        default=24, help_text="a learner who has not passed a lesson this long after starting it is stuck")

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "class"
        verbose_name_plural = "classes"

    def __str__(self) -> str:
        return self.name

    @property
    def shown_code(self) -> str:
        return shown_code(self.join_code)


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


class Membership(models.Model):
    """A learner in a class. A learner a teacher removed stays, as "left": the class keeps what
    they did until then, and the teacher can add them back. A learner who leaves by themselves
    takes their work out of the class (the row goes)."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    joined = models.DateTimeField(auto_now_add=True)
    left = models.DateTimeField(null=True, blank=True, help_text="when a teacher removed them")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["classroom", "user"], name="one_membership")]

    def __str__(self) -> str:
        return f"{self.user} in {self.classroom}"


class LearningEvent(models.Model):
    """One thing a learner did in a lesson's Build part."""

    START, CHECK, HINT, CODEALONG, SOLUTION = "start", "check", "hint", "codealong", "solution"
    KINDS = [(START, "started the exercise"), (CHECK, "checked their code"),
             (HINT, "revealed a hint"), (CODEALONG, "opened the code-along"),
             (SOLUTION, "revealed the solution")]

    course = models.SlugField(max_length=60)
    lesson = models.CharField(max_length=10)
    kind = models.CharField(max_length=12, choices=KINDS)
    # "u<id>" for an account, "b<random id>" for a browser: who did it, in a form SQL can count.
    learner = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE)
    # The browser's own id for the event: a batch sent twice (a retry whose answer was lost, a
    # page that resends what it kept) is stored once.
    client_id = models.CharField(max_length=32, blank=True)
    status = models.CharField(max_length=16, blank=True, help_text="a check's overall result")
    passed = models.PositiveSmallIntegerField(null=True, blank=True, help_text="checks passed")
    total = models.PositiveSmallIntegerField(null=True, blank=True, help_text="checks in the run")
    hint = models.PositiveSmallIntegerField(null=True, blank=True, help_text="hints shown now")
    # The code checked: kept for signed-in learners only (their teachers see it, and it goes
    # with their account), never for an anonymous browser.
    code = models.TextField(blank=True)
    # When the learner did it (the browser says how long ago; a batch may wait while offline).
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["course", "lesson", "kind", "learner"]),
                   models.Index(fields=["course", "learner"]),
                   models.Index(fields=["user", "course"])]
        constraints = [models.UniqueConstraint(fields=["learner", "client_id"], condition=~Q(client_id=""),
                                               name="one_event_per_client_id")]

    def __str__(self) -> str:
        return f"{self.learner} {self.kind} {self.lesson}"


class CheckFailure(models.Model):
    """A check that did not pass in a checked run, with the message the learner saw.

    Only the run's first failing check is a failure of its own (`first`): the checks after it
    often fail because of it ("fix the check above first", "Not run: ..."), so the class's
    figures count first failures only (see failures.py), and the learner's page shows them all."""

    event = models.ForeignKey(LearningEvent, on_delete=models.CASCADE, related_name="failures")
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=16)
    message = models.CharField(max_length=500, blank=True)
    first = models.BooleanField(default=True, help_text="the run's first check that did not pass")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="one_failure_per_check")]

    def __str__(self) -> str:
        return f"{self.name}: {self.status}"


class TeacherInvite(models.Model):
    """A link a staff member sends to make someone a teacher: used once, before it expires.
    Only a digest of its token is kept, so the database holds nothing that works as a link."""

    digest = models.CharField(max_length=64, unique=True)
    note = models.CharField(max_length=100, blank=True, help_text="who it is for")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"invite {self.note or self.pk}"
