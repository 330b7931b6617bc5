"""Cookies marked Secure when the request came over HTTPS (directly, or through the trusted proxy
whose X-Forwarded-Proto `serve` believes), so a session cookie set over HTTPS is never sent back
over plain HTTP; on plain-HTTP deployments (one machine, a classroom network) sign-in still works."""
from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class SecureCookiesOverHttps:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.is_secure():
            for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
                if name in response.cookies:
                    response.cookies[name]["secure"] = True
        return response
