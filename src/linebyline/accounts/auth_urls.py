"""django-allauth's URLs (its names, which it reverses itself), served by the site's pages."""
from django.urls import path, re_path
from django.views.generic import RedirectView

from . import auth_views as views

urlpatterns = [
    path("login/", views.SignIn.as_view(), name="account_login"),
    path("logout/", views.SignOut.as_view(), name="account_logout"),
    path("inactive/", views.Inactive.as_view(), name="account_inactive"),
    path("signup/", views.SignUp.as_view(), name="account_signup"),
    path("reauthenticate/", views.Reauthenticate.as_view(), name="account_reauthenticate"),
    path("email/", views.Email.as_view(), name="account_email"),
    path("confirm-email/", views.ConfirmationSent.as_view(), name="account_email_verification_sent"),
    re_path(r"^confirm-email/(?P<key>[-:\w]+)/$", views.ConfirmEmail.as_view(),
            name="account_confirm_email"),
    path("password/", RedirectView.as_view(pattern_name="account_change_password")),  # the old URL
    path("password/change/", views.PasswordChange.as_view(), name="account_change_password"),
    path("password/set/", views.PasswordSet.as_view(), name="account_set_password"),
    path("password/reset/", views.PasswordReset.as_view(), name="account_reset_password"),
    path("password/reset/done/", views.PasswordResetSent.as_view(), name="account_reset_password_done"),
    re_path(r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
            views.PasswordResetFromKey.as_view(), name="account_reset_password_from_key"),
    path("password/reset/key/done/", views.PasswordResetFromKeyDone.as_view(),
         name="account_reset_password_from_key_done"),
]
