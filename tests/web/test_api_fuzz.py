"""The API fuzzed from its own OpenAPI description: schemathesis turns /api/openapi.json into
requests (valid and invalid bodies, queries, headers), Hypothesis drives them, and whatever
arrives, signed in or not, the answer is never a 5xx, always JSON. Real database.

Examples per operation: LINEBYLINE_FUZZ_EXAMPLES (CI: 60; run more by setting it)."""
from __future__ import annotations

import json
import os
from urllib.parse import urlencode

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.core import NotSet

from linebyline.accounts.models import AccessToken
from linebyline.accounts.openapi import description

SCHEMA = schemathesis.openapi.from_dict(description())
EXAMPLES = int(os.environ.get("LINEBYLINE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
OPERATIONS = [(path, method.upper()) for path, methods in description()["paths"].items()
              for method in methods]


@pytest.fixture
def learner(db) -> tuple[User, str]:
    user = User.objects.create_user("fuzzed", password="a long passphrase 3")
    return user, AccessToken.issue(user, "fuzz")[1]


def send(client: Client, case, headers: dict[str, str]):
    path = case.formatted_path + (f"?{urlencode(case.query, doseq=True)}" if case.query else "")
    extra = {f"HTTP_{name.upper().replace('-', '_')}": str(value)
             for name, value in {**(case.headers or {}), **headers}.items()}
    body = case.body
    data = "" if isinstance(body, NotSet) else body if isinstance(body, str | bytes) else json.dumps(body)
    return client.generic(case.method, path, data, content_type=case.media_type or "application/json",
                          **extra)


@pytest.mark.parametrize("path, method", OPERATIONS)
def test_no_request_the_description_allows_or_breaks_gets_a_5xx(learner, path, method):
    user, token = learner
    strategy = SCHEMA[path][method].as_strategy()
    # Who asks: a valid token, a signed-in browser session (CSRF enforced), or nobody at all.
    asker = st.sampled_from(["token", "session", "nobody"])
    learner_token = [token]  # replaced when a fuzzed DELETE /api/token/ revokes it

    @FUZZ
    @given(case=strategy, who=asker)
    def fuzz(case, who):
        cache.clear()  # the sync rate limit would turn most of the run into 429s
        if not AccessToken.objects.filter(user=user).exists():
            learner_token[0] = AccessToken.issue(user, "fuzz")[1]
        client = Client(enforce_csrf_checks=True)
        headers = {}
        if who == "token":
            headers["Authorization"] = f"Bearer {learner_token[0]}"
        elif who == "session":
            client.force_login(user)
        response = send(client, case, headers)
        shown = f"{case.method} {case.formatted_path} {case.query} {str(case.body)[:300]!r}"
        assert response.status_code < 500, f"{response.status_code} for {shown}"
        if response.status_code != 204:
            assert response["Content-Type"].startswith("application/json"), shown
            json.loads(response.content)

    fuzz()
