"""Check yourself in Chromium: choices in each learner's own order, numbers that teach when missed.

The order test reads every choice question of the course (each module's review page holds its
lessons' questions and its own) as two fresh learners, with fixed device ids so that it is the
same every run; Python is not needed there, so its files are not even fetched.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import axe_violations
from .test_accounts_browser import new_username, sign_in, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
LEARNERS = ["b-aaaaaaaaaaaa", "b-k7qxm3pd2r9z"]  # two device ids, as progress.ts makes them


def review_paths(course) -> list[str]:
    return [f"/modules/{m.number}/review/" for m in course.modules if m.lessons]


def choice_orders(page: Page) -> dict[str, list[int]]:
    """Each choice question's radio values (the authored indexes) in the order shown."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('form[data-question]')]
        .filter(form => form.querySelector('input[type=radio]'))
        .map(form => [form.dataset.question,
                      [...form.querySelectorAll('input[type=radio]')].map(i => Number(i.value))]))""")


def correct_choices(page: Page) -> dict[str, int]:
    data = json.loads(page.locator("#quiz-data").text_content())
    return {q["id"]: next(i for i, c in enumerate(q["choices"]) if c["correct"])
            for q in data if q["kind"] == "choice"}


def test_each_learner_sees_the_choices_in_an_order_of_their_own(server, browser: Browser, course):
    seen: dict[str, dict[str, list[int]]] = {}
    correct: dict[str, int] = {}
    for learner in LEARNERS:
        context = browser.new_context()
        context.add_init_script(f"localStorage.setItem('linebyline:device', '{learner}')")
        context.route("**/pyodide/**", lambda route: route.abort())
        page = context.new_page()
        seen[learner] = {}
        for path in review_paths(course):
            page.goto(server.url + path)
            orders = choice_orders(page)
            correct.update(correct_choices(page))
            page.reload()
            assert choice_orders(page) == orders, f"{path}: the order changed on reload"
            seen[learner].update(orders)
        context.close()
    assert len(correct) >= 80
    for learner, orders in seen.items():
        assert set(orders) == set(correct)
        first = sum(orders[q][0] == right for q, right in correct.items())
        assert first <= 0.4 * len(correct), f"{learner}: the right one is first in {first} of {len(correct)}"
        assert all(sorted(order) == list(range(len(order))) for order in orders.values())
    a, b = (seen[learner] for learner in LEARNERS)
    assert sum(a[q] != b[q] for q in correct) >= len(correct) / 2, "two learners see much the same orders"


def test_a_signed_in_learner_sees_the_same_order_on_every_device(server, browser: Browser):
    """Signed in, the order follows the account (the page's data-learner-seed), not the device."""
    username = new_username()
    orders = []
    for index, device in enumerate(LEARNERS):
        context = browser.new_context()
        context.add_init_script(f"localStorage.setItem('linebyline:device', '{device}')")
        context.route("**/pyodide/**", lambda route: route.abort())
        page = context.new_page()
        (sign_up if index == 0 else sign_in)(page, server, username)
        page.goto(server.url + "/modules/3/review/")
        expect(page.locator("body")).to_have_attribute("data-learner-seed", re.compile("."))
        orders.append(choice_orders(page))
        context.close()
    assert orders[0] == orders[1]
    shuffled = sum(order != sorted(order) for order in orders[0].values())
    assert shuffled >= len(orders[0]) / 2, f"only {shuffled} of {len(orders[0])} questions are shuffled"


def test_a_right_choice_says_right_once_and_is_kept_as_authored(server, page: Page):
    page.goto(server.url + "/lessons/1.1-the-demo/")
    question = json.loads(page.locator("#quiz-data").text_content())[0]
    right = next(i for i, c in enumerate(question["choices"]) if c["correct"])
    form = page.locator(f'form[data-question="{question["id"]}"]')
    form.locator(f'input[value="{right}"]').check()
    form.get_by_role("button", name="Check answer").click()
    feedback = form.locator(".feedback")
    expect(feedback.locator(".verdict")).to_have_text("Right.")
    assert feedback.inner_text().count("Right") == 1, feedback.inner_text()
    saved = page.evaluate(
        "JSON.parse(localStorage.getItem('linebyline:progress:microgpt')).lessons['1.1'].quiz")
    assert saved[question["id"]]["answer"] == str(right) and saved[question["id"]]["correct"] is True


def test_a_missed_number_gets_a_nudge_then_the_worked_answer(server, page: Page):
    page.goto(server.url + "/lessons/1.1-the-demo/")
    question = next(q for q in json.loads(page.locator("#quiz-data").text_content())
                    if q["kind"] == "predict" and q["answer"] > 10)
    answer = question["answer"]
    expected = [slip["answer"] for slip in question.get("wrong", [])]
    assert answer * 10 not in expected and -answer not in expected  # misses the lesson did not foresee
    form = page.locator(f'form[data-question="{question["id"]}"]')
    field = form.get_by_label("Your number")
    feedback = form.locator(".feedback")

    def answer_with(text: str) -> str:
        field.fill(text)
        form.get_by_role("button", name="Check answer").click()
        return feedback.inner_text()

    # Each miss is told how it is off, in its own words; the worked answer waits for a second one.
    ten_times = answer_with(f"{answer * 10:g}")
    assert "Not quite." in ten_times and "factor of 10" in ten_times, ten_times
    assert "Miss once more and the worked answer is shown." in ten_times
    assert f"{answer:g}" not in ten_times.replace(f"{answer * 10:g}", "")
    negative = answer_with(f"−{answer:g}")
    assert "sign" in negative and negative != ten_times, negative
    worked = form.locator("[data-worked]")
    expect(worked).to_contain_text(f"The answer: {answer:g}.")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, "#quiz") == [], scheme
    # The misses are kept on this device: the worked answer is still there after a reload.
    page.reload()
    expect(worked).to_contain_text(f"The answer: {answer:g}.")
    # Right at last: one "Right.", the explanation, no worked answer.
    right = answer_with(f"{answer:g}")
    assert right.startswith("Right.") and right.count("Right") == 1, right
    expect(worked).to_have_count(0)


def test_a_foreseen_wrong_number_gets_its_own_feedback(server, page: Page):
    """7.5's predictions carry the wrong numbers learners reach, each explained (lesson.yaml)."""
    page.goto(server.url + "/lessons/7.5-backward/")
    question = next(q for q in json.loads(page.locator("#quiz-data").text_content())
                    if q["kind"] == "predict" and len(q.get("wrong", [])) >= 2 and q.get("worked"))
    form = page.locator(f'form[data-question="{question["id"]}"]')
    feedback = form.locator(".feedback")
    for slip in question["wrong"][:2]:
        form.get_by_label("Your number").fill(f"{slip['answer']:g}")
        form.get_by_role("button", name="Check answer").click()
        expect(feedback.locator(".verdict")).to_have_text("Not quite.")
        first_words = re.sub(r"<[^>]+>", "", slip["explain"]).split(".")[0]
        expect(feedback).to_contain_text(first_words.replace("&#x27;", "'"))
        expect(feedback.locator(".nudge")).to_have_count(0)
    # Two misses: the lesson's worked answer, with the number.
    worked = form.locator("[data-worked]")
    expect(worked).to_contain_text(f"The answer: {question['answer']:g}.".replace("-", "−"))
    expect(worked).to_contain_text(re.sub(r"<[^>]+>", "", question["worked"]).split(".")[0])
