"""The pages every learner gets the same copy of (home, next, offline, program, a module's
review, and end's and My microgpt's): how each is built, once per course version, and which one a
URL names. Views answer with them; the offline list measures them."""
from __future__ import annotations

from django.urls import resolve

from . import end, mine, rendered
from .pages import lesson_url


def _home_context(view) -> dict:
    modules = []
    for module in view.course.modules:
        published = {lesson.number: lesson for lesson in module.lessons}
        entries = []
        count = max(len(module.planned), max((lesson.key[1] for lesson in module.lessons),
                                             default=0))
        for index in range(1, count + 1):
            number = f"{module.number}.{index}"
            lesson = published.get(number)
            title = lesson.title if lesson else module.planned[index - 1]
            entries.append({"number": number, "title": title, "lesson": lesson,
                            "url": lesson_url(lesson) if lesson else ""})
        modules.append({"module": module, "entries": entries})
    return {"modules": modules, "complete": view.all_published}


def home_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "home", "linebyline/home.html", lambda: _home_context(view))


def next_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "next", "linebyline/next.html", dict)


def offline_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "offline", "linebyline/offline.html", dict)


def program_page(view) -> rendered.RenderedPage:
    return rendered.shared_page(view, "program", "linebyline/program.html",
                                lambda: {"rows": view.program_rows()})


def _review_context(view, module) -> dict:
    lessons = [{"lesson": lesson, "url": lesson_url(lesson),
                "quiz": view.quiz_view(lesson.quiz, view.quiz_data(lesson), lesson),
                "lines": len(view.learned_lines(lesson))} for lesson in module.lessons]
    review_quiz = view.review_quiz_data(module)
    quiz_data = review_quiz + [item for lesson in module.lessons for item in view.quiz_data(lesson)]
    lines = sorted({n for lesson in module.lessons for n in view.learned_lines(lesson)})
    recall = module.review.recall if module.review else None
    return {
        "module": module, "lessons": lessons, "quiz_data": quiz_data,
        "summary": view.html(module.review.summary, module) if module.review else "",
        "review_quiz": (view.quiz_view(module.review.quiz, review_quiz, module)
                        if module.review else []),
        "line_count": len(lines),
        # The recall exercise: the module's code again, from memory, checked by its lessons' checks.
        "recall": recall, "exercise": view.exercise_data(recall) if recall else None,
        "rows": [row for row in view.program_rows() if row["number"] in lines],
        "next_module": view.next_module(module)}


def review_page(view, module) -> rendered.RenderedPage:
    return rendered.shared_page(view, f"review {module.number}", "linebyline/review.html",
                                lambda: _review_context(view, module))


def shared_page_for(view, url: str) -> rendered.RenderedPage:
    """The stored page a URL of offline.pages() names (for its size in the offline list)."""
    match = resolve(url)
    if match.url_name == "lesson":
        return rendered.lesson_page(view, view.lesson_by_path(match.kwargs["path"]))
    if match.url_name == "review":
        return review_page(view, next(m for m in view.course.modules
                                      if m.number == match.kwargs["number"]))
    builders = {"home": home_page, "next-lesson": next_page, "offline": offline_page,
                "program": program_page, "my-microgpt": mine.page_for, "end": end.page_for}
    return builders[match.url_name](view)
