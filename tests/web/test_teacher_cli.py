"""`linebyline teacher`: who may create classes, from a terminal, without the admin."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from linebyline.cli.main import main

pytestmark = pytest.mark.django_db(transaction=True)  # the command migrates, as on a first run


def teacher(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["teacher", *args])
    said = capsys.readouterr()
    return code, said.out, said.err


def test_add_list_and_remove_a_teacher(capsys):
    ada = User.objects.create_user("ada", password="x")
    assert teacher(capsys, "list")[1].startswith("No one can create classes yet")
    code, out, _ = teacher(capsys, "add", "ADA")  # as it was heard: any case
    assert code == 0 and "ada is a teacher now" in out
    assert User.objects.get(pk=ada.pk).has_perm("teaching.add_classroom")
    assert "can create classes already" in teacher(capsys, "add", "ada")[1]
    User.objects.create_user("sam", password="x", is_staff=True)
    assert teacher(capsys, "list")[1].split() == ["ada", "sam", "(staff)"]
    client = Client()
    client.force_login(ada)
    assert client.post("/teach/classes/new/", {"name": "Mine"}).status_code == 302
    code, out, _ = teacher(capsys, "remove", "ada")
    assert code == 0 and "can no longer create classes" in out
    assert not User.objects.get(pk=ada.pk).has_perm("teaching.add_classroom")
    assert client.get("/teach/").status_code == 200  # the class made stays theirs
    code, _, err = teacher(capsys, "remove", "sam")
    assert code == 1 and "change it there" in err


def test_an_unknown_account_is_named_and_nothing_changes(capsys):
    code, out, err = teacher(capsys, "add", "nobody")
    assert code == 1 and out == "" and "no account is called 'nobody'" in err


def test_an_invite_printed_in_the_terminal_works_once(capsys):
    code, out, _ = teacher(capsys, "invite", "--url", "https://course.example.org/", "--note", "Bob")
    link = re.search(r"https://course\.example\.org(/teach/invite/\S+/)", out).group(1)
    assert code == 0 and "not shown again" in out
    bob = User.objects.create_user("bob", password="x")
    client = Client()
    client.force_login(bob)
    assert client.post(link).status_code == 302
    assert User.objects.get(pk=bob.pk).has_perm("teaching.add_classroom")
    with pytest.raises(SystemExit) as refused:
        main(["teacher", "invite", "--days", "0"])
    assert refused.value.code == 2 and "from 1 to 365 days" in capsys.readouterr().err
