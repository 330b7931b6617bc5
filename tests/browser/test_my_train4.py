"""My microgpt with module 9 done: the learner's own train4.py (heads, the MLP block, the layer
loop and the layer matrices from lessons 9.1 to 9.5, brought in through the course home's import)
trains in the page beside the reference and matches it at every step."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .test_my_microgpt import TRAIN_S, bring_progress, done, region, solution, train

pytestmark = pytest.mark.browser
MODULE_9 = ("9.1", "9.2", "9.3", "9.4", "9.5")
STEPS = 3  # train4 is the slowest script before Adam: three steps show it step by step


def test_my_own_train4_from_module_9_matches_the_reference(server, page: Page, tmp_path: Path):
    bring_progress(page, server, tmp_path, {number: done(solution(number)) for number in MODULE_9})
    page.goto(server.url + "/my-microgpt/")
    page.select_option("[data-script-choice]", "train4.py")
    expect(page.locator("[data-mine-status]")).to_contain_text("regions of train4.py are yours")
    for lesson in MODULE_9:
        assert region(page, lesson).count() > 0, lesson
        for part in region(page, lesson).all():
            expect(part).to_have_attribute("data-origin", "yours")
    train(page, STEPS)
    verdict = page.locator("[data-readout='verdict']")
    expect(verdict).to_contain_text("Matches the reference at every step", timeout=TRAIN_S * 1000)
    expect(verdict).to_contain_text(f"for all {STEPS} steps")
