"""What the teaching app keeps about a learner, for their "download my data" file."""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from .models import LearningEvent, Membership


def learner_data(user: AbstractBaseUser) -> dict[str, list[dict]]:
    classes = [{"class": m.classroom.name, "course": m.classroom.course, "joined": m.joined.isoformat()}
               for m in Membership.objects.filter(user=user).select_related("classroom").order_by("joined")]
    events = [{"course": e.course, "lesson": e.lesson, "kind": e.kind, "status": e.status or None,
               "hint": e.hint, "at": e.created.isoformat(),
               "failed_checks": [{"name": f.name, "status": f.status, "message": f.message}
                                 for f in e.failures.all()]}
              for e in LearningEvent.objects.filter(user=user).prefetch_related("failures").order_by("id")]
    return {"classes": classes, "learning_events": events}
