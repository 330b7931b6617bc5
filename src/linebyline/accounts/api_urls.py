from django.urls import path

from . import api

app_name = "api"

urlpatterns = [
    path("progress/", api.progress, name="progress"),
    path("account/", api.account, name="account"),
    path("token/", api.token, name="token"),
    path("openapi.json", api.openapi, name="openapi"),
]
