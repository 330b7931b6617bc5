"""The lesson standard that `linebyline lint` holds every lesson to, beyond "it works both ways".

Each rule here reads a lesson's files (and what its code computed) and names what would mislead
or game a learner:

- a choice question whose right answer gives itself away by its length, or whose explanation
  says "Right." a second time;
- a predict question without expected wrong numbers (each with its own feedback);
- a known mistake whose message hands over the very line to write (that belongs in `fix:`);
- a lead that says "Sixteen lines" when the lesson unlocks 13;
- a `{{fact}}` the lesson's `facts` does not compute, or a reference to a lesson the course does
  not plan;
- a Python name with underscores written outside backticks (`__init__` would show as a bold
  "init");
- an answer one copy away: a line a Build asks for that already stands, as code, in the starter
  of an earlier lesson, or in its own starter's comments (``answer_leaks``);
- an on-my-own TODO (`on_my_own:`) that spells out its answer: every name of one of the block's
  answer lines (at least two), in the line's order (``spelled_out``); a Build with TODO blocks and
  no `on_my_own` texts (every Build offers both levels).

The rules are documented in docs/authoring.md ("The lesson standard").
"""
from __future__ import annotations

import builtins
import difflib
import io
import keyword
import re
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..course import Course, Lesson, Module, Question
from ..course.levels import todo_blocks
from ..course.prose import fact_names, lesson_references, underscore_emphasis
from .computed import Computed

# A right choice this much longer than every other (and by this many characters) is a tell.
LONGER_RATIO = 1.25
LONGER_CHARS = 15
# Over the whole course, the right choice may be the longest in at most this share of questions.
LONGEST_SHARE = 0.5
# A code span of the message this long, found in a line the learner writes, hands it over.
GIVEAWAY_SPAN = 8
NUMBER_WORDS = {word: n for n, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
LINES_CLAIM = re.compile(r"\b(\d+|" + "|".join(NUMBER_WORDS) + r")\s+(?:new\s+)?lines?\b",
                         re.IGNORECASE)
STARTS_RIGHT = re.compile(r"^\s*(right|correct|yes)\b[.!,:]", re.IGNORECASE)


def _length(text: str) -> int:
    return len(" ".join(text.split()))


def choice_problems(question: Question, place: str) -> Iterator[str]:
    """A right choice that is much longer than every other; an explanation that says "Right."."""
    if question.kind != "choice" or len(question.choices) < 2:
        return
    right = next(choice for choice in question.choices if choice.correct)
    others = [_length(choice.text) for choice in question.choices if not choice.correct]
    longest = max(others)
    if _length(right.text) > LONGER_RATIO * longest and _length(right.text) - longest >= LONGER_CHARS:
        yield (f"{place}: the right choice ({_length(right.text)} characters) is much longer "
               f"than every other (at most {longest}): its length gives it away. Shorten it, "
               "or make the others as full")
    for text in (right.explain, question.explain):
        if STARTS_RIGHT.match(text or ""):
            yield (f"{place}: an explanation starts with {text.split()[0]!r}, but the page "
                   "already says \"Right.\": start with the reason")


def predict_problems(question: Question, place: str) -> Iterator[str]:
    if question.kind == "predict" and not question.wrong:
        yield (f"{place}: a predict question needs expected wrong answers (`wrong:`, each with "
               "`compute` and `explain`): the numbers a learner gets from the likely slips")
    if question.kind == "predict" and STARTS_RIGHT.match(question.explain or ""):
        yield (f"{place}: the explanation starts with {question.explain.split()[0]!r}, but the "
               "page already says \"Right.\": start with the reason")


def quiz_problems(quiz: Iterable[Question], where: str) -> list[str]:
    problems = []
    for index, question in enumerate(quiz):
        place = f"{where}:{question.line}: question {index + 1}"
        problems.extend(choice_problems(question, place))
        problems.extend(predict_problems(question, place))
    return problems


def longest_share(course: Course) -> tuple[int, int]:
    """(questions whose right choice is the longest, choice questions) over the whole course."""
    questions = [q for lesson in course.lessons() for q in lesson.quiz]
    questions += [q for module in course.modules if module.review for q in module.review.quiz]
    choices = [q for q in questions if q.kind == "choice" and len(q.choices) > 1]
    longest = 0
    for question in choices:
        right = next(_length(c.text) for c in question.choices if c.correct)
        if all(right > _length(c.text) for c in question.choices if not c.correct):
            longest += 1
    return longest, len(choices)


def learner_lines(lesson: Lesson) -> list[str]:
    """The lines the learner writes: in the solution, not in the starter, not comments."""
    given = {" ".join(line.split()) for line in lesson.exercise.starter.splitlines()}
    lines = []
    for line in lesson.exercise.solution.splitlines():
        text = " ".join(line.split())
        if text and not text.startswith("#") and text not in given:
            lines.append(text)
    return lines


def giveaway(message: str, lesson: Lesson) -> str:
    """The learner's line (or the part of it) that ``message`` hands over, or ""."""
    written = learner_lines(lesson)
    starter = " ".join(lesson.exercise.starter.split())
    flat = " ".join(message.split())
    for line in written:
        if len(line) >= 12 and line in flat:
            return line
    for span in re.findall(r"`([^`]+)`", flat):
        span = span.strip()
        if len(span) >= GIVEAWAY_SPAN and span not in starter and any(span in line
                                                                      for line in written):
            return span
    return ""


def mistake_problems(lesson: Lesson) -> list[str]:
    problems = []
    for mistake in lesson.exercise.mistakes:
        given = giveaway(mistake.message, lesson)
        if given:
            problems.append(
                f"{lesson.path / 'lesson.yaml'}:{mistake.line}: mistake {mistake.name!r}: its "
                f"message hands over the line to write (`{given}`): diagnose in the message, "
                "and give the line with fail(..., fix=...) and `fix:`")
    return problems


def lead_problems(course: Course, lesson: Lesson) -> list[str]:
    """A count of lines in the lead must be one the lesson has: the lines it unlocks, the lines
    the learner writes, or the whole program's."""
    taught = len(lesson.unlocked_lines() & course.countable_lines())
    written = len(learner_lines(lesson))
    whole = {len(course.program_lines()), len(course.countable_lines())}
    problems = []
    for match in LINES_CLAIM.finditer(lesson.lead):
        word = match.group(1).lower()
        claimed = int(word) if word.isdigit() else NUMBER_WORDS[word]
        if claimed not in {taught, written} | whole and not (claimed >= 100 and word.isdigit()):
            problems.append(f"{lesson.path / 'lesson.yaml'}: the lead says {match.group(0)!r}, "
                            f"but the lesson unlocks {taught} non-blank lines of the program "
                            f"and the learner writes {written}")
    return problems


def quiz_texts(quiz: Iterable[Question]) -> Iterator[str]:
    for question in quiz:
        yield from (question.prompt, question.explain, question.worked)
        for choice in question.choices:
            yield from (choice.text, choice.explain)
        yield from (wrong.explain for wrong in question.wrong)


def lesson_texts(lesson: Lesson) -> Iterator[str]:
    """Every piece of prose a learner reads on the lesson's page."""
    yield from (lesson.lead, lesson.where, lesson.watch)
    yield from lesson.exercise.hints
    yield from (chapter.caption for chapter in lesson.exercise.codealong)
    yield from quiz_texts(lesson.quiz)


def reference_problems(course: Course, lesson: Lesson, computed: Computed) -> list[str]:
    return text_problems(course, lesson_texts(lesson), lesson.path / "lesson.yaml", computed)


def review_problems(course: Course, module: Module, computed: Computed) -> list[str]:
    """A review's prose: its summary and questions, as a lesson's."""
    review = module.review
    if review is None:
        return []
    texts = [review.summary, *quiz_texts(review.quiz)]
    return (text_problems(course, texts, review.path, computed)
            + review_shown_problems(module, computed))


def text_problems(course: Course, texts: Iterable[str], where: Path, computed: Computed
                  ) -> list[str]:
    """References to lessons the course does not plan, and facts nobody computes."""
    planned = {f"{m.number}.{i}" for m in course.modules for i in range(1, len(m.planned) + 1)}
    problems = []
    for text in texts:
        for number in lesson_references(text):
            if number not in planned:
                problems.append(f"{where}: the text refers to lesson {number}, which the course "
                                "does not plan")
        for name in sorted(fact_names(text) - set(computed.facts)):
            problems.append(f"{where}: the text quotes {{{{{name}}}}}, which `facts` does not "
                            "compute")
        for name in underscore_emphasis(text):
            problems.append(f"{where}: the text writes {name} outside backticks, and Markdown "
                            f"shows it as {name.strip('_')!r} in bold or italics: write `{name}`")
    return problems


def lesson_problems(course: Course, lesson: Lesson, computed: Computed) -> list[str]:
    """Every way ``lesson`` falls short of the standard."""
    return (quiz_problems(lesson.quiz, str(lesson.path / "lesson.yaml"))
            + mistake_problems(lesson) + lead_problems(course, lesson)
            + reference_problems(course, lesson, computed) + own_level_problems(lesson)
            + answer_shown_problems(lesson, computed))


# --- the on-my-own level ----------------------------------------------------------------------
# Names that say nothing of an answer: Python's keywords and builtins (`range`, `len`, `sum`).
COMMON_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def line_names(line: str) -> list[str]:
    """The Python names of one line of code, in order, each once, without keywords and
    builtins: `child.grad += local_grad * node.grad` -> child, grad, local_grad, node."""
    names: list[str] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if token.type == tokenize.NAME and token.string not in COMMON_NAMES \
                    and token.string not in names:
                names.append(token.string)
    except (tokenize.TokenError, SyntaxError):  # a line that opens a bracket it does not close
        pass
    return names


def block_answers(lesson: Lesson) -> list[list[str]]:
    """For each TODO block of the starter, the solution's code lines that go there: the lines
    the code-along types in place of the block, else those the starter -> solution diff puts
    at it."""
    exercise = lesson.exercise
    starter, solution = exercise.starter.split("\n"), exercise.solution.split("\n")
    ops = difflib.SequenceMatcher(None, starter, solution, autojunk=False).get_opcodes()
    answers = []
    for block in todo_blocks(exercise.starter):
        typed = [line for chapter in exercise.codealong if block.lines[0] in chapter.find.split("\n")
                 for line in chapter.type.split("\n")]
        if not typed:
            typed = [solution[j] for tag, i1, i2, j1, j2 in ops
                     if tag != "equal" and i1 <= block.end and block.start <= i2
                     for j in range(j1, j2)]
        answers.append([line.strip() for line in typed
                        if line.strip() and not line.strip().startswith("#")])
    return answers


def spelled_out(text: str, answer: str) -> list[str]:
    """The names of ``answer`` when the text holds every one of them (at least two) in the
    line's order, else []."""
    names = line_names(answer)
    if len(names) < 2:
        return []
    words = iter(WORD.findall(text))
    return names if all(name in words for name in names) else []


def own_level_problems(lesson: Lesson) -> list[str]:
    """On-my-own TODOs that hand over an answer line; a Build with TODO blocks and none."""
    exercise = lesson.exercise
    where = lesson.path / "lesson.yaml"
    if not exercise.on_my_own:
        if todo_blocks(exercise.starter):
            return [f"{where}: the Build has no `on_my_own` TODO texts (the on-my-own level)"]
        return []
    problems = []
    for index, (text, answers) in enumerate(zip(exercise.on_my_own, block_answers(lesson))):
        line = exercise.on_my_own_lines[index] if index < len(exercise.on_my_own_lines) else 0
        for answer in answers:
            names = spelled_out(text, answer)
            if names:
                problems.append(
                    f"{where}:{line}: on_my_own entry {index + 1} spells out its answer "
                    f"`{answer}` ({', '.join(names)}, in that order): say what the lines must "
                    "achieve and which check proves it, not the names that write them")
    return problems


# Lines this short (`pass`, `return x`, `i += 1`) are too common to give an answer away.
ANSWER_MIN_CHARS = 12


def code_keys(source: str) -> list[str]:
    """Each code line with its comment and every space taken out: how lines are compared."""
    keys = []
    for line in source.splitlines():
        if line.strip().startswith("#"):
            continue
        key = re.sub(r"\s+", "", line.split("#")[0])
        if key and key != "pass":
            keys.append(key)
    return keys


def _comment_keys(source: str) -> str:
    return re.sub(r"\s+", "", " ".join(line.split("#", 1)[1] for line in source.splitlines()
                                       if "#" in line))


def answers_to_write(lesson: Lesson) -> list[str]:
    """The lines (as keys) the Build asks for: in the solution, not in the starter."""
    given = set(code_keys(lesson.exercise.starter))
    return [key for key in code_keys(lesson.exercise.solution)
            if key not in given and len(key) > ANSWER_MIN_CHARS]


def answer_line(lesson: Lesson, key: str) -> str:
    """The solution's line (its code, without a comment) that ``key`` was made from."""
    for line in lesson.exercise.solution.splitlines():
        code = line.split("#")[0]
        if re.sub(r"\s+", "", code) == key:
            return code.strip()
    return key


def answer_leaks(course: Course) -> list[tuple[str, str, str]]:
    """(line, the lesson that asks for it, where it already stands) for every answer a learner
    could copy: from an earlier lesson's starter (as code), or from its own starter's comments.
    A starter that needs such lines imports them from the course's `library/` instead."""
    leaks = []
    shown: list[tuple[str, set[str]]] = []  # each earlier lesson's starter lines
    for lesson in sorted(course.lessons(), key=lambda lesson: lesson.key):
        if lesson.exercise is None:
            continue
        comments = _comment_keys(lesson.exercise.starter)
        for key in answers_to_write(lesson):
            source = next((number for number, lines in shown if key in lines), None)
            if source is not None:
                leaks.append((key, lesson.number, f"the starter of lesson {source}"))
            elif key in comments:
                leaks.append((key, lesson.number, "its own starter's comments"))
        shown.append((lesson.number, set(code_keys(lesson.exercise.starter))))
    return leaks


# --- Quizzes a learner can pass without the lesson (issue 29) ---

# The right choice may be one of the two longest in at most this share of choice questions, and a
# stock wording ("... raises an error", "Nothing ...") may be right this far from chance at most.
TOP_TWO_SHARE = 0.55
STOCK_SLACK = 0.10
STOCK_FORMS = {"error": re.compile(r"raises|error", re.IGNORECASE),
               "nothing": re.compile(r"^\s*nothing\b", re.IGNORECASE)}
# A run of this many words of the right choice, found on the page before the quiz (and in no
# wrong choice), hands it over.
KEY_PHRASE_WORDS = 6


def _choice_questions(course: Course) -> list[Question]:
    questions = [q for lesson in course.lessons() for q in lesson.quiz]
    questions += [q for module in course.modules if module.review for q in module.review.quiz]
    return [q for q in questions if q.kind == "choice" and len(q.choices) > 1]


def quiz_figures(course: Course) -> dict[str, object]:
    """How guessable the choice questions are by their wording, over the whole course: how often
    the right choice is one of the two longest, and how often each stock form is right."""
    questions = _choice_questions(course)
    top_two = 0
    chance = 0.0
    stock = {form: [0, 0] for form in STOCK_FORMS}  # shown, right
    for question in questions:
        lengths = sorted((_length(c.text) for c in question.choices), reverse=True)
        right = next(_length(c.text) for c in question.choices if c.correct)
        top_two += right >= lengths[1]
        chance += 1 / len(question.choices)
        for choice in question.choices:
            for form, pattern in STOCK_FORMS.items():
                if pattern.search(choice.text):
                    stock[form][0] += 1
                    stock[form][1] += choice.correct
    return {"questions": len(questions), "top_two": top_two,
            "chance": chance / len(questions) if questions else 0.0, "stock": stock}


def quiz_figure_problems(figures: dict[str, object]) -> list[str]:
    total, top_two, chance = figures["questions"], figures["top_two"], figures["chance"]
    problems = []
    if total and top_two > TOP_TWO_SHARE * total:  # type: ignore[operator]
        problems.append(f"the right choice is one of the two longest in {top_two} of {total} "
                        f"choice questions, more than {TOP_TWO_SHARE:.0%}: length gives answers "
                        "away")
    for form, (shown, right) in figures["stock"].items():  # type: ignore[attr-defined]
        if shown and abs(right / shown - chance) > STOCK_SLACK:  # type: ignore[operator]
            problems.append(f"choices worded as {form!r} are right {right} times in {shown} "
                            f"({right / shown:.0%}; any choice is right {chance:.0%} of the "
                            f"time): that wording tells a guesser which to pick or avoid")
    return problems


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9_.'-]+", text.lower().replace("−", "-"))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def shown_before_quiz(lesson: Lesson, computed: Computed) -> str:
    """What the page shows above the quiz, facts filled in: lead, Watch and Explore's texts."""
    from ..course.prose import fill_facts

    texts = [lesson.lead, lesson.watch, *_strings(lesson.explore.params), *_strings(computed.data)]
    return fill_facts("\n".join(texts), computed.facts).replace("−", "-")


def _spellings(answer: float, tolerance: float) -> set[str]:
    """How a page could print ``answer``: each rounding within the tolerance, longer than 1."""
    found = set()
    for decimals in range(0, 7):
        if abs(round(answer, decimals) - answer) <= max(tolerance, 1e-9):
            text = f"{answer:.{decimals}f}"
            found.add(text)
            if decimals == 0 and abs(answer) >= 1000:
                found.add(f"{answer:,.0f}")
    return {text for text in found if len(text.lstrip("-")) > 1}


def _number_shown(answer: float, tolerance: float, text: str) -> str:
    for spelling in sorted(_spellings(answer, tolerance), key=len, reverse=True):
        if re.search(r"(?<![\d.,])" + re.escape(spelling) + r"(?![\d]|[.,]\d)", text):
            return spelling
    return ""


def _phrase_shown(question: Question, text: str) -> str:
    right = next(c for c in question.choices if c.correct)
    words = _words(right.text)
    page = " " + " ".join(_words(text)) + " "
    others = [" " + " ".join(_words(c.text)) + " " for c in question.choices if not c.correct]
    for start in range(len(words) - KEY_PHRASE_WORDS + 1):
        phrase = " " + " ".join(words[start:start + KEY_PHRASE_WORDS]) + " "
        if phrase in page and not any(phrase in other for other in others):
            return phrase.strip()
    return ""


def answer_shown_problems(lesson: Lesson, computed: Computed) -> list[str]:
    """A quiz answer the page shows before the quiz: the number, or the right choice's words."""
    return quiz_shown_problems(lesson.quiz, shown_before_quiz(lesson, computed), computed,
                               lesson.path / "lesson.yaml")


def review_shown_problems(module: Module, computed: Computed) -> list[str]:
    """The same for a module review, whose summary stands above its quiz."""
    from ..course.prose import fill_facts

    review = module.review
    if review is None:
        return []
    text = fill_facts(review.summary, computed.facts).replace("−", "-")
    return quiz_shown_problems(review.quiz, text, computed, review.path)


def quiz_shown_problems(quiz: Iterable[Question], text: str, computed: Computed, where: Path
                        ) -> list[str]:
    problems = []
    for index, question in enumerate(quiz):
        place = f"{where}:{question.line}: question {index + 1}"
        if question.not_given_away:
            continue  # the author said why the page's match is not the answer (lint counts these)
        if question.kind == "predict" and index in computed.answers:
            shown = _number_shown(computed.answers[index], question.tolerance, text)
            if shown:
                problems.append(f"{place}: its answer, {shown}, is printed on the page above the "
                                "quiz: ask for a number the learner works out (or, where that "
                                "number means something else, say why in `not_given_away`)")
        elif question.kind == "choice":
            shown = _phrase_shown(question, text)
            if shown:
                problems.append(f"{place}: the right choice's words “{shown}” stand on the page "
                                "above the quiz: it can be matched, not reasoned")
    return problems
