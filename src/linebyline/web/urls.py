from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path, re_path

from . import end, mine, views

LESSON = r"(?P<path>\d+\.\d+-[a-z0-9-]+)"

# Staff sign in through the site's sign-in page, with its limits, not the admin's own form.
admin.site.login = secure_admin_login(admin.site.login)
handler429 = "linebyline.accounts.auth_views.too_many_requests"  # allauth answers with it

urlpatterns = [
    path("", views.home, name="home"),
    re_path(rf"^lessons/{LESSON}/$", views.lesson_page, name="lesson"),
    re_path(rf"^lessons/{LESSON}/checks\.json$", views.checks, name="checks"),
    path("program/", views.program, name="program"),
    path("my-microgpt/", mine.page, name="my-microgpt"),
    path("my-microgpt/assemble", mine.assemble, name="my-microgpt-assemble"),
    path("the-end/", end.page, name="end"),
    path("my-microgpt/course.json", mine.assembler_data, name="my-microgpt-assembler"),
    path("modules/<int:number>/review/", views.module_review, name="review"),
    path("modules/<int:number>/review/checks.json", views.recall_checks, name="recall-checks"),
    re_path(r"^feedback/(?P<number>\d+\.\d+)/$", views.feedback, name="feedback"),
    path("runtime.json", views.runtime_bundle, name="runtime"),
    path("data/input.txt", views.dataset, name="dataset"),
    re_path(r"^scripts/(?P<name>[A-Za-z0-9_]+\.py)$", views.script, name="script"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("next/", views.next_lesson, name="next-lesson"),
    path("offline/", views.offline_notice, name="offline"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.web_manifest, name="web-manifest"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("", include("linebyline.teaching.urls")),
    path("accounts/", include("linebyline.accounts.auth_urls")),  # django-allauth's pages
    path("accounts/", include("linebyline.accounts.urls")),
    path("api/", include("linebyline.accounts.api_urls")),
]
