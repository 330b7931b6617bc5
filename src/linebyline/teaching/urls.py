from django.urls import path, re_path
from django.views.decorators.cache import never_cache

from . import events, invites, manage, membership, views

NUMBER = r"(?P<number>\d+\.\d+)"
CLASS = "teach/classes/<int:pk>/"

urlpatterns = [
    path("events/", events.receive, name="events"),
    path("teach/", views.teach_home, name="teach"),
    path("teach/classes/new/", views.create_class, name="teach-create"),
    path(CLASS, views.class_overview, name="teach-class"),
    re_path(rf"^teach/classes/(?P<pk>\d+)/lessons/{NUMBER}/$", views.class_lesson, name="teach-class-lesson"),
    path(CLASS + "learners/<int:user_id>/", views.learner_page, name="teach-learner"),
    path(CLASS + "grid.csv", views.grid_csv, name="teach-grid-csv"),
    path(CLASS + "attempts.csv", views.attempts_csv, name="teach-attempts-csv"),
    path(CLASS + "settings/", manage.class_settings, name="teach-settings"),
    path(CLASS + "teachers/", manage.add_teacher, name="teach-add-teacher"),
    path(CLASS + "teachers/<int:user_id>/remove/", manage.remove_teacher, name="teach-remove-teacher"),
    path(CLASS + "archive/", manage.archive, name="teach-archive"),
    path(CLASS + "unarchive/", manage.unarchive, name="teach-unarchive"),
    path(CLASS + "delete/", manage.delete_class, name="teach-delete"),
    path(CLASS + "code/", manage.new_code, name="teach-new-code"),
    path(CLASS + "code/undo/", manage.undo_code, name="teach-undo-code"),
    path(CLASS + "learners/<int:user_id>/remove/", manage.remove_learner, name="teach-remove"),
    path(CLASS + "learners/<int:user_id>/add-back/", manage.add_back, name="teach-add-back"),
    path("teach/everyone/", views.everyone_overview, name="teach-everyone"),
    re_path(rf"^teach/everyone/lessons/{NUMBER}/$", views.everyone_lesson, name="teach-everyone-lesson"),
    path("teach/invites/", invites.invites, name="teach-invites"),
    path("teach/invite/<str:token>/", invites.accept, name="teach-invite"),
    path("classes/join/", membership.join_class, name="join-class"),
    path("classes/<int:pk>/leave/", membership.leave_class, name="leave-class"),
]

# A teacher's pages and files show learners' names, code and messages: on a shared computer they
# must not stay in the browser's HTTP cache (Cache-Control: private, no-store, and the rest).
for pattern in urlpatterns:
    if str(pattern.pattern).lstrip("^").startswith("teach/"):
        pattern.callback = never_cache(pattern.callback)
