"""What an account keeps: its progress per course, and the tokens its terminals sign in with."""
from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models

TOKEN_PREFIX = "lbl_"
MAX_TOKENS = 20  # per account: a terminal on each machine, with room to spare


class ProgressDocument(models.Model):
    """A learner's progress in one course: the lessons and settings of a version-2 progress
    document.

    Kept as JSON text, not a JSON column: a draft may hold any character (even NUL, which
    PostgreSQL's jsonb refuses), and the server only ever reads and writes it whole. `revision`
    grows with every write, so two requests merging at once cannot overwrite each other."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="progress_documents")
    course = models.SlugField(max_length=60)
    lessons = models.TextField(default="{}")
    # The learner's settings for the course (progress.merge.read_settings), as JSON text.
    settings = models.TextField(default="{}")
    revision = models.PositiveBigIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "course"],
                                               name="one_progress_document_per_course")]

    def __str__(self) -> str:
        return f"{self.user} in {self.course}"


class SetAsideProgress(models.Model):
    """Parts of an account's progress the course cannot take (a lesson it does not have, or one
    that no longer reads), moved out of its progress document instead of being dropped: the
    account page offers them as a download until the learner deletes them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="progress_set_aside")
    course = models.SlugField(max_length=60)
    lessons = models.TextField(help_text="the lessons set aside, as JSON, by number")
    reason = models.CharField(max_length=300)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name_plural = "progress set aside"

    def __str__(self) -> str:
        return f"{self.user} in {self.course}: {self.reason}"


def token_digest(token: str) -> str:
    # Tokens are 256 random bits: a plain SHA-256 is enough to keep the database from holding
    # anything that works as a token (a slow hash is for guessable passwords).
    return hashlib.sha256(token.encode()).hexdigest()


class AccessToken(models.Model):
    """A personal token a learner creates on their account page for `linebyline login`; shown
    once, stored as a digest, revocable."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="access_tokens")
    name = models.CharField(max_length=60)
    digest = models.CharField(max_length=64, unique=True)
    hint = models.CharField(max_length=12, help_text="the token's first characters, to tell it apart")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    @classmethod
    def issue(cls, user, name: str) -> tuple[AccessToken, str]:
        """A new token for `user`; the token itself is returned once and never stored."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        made = cls.objects.create(user=user, name=name, digest=token_digest(token),
                                  hint=token[:len(TOKEN_PREFIX) + 4])
        return made, token
