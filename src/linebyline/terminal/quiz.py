"""`linebyline quiz N`: the lesson's "Check yourself" questions in the terminal, judged as the
browser judges them (frontend/src/quiz.ts): choices in this learner's own order (the account's
seed when signed in, so the same order as in its browsers), computed answers, the expected
wrong numbers' own feedback, a nudge for any other, and the worked answer after two misses."""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from ..progress import account as account_link
from ..progress import merge as pm
from .learner import local_progress, say_problems, send_later
from .screen import Screen

if TYPE_CHECKING:
    from ..course import Course, Lesson, Question

MISSES_BEFORE_WORKED = 2
LETTERS = "abcdefghij"
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$", re.IGNORECASE)
M32 = 0xFFFFFFFF


# --- the same numbers as quiz.ts ---------------------------------------------------------------

def _imul(a: int, b: int) -> int:
    return (a * b) & M32


def seeded_random(seed: int):
    """mulberry32, as quiz.ts has it: the same seed gives the same numbers in [0, 1)."""
    state = seed & M32

    def next_number() -> float:
        nonlocal state
        state = (state + 0x6D2B79F5) & M32
        mixed = _imul(state ^ (state >> 15), state | 1)
        mixed ^= (mixed + _imul(mixed ^ (mixed >> 7), mixed | 61)) & M32
        return ((mixed ^ (mixed >> 14)) & M32) / 2**32
    return next_number


def seeded_order(count: int, seed: str) -> list[int]:
    """0 … count − 1 in an order that depends only on `seed` (quiz.ts's seededOrder)."""
    random = seeded_random(int(pm.fnv1a32(seed), 16))
    order = list(range(count))
    for i in range(count - 1, 0, -1):
        j = math.floor(random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


# Commas between thousands, as the pages print numbers ("32,001"); any other comma is a decimal one.
THOUSANDS = re.compile(r"^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$")


def parse_number(text: str) -> float | None:
    cleaned = re.sub("[\u2212\u2013]", "-", text.strip())
    cleaned = cleaned.replace(",", "") if THOUSANDS.match(cleaned) else cleaned.replace(",", ".", 1)
    return float(cleaned) if NUMBER.match(cleaned) else None


def is_close(got: float, want: float, tolerance: float) -> bool:
    return abs(got - want) <= max(tolerance, 1e-9 * abs(want))


def shown(x: float) -> str:
    text = f"{float(f'{x:.6g}'):g}" if abs(x) < 1e16 else f"{x:.6g}"
    return text.replace("-", "−")


def nudge(got: float, want: float, tolerance: float) -> str:
    """How a wrong number is off, in the words quiz.ts uses."""
    if want == 0:
        return (f"The answer is {'smaller' if got > 0 else 'bigger'} than {shown(got)}. Work it "
                "through once more.")
    if got == 0:
        return "Not 0: something here is not zero. Work it through once more."
    if got * want < 0:
        return ("The size is right, the sign is not: check which way it goes."
                if is_close(-got, want, tolerance)
                else "The sign is wrong, and the size is off too. Work it through once more.")
    ratio = got / want
    decades = math.log10(ratio)
    if abs(decades) >= 0.999 and abs(decades - round(decades)) < 0.005:
        return (f"Off by a factor of {shown(10 ** abs(round(decades)))}: the digits look right, "
                "the decimal point or a unit does not.")
    if float(want).is_integer() and float(got).is_integer() and abs(got - want) == 1:
        return "Off by one: check where the counting starts and where it stops."
    bigger = ratio > 1
    factor = ratio if bigger else 1 / ratio
    too = f"too {'big' if bigger else 'small'}{' in size' if want < 0 else ''}"
    whole = round(factor)
    if 2 <= whole <= 9 and abs(factor - whole) < 0.01 * whole:
        return (f"Your number is {whole} times {too}: is something counted "
                f"{f'{whole} times over' if bigger else 'only in part'}?")
    if factor < 1.1:
        return f"Close, but {too}: check each step, and round only at the end."
    if factor > 10:
        return f"Far {too}: more than ten times. Check what the question counts."
    return f"{too[0].upper()}{too[1:]}. Work it through once more, step by step."


# --- the questions -------------------------------------------------------------------------------

def quiz(course_arg: str | None, course: Course, lesson: Lesson, screen: Screen) -> int:
    if not lesson.quiz:
        screen.line(f"Lesson {lesson.number} has no quiz.")
        return 0
    local = local_progress(course)
    login = account_link.current()
    # Signed in, the account's seed: the choices come in the order its browsers show them.
    seed = (account_link.quiz_seed(login) if login else "") or local.device()
    computed = None
    if any(question.kind == "predict" for question in lesson.quiz):
        from ..authoring.computed import compute_lesson

        screen.line("(Working out the answers from the lesson's own code…)", "note")
        computed = compute_lesson(lesson)
    right = 0
    for index, question in enumerate(lesson.quiz):
        qid = f"{lesson.number}-q{index + 1}"
        screen.line()
        screen.line(f"Question {index + 1} of {len(lesson.quiz)}", "title")
        screen.markdown(question.prompt)
        if question.kind == "choice":
            correct = _choice(question, qid, seed, screen, local, lesson)
        else:
            answer = computed.answers.get(index) if computed else None
            wrong = computed.wrong.get(index, []) if computed else []
            correct = _predict(question, qid, answer, wrong, screen, local, lesson)
        if correct is None:
            screen.line("(Stopped: your answers so far are kept.)", "note")
            break
        right += correct
    else:
        screen.line()
        screen.line(f"{right} of {len(lesson.quiz)} right the first time.",
                    "pass" if right == len(lesson.quiz) else "title")
    say_problems(local)
    note = send_later(course_arg, course, local)
    if note:
        screen.line(note, "note")
    return 0


def _choice(question: Question, qid: str, seed: str, screen: Screen, local, lesson
            ) -> bool | None:
    order = seeded_order(len(question.choices), f"{seed}:{qid}")
    for letter, index in zip(LETTERS, order):
        screen.markdown(f"**{letter})** {question.choices[index].text}", indent=2)
    first = True
    while True:
        typed = screen.ask(f"Your answer ({LETTERS[0]}–{LETTERS[len(order) - 1]}, or Enter to "
                           "stop): ")
        if typed is None or not typed.strip():
            return None
        letter = typed.strip().lower()[:1]
        if letter not in LETTERS[:len(order)]:
            screen.line(f"Type one of the letters {LETTERS[:len(order)]}.")
            continue
        index = order[LETTERS.index(letter)]
        choice = question.choices[index]
        local.record_answer(lesson.number, qid, str(index), choice.correct)
        if choice.correct:
            screen.line("Right.", "pass")
            screen.markdown(_without_right(choice.explain + "\n\n" + question.explain), indent=2)
            return first
        screen.line("Not quite.", "fail")
        screen.markdown(choice.explain, indent=2)
        first = False


def _predict(question: Question, qid: str, want: float | None, wrong: list[float],
             screen: Screen, local, lesson) -> bool | None:
    if want is None:
        screen.line("(Its answer could not be worked out here; skipped.)", "warn")
        return False
    first = True
    while True:
        typed = screen.ask("Your number (or Enter to stop): ")
        if typed is None or not typed.strip():
            return None
        number = parse_number(typed)
        if number is None:
            screen.line("Type a number, like -2 or 0.5.")
            continue
        correct = is_close(number, want, question.tolerance)
        local.record_answer(lesson.number, qid, typed.strip()[:pm.MAX_ANSWER], correct)
        if correct:
            screen.line("Right.", "pass")
            screen.markdown(_without_right(question.explain), indent=2)
            return first
        first = False
        misses = local.quiz_misses(qid, add=True)
        slip = next((w for value, w in zip(wrong, question.wrong)
                     if is_close(number, value, question.tolerance)), None)
        screen.line("Not quite.", "fail")
        if slip is not None:
            screen.markdown(slip.explain, indent=2)
        else:
            screen.line(f"  {nudge(number, want, question.tolerance)}")
        if misses >= MISSES_BEFORE_WORKED:
            screen.line(f"The answer: {shown(want)}. Worked through:", "title")
            screen.markdown(question.worked or question.explain, indent=2)
            return False
        screen.line("Miss once more and the worked answer is shown.", "note")


def _without_right(text: str) -> str:
    return re.sub(r"^\s*(Right|Correct)[.!]\s*", "", text, flags=re.IGNORECASE)
