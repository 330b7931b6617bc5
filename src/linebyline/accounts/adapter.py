"""How django-allauth fits this site: the client address it counts by, the key failed sign-ins
are counted under, and messages in the site's words."""
from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The address requests are counted by: the one the server saw, which `serve` takes from the
    trusted proxy's X-Forwarded-For when there is one (never from the client)."""
    return request.META.get("REMOTE_ADDR") or "unknown"


class AccountAdapter(DefaultAccountAdapter):
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": "Too many wrong passwords for this account from here: signing "
                                   "in to it is paused for 15 minutes. Other accounts are not "
                                   "affected. Forgot the password? Reset it below.",
        "username_password_mismatch": "Please enter a correct username and password. Note that "
                                      "both fields may be case-sensitive.",
        "rate_limited": "Too many requests from here: wait a few minutes, then try again.",
    }

    def get_client_ip(self, request: HttpRequest) -> str:
        return client_address(request)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth counts failed sign-ins per key ("5/15m/key") and per address ("150/15m/ip").
        # The key is the username alone by default: five wrong passwords from anywhere would lock
        # the account everywhere, and anyone could lock anyone out. With the client address in
        # it, the five count per (account, address) pair.
        return f"{super()._get_login_attempts_cache_key(request, **credentials)}@{client_address(request)}"
