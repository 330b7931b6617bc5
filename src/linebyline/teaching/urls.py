from django.urls import path, re_path

from . import events, views

NUMBER = r"(?P<number>\d+\.\d+)"

urlpatterns = [
    path("events/", events.receive, name="events"),
    path("teach/", views.teach_home, name="teach"),
    path("teach/classes/new/", views.create_class, name="teach-create"),
    path("teach/classes/<int:pk>/", views.class_overview, name="teach-class"),
    re_path(rf"^teach/classes/(?P<pk>\d+)/lessons/{NUMBER}/$", views.class_lesson, name="teach-class-lesson"),
    path("teach/classes/<int:pk>/code/", views.new_code, name="teach-new-code"),
    path("teach/classes/<int:pk>/remove/", views.remove_learner, name="teach-remove"),
    path("teach/everyone/", views.everyone_overview, name="teach-everyone"),
    re_path(rf"^teach/everyone/lessons/{NUMBER}/$", views.everyone_lesson, name="teach-everyone-lesson"),
    path("classes/join/", views.join_class, name="join-class"),
    path("classes/<int:pk>/leave/", views.leave_class, name="leave-class"),
]
