"""Accounts under abuse (issue 23), through Django's test client and a real database: mail goes
to an address only once its owner confirmed it, every mail and sign-up is throttled per address
and per client address, the reset page answers the same for any address, failed sign-ins lock
one (account, address) pair, and a new password ends the account's terminal tokens."""
from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
from allauth.account.models import EmailAddress
from allauth.core.internal import ratelimit
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import Client

from linebyline.accounts.models import AccessToken

PASSWORD = "a long walk by the river"
RESET = "/accounts/password/reset/"
LIMITS = settings.ACCOUNT_RATE_LIMITS


def limit(action: str, per: str) -> int:
    """How many allauth allows for `action` per ip or key, in its first window of that kind."""
    return next(int(rate.split("/")[0]) for rate in LIMITS[action].split(",")
                if rate.endswith(f"/{per}"))


@pytest.fixture(autouse=True)
def fresh_limits(db):
    cache.clear()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """allauth's sliding windows read the time here: a test moves it on instead of waiting."""
    now = [time.time()]
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(
        time=lambda: now[0], monotonic=time.monotonic, sleep=time.sleep))
    return now


def from_address(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def sign_up(client: Client, username: str, email: str = ""):
    return client.post("/accounts/signup/", {
        "username": username, "first_name": "", "email": email,
        "password1": PASSWORD, "password2": PASSWORD})


def sign_in(client: Client, username: str, password: str = PASSWORD):
    return client.post("/accounts/login/", {"login": username, "password": password})


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def confirmed_account(username: str, email: str) -> User:
    user = User.objects.create_user(username, email, PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


# --- 1. no mail bombs, no enumeration ----------------------------------------------------------

def test_sign_up_sends_one_confirmation_and_the_address_gets_no_reset_until_confirmed():
    victim = "victim@example.org"
    signed_up = sign_up(from_address("10.0.0.1"), "ada", victim)
    assert signed_up.status_code == 302
    assert [m.to for m in mail.outbox] == [[victim]]
    assert "Confirm your e-mail address" in mail.outbox[0].subject
    assert not EmailAddress.objects.get(email=victim).verified
    for _ in range(3):
        assert from_address("10.0.0.2").post(RESET, {"email": victim}).status_code == 302
    assert len(mail.outbox) == 1  # an unconfirmed address gets no reset link


def test_sixty_accounts_on_someone_elses_address_send_them_one_mail():
    """The attack: 60 accounts made with someone else's address, then the reset form posted 50
    times in 5 s. It sent 3,050 mails; now one (the first confirmation) reaches that person."""
    victim = "victim@example.org"
    for index in range(60):
        response = sign_up(from_address(f"10.1.{index}.1"), f"mallory{index}", victim)
        assert response.status_code == 302
    for index in range(50):
        from_address(f"10.2.{index}.1").post(RESET, {"email": victim})
    assert [m.to for m in mail.outbox] == [[victim]]


def test_a_confirmed_address_gets_its_reset_links_a_few_an_hour(clock):
    confirmed_account("ada", "ada@example.org")
    per_address = limit("reset_password", "key")
    answers = [from_address(f"10.3.{i}.1").post(RESET, {"email": "ada@example.org"})
               for i in range(per_address + 2)]
    assert [a.status_code for a in answers] == [302] * per_address + [429, 429]
    assert "Too many requests" in answers[-1].content.decode()
    assert len(mail.outbox) == per_address and mail.outbox[0].to == ["ada@example.org"]
    clock[0] += 3600  # an hour on, it may ask again
    assert from_address("10.3.9.1").post(RESET, {"email": "ada@example.org"}).status_code == 302
    assert len(mail.outbox) == per_address + 1


def test_one_client_address_asks_for_a_few_resets_an_hour_whatever_the_address():
    per_client = limit("reset_password", "ip")
    client = from_address("10.4.0.1")
    statuses = [client.post(RESET, {"email": f"someone{i}@example.org"}).status_code
                for i in range(per_client + 1)]
    assert statuses == [302] * per_client + [429]
    assert from_address("10.4.0.2").post(RESET, {"email": "x@example.org"}).status_code == 302


def test_the_reset_page_answers_the_same_for_any_address():
    confirmed_account("ada", "ada@example.org")
    User.objects.create_user("bob", "bob@example.org", PASSWORD)  # never confirmed
    answers = {}
    for index, email in enumerate(["ada@example.org", "bob@example.org", "nobody@example.org"]):
        response = from_address(f"10.5.{index}.1").post(RESET, {"email": email}, follow=True)
        answers[email] = (response.status_code, tuple(response.redirect_chain),
                          response.content.decode().replace(email, "EMAIL"))
    assert len(set(answers.values())) == 1
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]


def test_confirmation_mails_to_one_address_are_throttled(clock):
    victim = "victim@example.org"
    for index in range(5):
        sign_up(from_address(f"10.6.{index}.1"), f"mallory{index}", victim)
    assert len(mail.outbox) == 1
    clock[0] += 3 * 60 + 1
    sign_up(from_address("10.6.9.1"), "mallory9", victim)
    assert len(mail.outbox) == 2


def test_sign_up_is_throttled_per_client_address():
    per_client = limit("signup", "ip")
    school = from_address("10.7.0.1")
    statuses = [sign_up(school, f"learner{i}").status_code for i in range(per_client)]
    assert statuses == [302] * per_client
    school.logout()
    refused = sign_up(school, "one-too-many")
    assert refused.status_code == 429 and "Too many requests" in refused.content.decode()
    assert not User.objects.filter(username="one-too-many").exists()
    assert sign_up(from_address("10.7.0.2"), "elsewhere").status_code == 302


def test_confirming_an_address_by_its_link_then_resetting_the_password():
    client = from_address("10.8.0.1")
    sign_up(client, "ada", "ada@example.org")
    confirm = link_in(mail.outbox[0])
    shown = client.get(confirm)  # a mail scanner opening the link confirms nothing
    assert shown.status_code == 200 and "Yes, confirm it" in shown.content.decode()
    assert not EmailAddress.objects.get(email="ada@example.org").verified
    assert client.post(confirm).status_code == 302
    assert EmailAddress.objects.get(email="ada@example.org").verified

    client.post("/accounts/logout/")
    assert client.post(RESET, {"email": "ada@example.org"}).status_code == 302
    reset = client.get(link_in(mail.outbox[-1]), follow=True)
    form_url = reset.redirect_chain[-1][0]
    done = client.post(form_url, {"password1": "another long walk", "password2": "another long walk"})
    assert done.status_code == 302
    assert sign_in(client, "ada", "another long walk").status_code == 302


def test_another_account_cannot_confirm_an_address_already_confirmed():
    confirmed_account("ada", "ada@example.org")
    client = from_address("10.9.0.1")
    sign_up(client, "mallory", "ada@example.org")
    page = client.get(link_in(mail.outbox[0]))
    assert "Another account has confirmed this address already" in page.content.decode()
    confirmed = EmailAddress.objects.filter(verified=True).values_list("user__username", flat=True)
    assert list(confirmed) == ["ada"]


# --- 4. sign-in lockout per (account, address) -------------------------------------------------

def test_wrong_passwords_lock_one_account_from_one_address_only(clock):
    for name in ("ada", "bob"):
        User.objects.create_user(name, password=PASSWORD)
    school, home = from_address("10.10.0.1"), from_address("10.10.9.9")
    per_pair = limit("login_failed", "key")
    for _ in range(per_pair):
        assert sign_in(school, "ada", "wrong").status_code == 200
    paused = sign_in(school, "ada")  # even the right password, for now
    assert paused.status_code == 429 and "Too many wrong passwords" in paused.content.decode()
    assert sign_in(home, "ada").status_code == 302       # ada, from elsewhere
    assert sign_in(school, "bob").status_code == 302     # the rest of the class
    clock[0] += 15 * 60 + 1
    assert sign_in(from_address("10.10.0.1"), "ada").status_code == 302


def test_a_class_of_thirty_behind_one_address_signs_in_through_its_typos(clock):
    learners = [f"learner{i}" for i in range(30)]
    for name in learners:
        User.objects.create_user(name, password=PASSWORD)
    typos = limit("login_failed", "key") - 1
    for name in learners:
        for _ in range(typos):
            assert sign_in(from_address("10.11.0.1"), name, "wrong").status_code == 200
        clock[0] += 4  # thirty learners, each with four typos, within two minutes
        assert sign_in(from_address("10.11.0.1"), name).status_code == 302, name


def test_one_address_trying_many_accounts_is_stopped(clock):
    per_address = limit("login_failed", "ip")
    client = from_address("10.12.0.1")
    for index in range(per_address):
        sign_in(client, f"guess{index}", "wrong")
        clock[0] += 0.5  # under the per-minute limit on all sign-ins
    User.objects.create_user("ada", password=PASSWORD)
    assert sign_in(client, "ada").status_code == 429


# --- 5. a new password ends the terminal tokens ------------------------------------------------

def api_answer(token: str) -> int:
    return Client().get("/api/account/", HTTP_AUTHORIZATION=f"Bearer {token}").status_code


def test_changing_the_password_ends_the_tokens_and_the_page_said_so():
    user = User.objects.create_user("ada", password=PASSWORD)
    _, token = AccessToken.issue(user, "laptop")
    client = from_address("10.13.0.1")
    assert sign_in(client, "ada").status_code == 302
    account = client.get("/accounts/").content.decode()
    assert "Changing or resetting your password revokes all your tokens" in account
    page = client.get("/accounts/password/change/").content.decode()
    assert "revokes your 1 terminal token" in page
    changed = client.post("/accounts/password/change/", {
        "oldpassword": PASSWORD, "password1": "another long walk", "password2": "another long walk"})
    assert changed.status_code == 302
    assert api_answer(token) == 401 and not AccessToken.objects.exists()
    assert client.get("/accounts/").status_code == 200  # this browser stays signed in


def test_resetting_the_password_ends_the_tokens():
    user = confirmed_account("ada", "ada@example.org")
    _, token = AccessToken.issue(user, "laptop")
    client = from_address("10.14.0.1")
    client.post(RESET, {"email": "ada@example.org"})
    reset = client.get(link_in(mail.outbox[-1]), follow=True)
    assert "revokes your terminal tokens" in reset.content.decode()
    client.post(reset.redirect_chain[-1][0], {"password1": "another long walk",
                                              "password2": "another long walk"})
    assert api_answer(token) == 401


def test_any_new_password_ends_the_tokens_but_a_rehash_at_sign_in_does_not(settings):
    user = User.objects.create_user("ada", password=PASSWORD)
    _, token = AccessToken.issue(user, "laptop")
    # A stronger hasher arrives: signing in rehashes the same password, and the tokens stay.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher",
                                 *settings.PASSWORD_HASHERS]
    old_hash = User.objects.get().password
    assert sign_in(from_address("10.15.0.1"), "ada").status_code == 302
    assert User.objects.get().password != old_hash and api_answer(token) == 200
    # The admin, `manage changepassword`, any code: set_password() then save() ends them.
    user = User.objects.get()
    user.set_password("set by an administrator")
    user.save()
    assert api_answer(token) == 401
