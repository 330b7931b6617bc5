"""`linebyline teacher`: who may create classes, from a terminal on the server (no admin needed).

Works on the database the server uses (the same LINEBYLINE_* settings), and prepares it first if
this is its first use."""
from __future__ import annotations

import argparse
import sys


class TeacherError(Exception):
    """Nothing was changed; the message says why."""


def _setup() -> None:
    from .serve import setup_django
    setup_django()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)


def _account(name: str):
    from ..teaching.roles import find_account
    user = find_account(name)
    if user is None:
        raise TeacherError(f"no account is called {name!r}: they sign up on the site first "
                           "(Sign in, then Sign up), or you can send them an invite link "
                           "(`linebyline teacher invite`)")
    return user


def add(name: str) -> str:
    from ..teaching.roles import make_teacher
    user = _account(name)
    if not make_teacher(user):
        return f"{user.get_username()} can create classes already."
    return (f"{user.get_username()} is a teacher now: they see Teach in the site's header and can "
            "create classes.")


def remove(name: str) -> str:
    from ..teaching.roles import stop_teaching
    user = _account(name)
    if not stop_teaching(user):
        if user.is_staff or user.has_perm("teaching.add_classroom"):
            raise TeacherError(f"{user.get_username()} can create classes as staff or by a "
                               "permission given in the admin: change it there")
        return f"{user.get_username()} was not a teacher."
    return (f"{user.get_username()} can no longer create classes; the classes they teach stay "
            "theirs (remove them as co-teacher on each class's settings page).")


def listing() -> str:
    from ..teaching.roles import teachers
    names = [f"{user.get_username()}{' (staff)' if user.is_staff else ''}" for user in teachers()]
    return "\n".join(names) if names else "No one can create classes yet: `linebyline teacher add USERNAME`."


def invite(url: str, note: str, days: int) -> str:
    from django.urls import reverse

    from ..teaching.roles import new_invite
    _, token = new_invite(None, note, days)
    link = url.rstrip("/") + reverse("teach-invite", args=[token])
    return (f"An invite link, for one use within {days} days (it is not shown again):\n{link}\n"
            "Whoever opens it, signed in, can then create classes.")


def run(args: argparse.Namespace) -> int:
    _setup()
    try:
        if args.action == "add":
            said = add(args.username)
        elif args.action == "remove":
            said = remove(args.username)
        elif args.action == "list":
            said = listing()
        else:
            said = invite(args.url, args.note, args.days)
    except TeacherError as error:
        print(f"linebyline teacher {args.action}: {error}", file=sys.stderr)
        return 1
    print(said)
    return 0


def add_parser(commands: argparse._SubParsersAction, days: type) -> None:
    teacher = commands.add_parser(
        "teacher", help="let an account create classes (or stop it), list teachers, make an invite link",
        description="Who may create classes and see how their learners do: `teacher add USERNAME` "
        "makes an account a teacher (it joins the site's Teachers group), `teacher remove` undoes "
        "that, `teacher list` lists everyone who can, and `teacher invite` prints a link that makes "
        "whoever opens it (signed in) a teacher. Uses the server's database (the same LINEBYLINE_* "
        "settings as `serve`).")
    actions = teacher.add_subparsers(dest="action", metavar="ACTION", required=True)
    for name, text in (("add", "make the account a teacher"), ("remove", "stop the account being a teacher")):
        action = actions.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        action.add_argument("username", help="the account's user name")
    actions.add_parser("list", help="list everyone who can create classes",
                       description="List everyone who can create classes (teachers and staff).")
    link = actions.add_parser("invite", help="print a one-use invite link that makes a teacher",
                              description="Print an invite link: whoever opens it, signed in, "
                              "becomes a teacher. It works once, and expires.")
    link.add_argument("--url", default="http://127.0.0.1:8000",
                      help="the site's address, as learners open it (default: http://127.0.0.1:8000)")
    link.add_argument("--note", default="", help="who it is for, listed with the invite on the site")
    link.add_argument("--days", type=days, default=14, help="days before it expires (default 14)")
    teacher.set_defaults(run=run)
