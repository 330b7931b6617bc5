"""Who may teach: staff see every class and everyone's figures; a teacher sees their classes.

Creating a class needs staff status or the "Can add class" permission: `linebyline teacher add`
and a staff member's invite link give it (through the "Teachers" group, roles.py), and so can the
admin. A class's teachers (its creator and the co-teachers they add) all see and manage it.
"""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from .models import Classroom
from .roles import is_teacher


def can_create_classes(user: AbstractBaseUser | AnonymousUser) -> bool:
    return bool(user.is_authenticated and is_teacher(user))


def can_teach(user: AbstractBaseUser | AnonymousUser) -> bool:
    return bool(user.is_authenticated and (can_create_classes(user) or user.classes_taught.exists()))


def taught_classes(user: AbstractBaseUser):
    return Classroom.objects.all() if user.is_staff else Classroom.objects.filter(teachers=user)


def classroom_for(user: AbstractBaseUser | AnonymousUser, pk: int) -> Classroom:
    """The class, if this user teaches it (or is staff); otherwise a 404 that reveals nothing."""
    if not user.is_authenticated:
        raise Http404("No such class")
    try:
        return taught_classes(user).distinct().get(pk=pk)
    except Classroom.DoesNotExist:
        raise Http404("No such class") from None
