"""Module 11's new widget kind in Chromium: name-samples (11.1 caches, 11.2 temperatures, 11.3
endings, 11.4 where each name comes from).

What the widget shows is held against what is worked out here, independently of the lessons'
compute code: the names microgpt.py printed in its own run (runs/microgpt.json, made by
scripts/train_reference.py), and the names training reads, rebuilt from the names file with
microgpt's seed and shuffle.
"""
from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path
from linebyline.course.dataset import names_file

from .conftest import busy_widget_passes_axe_and_fits_a_phone, wait_for_python

pytestmark = pytest.mark.browser
CACHES_TOGGLE = "Try the caches made once for all names, or at every position"
RUN = json.loads((default_course_path() / "runs" / "microgpt.json").read_text(encoding="utf-8"))


def lesson(number: str) -> str:
    folder = next((default_course_path() / "lessons").glob(f"{number}-*")).name
    return f"/lessons/{folder}/"


def docs_in_microgpts_order() -> list[str]:
    rng = random.Random(42)
    with open(names_file(), encoding="utf-8") as handle:
        docs = [line.strip() for line in handle if line.strip()]
    rng.shuffle(docs)
    return docs


def column_names(widget, index: int) -> list[str]:
    return widget.locator(".ns-column").nth(index).locator(".ns-text").all_inner_texts()


@pytest.mark.no_python
def test_fresh_caches_show_microgpts_own_names_and_the_toggle_shows_both_slips(server, page: Page):
    page.goto(server.url + lesson("11.1"))
    page.wait_for_selector("[data-widget][data-mounted]")
    widget = page.locator("[data-widget='name-samples']")
    expect(widget.locator(".ns-column")).to_have_count(1)
    assert column_names(widget, 0) == [name or "(an empty name)" for name in RUN["samples"]]
    widget.get_by_label(CACHES_TOGGLE).check()
    expect(widget.locator(".ns-column")).to_have_count(3)
    assert column_names(widget, 0) == [name or "(an empty name)" for name in RUN["samples"]]
    kept = widget.locator(".ns-column").nth(1)
    expect(kept.locator("h3")).to_have_text("one cache for all 20 names")
    notes = kept.locator(".ns-note").all_inner_texts()
    starts = [int(note.split()[2]) for note in notes]
    assert starts[0] == 0 and starts == sorted(starts) and starts[-1] > starts[0]
    # The first name is drawn before any name has filled the cache: the same as microgpt's.
    assert column_names(widget, 1)[0] == column_names(widget, 0)[0]


def test_temperatures_same_random_numbers_and_no_run_of_ones_own(server, page: Page):
    page.goto(server.url + lesson("11.2"))
    page.wait_for_selector("[data-widget][data-mounted]")
    widget = page.locator("[data-widget='name-samples']")
    headings = widget.locator(".ns-column h3").all_inner_texts()
    assert headings == ["temperature 0.1", "temperature 0.5", "temperature 1", "temperature 2"]
    # microgpt samples at 0.5 with the random numbers left after training: its own 20 names.
    assert column_names(widget, 1) == [name or "(an empty name)" for name in RUN["samples"]]
    distinct = [len(set(column_names(widget, i))) for i in range(4)]
    assert distinct[0] <= distinct[1] <= distinct[3]
    expect(widget.locator(".ns-own")).to_contain_text("Train your own")
    widget.get_by_label("Try multiplying by the temperature").check()
    assert column_names(widget, 1) != [name or "(an empty name)" for name in RUN["samples"]]


def keep_my_run(page: Page, **run) -> None:
    """A finished run of the learner's microgpt.py, kept as My microgpt keeps one (mine/kept.ts)."""
    kept = {"script": "microgpt.py", "steps": RUN["steps"], "bundledNames": True,
            "dataset": "the bundled names", "losses": RUN["losses"], "referenceLosses": RUN["losses"],
            "verdict": "", "weights": RUN["weights"], "names": RUN["samples"], "temperature": 0.5,
            "seconds": 300, "at": 0, **run}
    page.evaluate("""run => new Promise((resolve, reject) => {
        const request = indexedDB.open("linebyline-my-runs", 1);
        request.onupgradeneeded = () => request.result.createObjectStore("runs");
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
            const put = request.result.transaction("runs", "readwrite");
            put.objectStore("runs").put(run, run.script);
            put.oncomplete = () => { request.result.close(); resolve(); };
            put.onerror = () => reject(put.error);
        };
    })""", kept)
    page.reload()
    page.wait_for_selector("[data-widget][data-mounted]")


def test_11_2_draws_the_columns_from_the_learners_own_weights(server, page: Page):
    page.goto(server.url + lesson("11.2"))
    page.wait_for_selector("[data-widget][data-mounted]")
    widget = page.locator("[data-widget='name-samples']")
    course = [column_names(widget, i) for i in range(4)]
    # Trained on a file of the learner's own: another vocabulary, so not offered.
    keep_my_run(page, bundledNames=False, dataset="cities.txt")
    expect(widget.locator(".ns-own")).to_contain_text("Train your own")
    expect(widget.locator("[data-own]")).to_have_count(0)

    # The very weights microgpt.py trained to: the same random numbers draw the same names.
    keep_my_run(page)
    expect(widget.locator(".ns-own")).to_contain_text(
        f"Found your microgpt.py, trained {RUN['steps']:,} steps in My microgpt")
    wait_for_python(page)
    widget.locator("[data-own]").click()
    expect(widget.locator(".ns-own-status")).to_have_text(
        "Your weights drew exactly the course's names: your microgpt trained to the very same numbers.",
        timeout=120_000)
    assert [column_names(widget, i) for i in range(4)] == course

    # Weights of another run (here: every weight halved) draw other names from the same numbers.
    keep_my_run(page, weights=[w / 2 for w in RUN["weights"]], steps=200)
    wait_for_python(page)
    widget.locator("[data-own]").click()
    expect(widget.locator(".ns-own-status")).to_contain_text("where they differ from the course's",
                                                              timeout=120_000)
    assert [column_names(widget, i) for i in range(4)] != course
    widget.get_by_role("button", name="Back to the course's weights").click()
    assert [column_names(widget, i) for i in range(4)] == course


@pytest.mark.no_python
def test_endings_are_told_by_length_and_without_bos_every_name_runs_to_the_limit(server, page: Page):
    page.goto(server.url + lesson("11.3"))
    page.wait_for_selector("[data-widget][data-mounted]")
    widget = page.locator("[data-widget='name-samples']")
    for name in widget.locator(".ns-name").all():
        text = name.locator(".ns-text").inner_text()
        tag = name.get_attribute("data-tag")
        assert tag == ("limit" if len(text) == 16 else "bos"), text
    widget.get_by_label("Try it without BOS among the choices").check()
    texts = widget.locator(".ns-text").all_inner_texts()
    assert texts and all(len(text) == 16 for text in texts)


@pytest.mark.no_python
def test_each_name_is_tagged_by_where_it_comes_from(server, page: Page):
    docs = docs_in_microgpts_order()
    read, data = set(docs[:1000]), set(docs)
    page.goto(server.url + lesson("11.4"))
    page.wait_for_selector("[data-widget][data-mounted]")
    widget = page.locator("[data-widget='name-samples']")
    for view in range(3):
        widget.get_by_role("radio").nth(view).check()
        for name in widget.locator(".ns-name").all():
            text = name.locator(".ns-text").inner_text()
            want = "read" if text in read else "data" if text in data else "new"
            assert name.get_attribute("data-tag") == want, text


@pytest.mark.no_python
def test_name_samples_passes_axe_and_fits_a_phone(server, page: Page):
    busy_widget_passes_axe_and_fits_a_phone(
        page, server.url + lesson("11.1"),
        lambda page: page.get_by_label(CACHES_TOGGLE).check())
