"""What the teaching app keeps about a learner, for their "download my data" file."""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from .models import LearningEvent, Membership


def learner_data(user: AbstractBaseUser) -> dict[str, list[dict]]:
    classes = [{"class": m.classroom.name, "course": m.classroom.course, "joined": m.joined.isoformat(),
                "removed": m.left.isoformat() if m.left else None}
               for m in Membership.objects.filter(user=user).select_related("classroom").order_by("joined")]
    mine = LearningEvent.objects.filter(user=user).prefetch_related("failures").order_by("created", "id")
    events = [{"course": e.course, "lesson": e.lesson, "kind": e.kind, "status": e.status or None,
               "checks_passed": e.passed, "checks": e.total, "hint": e.hint, "at": e.created.isoformat(),
               "failed_checks": [{"name": f.name, "status": f.status, "message": f.message,
                                  "first": f.first} for f in e.failures.all()],
               "code": e.code or None}
              for e in mine]
    return {"classes": classes, "learning_events": events}
