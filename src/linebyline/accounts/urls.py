from django.urls import path

from . import auth_views, views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    # The header's links (allauth's own names for these are account_login and account_logout).
    path("login/", auth_views.SignIn.as_view(), name="login"),
    path("logout/", auth_views.SignOut.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("tokens/", views.create_token, name="create_token"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
    path("data.json", views.my_data, name="data"),
    path("set-aside/<int:pk>.json", views.set_aside_download, name="set_aside"),
    path("set-aside/<int:pk>/delete/", views.set_aside_delete, name="set_aside_delete"),
    path("delete/", views.delete_account, name="delete"),
]
