"""Classes (a teacher, a join code, learners) and what learners do in the Build part.

Events come from signed-in and anonymous learners alike. An anonymous learner is known only by a
random id their browser made up (no address, no name); a signed-in one by their account, and
their events go with it when the account is deleted.
"""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

# Join codes avoid letters and digits that look alike (0/O, 1/I/L), so they can be read aloud.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What a learner typed ("k7qx-m3pd ") as a stored code ("K7QXM3PD")."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


class Classroom(models.Model):
    """A class: its teachers see what its learners do in the course, as totals per lesson."""

    name = models.CharField(max_length=100)
    course = models.SlugField(max_length=60)
    join_code = models.CharField(max_length=CODE_LENGTH, unique=True, default=new_join_code)
    teachers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="classes_taught")
    learners = models.ManyToManyField(settings.AUTH_USER_MODEL, through="Membership",
                                      related_name="classes_joined")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = "class"
        verbose_name_plural = "classes"

    def __str__(self) -> str:
        return self.name

    @property
    def shown_code(self) -> str:
        return f"{self.join_code[:4]}-{self.join_code[4:]}"


class Membership(models.Model):
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    joined = models.DateTimeField(auto_now_add=True)

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
    status = models.CharField(max_length=16, blank=True, help_text="a check's overall result")
    hint = models.PositiveSmallIntegerField(null=True, blank=True, help_text="hints shown now")
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["course", "lesson", "kind", "learner"]),
                   models.Index(fields=["course", "learner"])]

    def __str__(self) -> str:
        return f"{self.learner} {self.kind} {self.lesson}"


class CheckFailure(models.Model):
    """A check that did not pass in a checked run (not those left unrun by an earlier error)."""

    event = models.ForeignKey(LearningEvent, on_delete=models.CASCADE, related_name="failures")
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=16)
    message = models.CharField(max_length=500, blank=True)

    def __str__(self) -> str:
        return f"{self.name}: {self.status}"
