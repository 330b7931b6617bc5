"""django-allauth's account views (sign up, sign in and out, e-mail confirmation, passwords)
inside the site's pages, whose header needs the course: each one puts the course view in its
context, where Django's class-based views put themselves."""
from __future__ import annotations

from allauth.account import views as allauth
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..web.pages import current


class CoursePage:
    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["view"] = current.get()
        return context


def _paused(form) -> bool:
    """Whether allauth refused the sign-in because of too many wrong passwords."""
    return any(error.code == "too_many_login_attempts" for error in form.non_field_errors().as_data())


class SignIn(CoursePage, allauth.LoginView):
    def form_invalid(self, form) -> HttpResponse:
        response = super().form_invalid(form)
        if _paused(form):
            response.status_code = 429  # said on the page too; a script sees it here
        return response


class SignUp(CoursePage, allauth.SignupView):
    def form_valid(self, form) -> HttpResponse:
        response = super().form_valid(form)
        if self.request.user.is_authenticated:
            messages.success(self.request, "Welcome! Your account is made, and the progress in this "
                             "browser is being saved to it.")
        return response


class SignOut(CoursePage, allauth.LogoutView):
    pass


class Inactive(CoursePage, allauth.AccountInactiveView):
    pass


class Email(CoursePage, allauth.EmailView):
    pass


class ConfirmationSent(CoursePage, allauth.EmailVerificationSentView):
    pass


class ConfirmEmail(CoursePage, allauth.ConfirmEmailView):
    pass


class PasswordChange(CoursePage, allauth.PasswordChangeView):
    pass


class PasswordSet(CoursePage, allauth.PasswordSetView):
    pass


class PasswordReset(CoursePage, allauth.PasswordResetView):
    pass


class PasswordResetSent(CoursePage, allauth.PasswordResetDoneView):
    pass


class PasswordResetFromKey(CoursePage, allauth.PasswordResetFromKeyView):
    pass


class PasswordResetFromKeyDone(CoursePage, allauth.PasswordResetFromKeyDoneView):
    pass


class Reauthenticate(CoursePage, allauth.ReauthenticateView):
    pass


def too_many_requests(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """What allauth answers past one of its limits (sign-up, reset, confirmation mails...)."""
    return render(request, "account/too_many_requests.html", {"view": current.get()}, status=429)
