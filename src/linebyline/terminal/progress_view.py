"""`linebyline progress`: this machine's progress in a few lines, its export and import (the file
the course home exports and imports), and a sync with the account now."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..progress import account as account_link
from ..progress import merge as pm
from ..progress import sync as progress_sync
from ..runtime.words import plural
from .learner import local_progress, published, say_problems
from .lessons_view import MARKS, mark_of

if TYPE_CHECKING:
    from ..course import Course

MAX_IMPORT_BYTES = 64_000_000


def progress_command(args: argparse.Namespace, course: Course, usage: type[Exception]) -> int:
    local = local_progress(course)
    login = account_link.current()
    if args.import_file:
        imported = _read_file(Path(args.import_file), course, usage)
        local.absorb(imported)
        print(f"Imported {plural(len(imported), 'lesson')} from {args.import_file}, merged with what was "
              "here (nothing here was lost).", file=sys.stderr if args.export == "-" else sys.stdout)
    if args.sync or args.import_file:
        if login is None:
            if args.sync and not args.quiet:
                print("Not signed in (`linebyline login`): the progress stays on this machine.")
        else:
            try:
                notes = progress_sync.sync(login, local, published(course))
            except account_link.AccountError as error:
                if args.quiet:
                    return 1
                print(f"Not synced yet ({error}): it stays here and goes with the next sync.",
                      file=sys.stderr)
                return 1
            if not args.quiet:
                for note in notes:
                    print(note)
                print(f"Synced with {login.username}'s account at {login.url}.")
    say_problems(local)
    if args.export:
        document = {**pm.document(course.slug, local.lessons()),
                    "exported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        if args.export == "-":
            sys.stdout.write(text)
        else:
            Path(args.export).write_text(text, encoding="utf-8")
            print(f"Wrote {args.export}: import it on the course home (“Import progress”), or "
                  "give it to `linebyline assemble --progress`.")
        return 0
    if args.quiet or args.sync:
        return 0
    _summary(course, local, login)
    return 0


def _read_file(path: Path, course: Course, usage: type[Exception]) -> pm.Lessons:
    if not path.is_file():
        raise usage(f"{path}: no such file")
    if path.stat().st_size > MAX_IMPORT_BYTES:
        raise usage(f"{path}: is far larger than a progress file can be")
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
        return pm.read_document(data, course.slug)[1]
    except UnicodeDecodeError:
        raise usage(f"{path}: is not UTF-8 text, so it is not a progress file") from None
    except (ValueError, RecursionError) as error:
        raise usage(f"{path}: is not linebyline progress for this course ({error}); nothing "
                    "was imported") from None


def _summary(course: Course, local, login) -> None:
    lessons = local.lessons()
    numbers = {lesson.number for lesson in course.lessons()}  # recall exercises apart
    done = [n for n, entry in lessons.items() if entry["status"] == "done" and n in numbers]
    started = [n for n, entry in lessons.items()
               if entry["status"] == "in-progress" and n in numbers]
    total = len(list(course.lessons()))
    learned = set().union(*(lesson.unlocked_lines() for lesson in course.lessons()
                            if lesson.number in done)) & course.countable_lines()
    print(f"{course.title}: {len(done)} of {total} published lessons done, {len(started)} "
          f"started; {len(learned)} of {len(course.countable_lines())} lines of "
          f"{course.program_name} yours.")
    for module in course.modules:
        if not module.lessons:
            continue
        marks = " ".join(f"{lesson.number}{MARKS[mark_of(lessons.get(lesson.number))].strip()}"
                         for lesson in module.lessons)
        recall = module.review.recall if module.review else None
        if recall is not None:  # the module's code from memory, after its lessons
            marks += f"  · {recall.number}{MARKS[mark_of(lessons.get(recall.number))].strip()}"
        print(f"  Module {module.number:<3} {marks}")
    print(f"Kept in {local.path}.")
    if login is None:
        print("Not signed in: `linebyline login URL` merges it with your account, as the "
              "browser does.")
        return
    problem = account_link.last_problem(login, local)
    if progress_sync.needs_sync(login, local, published(course)):
        print(f"Signed in as {login.username} at {login.url}; not all of it is in the account "
              f"yet{f' ({problem})' if problem else ''}: `linebyline progress --sync` sends it.")
    else:
        print(f"Signed in as {login.username} at {login.url}; the account has all of it.")
    note = account_link.refused_note(login, local)
    if note:
        print(note)
