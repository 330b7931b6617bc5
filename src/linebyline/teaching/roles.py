"""Who teaches, without the admin: the "Teachers" group holds the permission to create classes
("Can add class"). `linebyline teacher add USERNAME` puts an account in it, and so does an invite
link a staff member makes (TeacherInvite: a random token, kept as a digest, used once)."""
from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group, Permission
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import TeacherInvite

GROUP = "Teachers"
INVITE_DAYS = 14


def _can_add_classes() -> Permission:
    return Permission.objects.get(content_type__app_label="teaching", codename="add_classroom")


def teachers_group() -> Group:
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(_can_add_classes())
    return group


def is_teacher(user: AbstractBaseUser) -> bool:
    return bool(user.is_staff or user.has_perm("teaching.add_classroom"))


def make_teacher(user: AbstractBaseUser) -> bool:
    """Let `user` create classes; False when they already could."""
    if is_teacher(user):
        return False
    user.groups.add(teachers_group())
    return True


def stop_teaching(user: AbstractBaseUser) -> bool:
    """Take away what make_teacher gave (the classes they teach stay theirs); False if it was
    not there. Staff, and a permission given in the admin, are the admin's to change."""
    group = Group.objects.filter(name=GROUP).first()
    if group is None or not user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.remove(group)
    return True


def teachers() -> QuerySet:
    """Everyone who can create classes, by user name."""
    permission = _can_add_classes()
    can = Q(is_staff=True) | Q(user_permissions=permission) | Q(groups__permissions=permission)
    return get_user_model().objects.filter(can, is_active=True).distinct().order_by("username")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_invite(created_by: AbstractBaseUser | None, note: str = "",
               days: int = INVITE_DAYS) -> tuple[TeacherInvite, str]:
    """An invite and its token (shown once, never stored)."""
    token = secrets.token_urlsafe(24)
    invite = TeacherInvite.objects.create(digest=_digest(token), note=note, created_by=created_by,
                                          expires=timezone.now() + timedelta(days=days))
    return invite, token


class InviteProblem(Exception):
    """The invite cannot be used; the message says why."""


def find_invite(token: str) -> TeacherInvite:
    invite = TeacherInvite.objects.filter(digest=_digest(token)).first()
    if invite is None:
        raise InviteProblem("This invite link is not one we made: check that it was copied whole.")
    if invite.used is not None:
        raise InviteProblem("This invite link has been used already. Ask for a new one.")
    if invite.expires <= timezone.now():
        raise InviteProblem("This invite link has expired. Ask for a new one.")
    return invite


def accept_invite(token: str, user: AbstractBaseUser) -> TeacherInvite:
    with transaction.atomic():
        invite = find_invite(token)
        # Used once: only the request that marks it used may go on.
        marked = TeacherInvite.objects.filter(pk=invite.pk, used=None).update(used=timezone.now(),
                                                                              used_by=user)
        if not marked:
            raise InviteProblem("This invite link has been used already. Ask for a new one.")
        make_teacher(user)
    return invite


def find_account(name: str) -> AbstractBaseUser | None:
    """The active account called `name`: exactly, else the one whose name matches in any case."""
    User = get_user_model()
    exact = User.objects.filter(username=name, is_active=True).first()
    if exact is not None:
        return exact
    loose = list(User.objects.filter(username__iexact=name, is_active=True)[:2])
    return loose[0] if len(loose) == 1 else None
