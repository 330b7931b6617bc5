"""Who is asking: a personal token (`Authorization: Bearer …`, from the CLI) or the browser's
session, which must then pass Django's own CSRF check on anything that changes state."""
from __future__ import annotations

from django.middleware.csrf import CsrfViewMiddleware
from django.utils import timezone

from .models import TOKEN_PREFIX, AccessToken, token_digest


class NotSignedIn(Exception):
    """No valid credentials; the message says what to do."""


class _CsrfCheck(CsrfViewMiddleware):
    def _reject(self, request, reason):  # the reason, instead of Django's HTML page
        return reason


def bearer_token(request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return value.strip()


def authenticate(request) -> tuple[object, AccessToken | None]:
    """The user behind the request and the token used (None for the browser's session)."""
    token = bearer_token(request)
    if token is not None:
        found = None
        if token.startswith(TOKEN_PREFIX) and len(token) < 200:
            found = AccessToken.objects.select_related("user").filter(
                digest=token_digest(token)).first()
        if found is None or not found.user.is_active:
            raise NotSignedIn("this token does not work: it was revoked (a new password revokes "
                              "them all), or mistyped. Create a new one on your account page and "
                              "run `linebyline login` again.")
        now = timezone.now()
        if found.last_used is None or (now - found.last_used).total_seconds() > 60:
            AccessToken.objects.filter(pk=found.pk).update(last_used=now)
        return found.user, found
    if request.user.is_authenticated:
        return request.user, None
    raise NotSignedIn("sign in first: with the browser's session, or a personal token in an "
                      "Authorization: Bearer header")


def csrf_problem(request) -> str | None:
    """Why a session request fails Django's CSRF check, or None when it passes."""
    check = _CsrfCheck(lambda request: None)
    check.process_request(request)
    return check.process_view(request, None, (), {})
