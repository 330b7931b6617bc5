from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.sign_up, name="signup"),
    path("login/", views.SignIn.as_view(), name="login"),
    path("logout/", views.SignOut.as_view(), name="logout"),
    path("password/", views.PasswordChange.as_view(), name="password_change"),
    path("password/done/", views.PasswordChangeDone.as_view(), name="password_change_done"),
    path("password/reset/", views.PasswordReset.as_view(), name="password_reset"),
    path("password/reset/sent/", views.PasswordResetDone.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirm.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", views.PasswordResetComplete.as_view(),
         name="password_reset_complete"),
    path("profile/", views.profile, name="profile"),
    path("tokens/", views.create_token, name="create_token"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="revoke_token"),
    path("data.json", views.my_data, name="data"),
    path("set-aside/<int:pk>.json", views.set_aside_download, name="set_aside"),
    path("set-aside/<int:pk>/delete/", views.set_aside_delete, name="set_aside_delete"),
    path("delete/", views.delete_account, name="delete"),
]
