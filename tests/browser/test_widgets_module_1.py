"""Module 1's widgets in Chromium: program-runs (1.2-1.4) and token-strip (1.5, 1.6).

Every number a widget shows is checked against Python run here, independently of the lesson's
own compute: the code a program-runs version shows is run again in fresh Pythons, and the ids of
token-strip are worked out from the names file.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from playwright.sync_api import Browser, Page, expect

from linebyline.course.dataset import names_file

pytestmark = pytest.mark.browser
MODULE_1 = ["/lessons/1.1-the-demo/", "/lessons/1.2-imports-and-the-seed/",
            "/lessons/1.3-documents-and-shuffling/", "/lessons/1.4-characters-become-ids/",
            "/lessons/1.5-bos-and-vocab-size/", "/lessons/1.6-encoding-a-name/"]


def vocabulary() -> list[str]:
    with open(names_file(), encoding="utf-8") as handle:
        return sorted(set("".join(line.strip() for line in handle)))


def run_fresh(code: str, folder, hash_seed: int) -> list[str]:
    """What `code` prints in a fresh Python with the names as input.txt (the error line last)."""
    (folder / "input.txt").write_bytes(names_file().read_bytes())
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=60)
    lines = done.stdout.splitlines()
    if done.returncode:
        lines.append(done.stderr.strip().splitlines()[-1])
    return lines


def run_lines(widget, run: int) -> list[str]:
    """The lines a run shows (as printed: without the words only screen readers hear)."""
    lines = widget.locator(f'[data-run="{run}"] .pr-line')
    return [lines.nth(i).get_attribute("data-text") for i in range(lines.count())]


def test_program_runs_replays_each_version_as_python_does(server, page: Page, tmp_path):
    page.goto(server.url + "/lessons/1.4-characters-become-ids/")
    widget = page.locator('[data-widget="program-runs"]')
    chars = vocabulary()
    # The right version: the same lines in every run, and they are what Python prints.
    first = run_lines(widget, 1)
    assert first == ["how many: 26", f"the first ten: {chars[:10]!r}", f"id of 'e': {chars.index('e')}"]
    again = widget.locator("[data-action=run-again]")
    again.click()
    again.click()
    expect(widget.locator("[data-run-counter]")).to_have_text("run 3 of 3")
    expect(again).to_be_disabled()
    assert run_lines(widget, 2) == first and run_lines(widget, 3) == first
    expect(widget.locator("[data-verdict]")).to_have_text("All 3 runs printed exactly the same lines.")

    # Keyboard: the arrow key moves to the next version, list(set(...)), and back to run 1.
    widget.locator("input[type=radio]").first.focus()
    page.keyboard.press("ArrowRight")
    expect(widget.locator("input[type=radio]").nth(1)).to_be_checked()
    code = widget.locator("[data-code]").get_attribute("data-source")
    assert "chars = list(set(''.join(docs)))" in code
    expect(widget.locator("[data-run]")).to_have_count(1)
    expect(widget.locator(".pr-code .pr-changed")).to_have_count(1)
    page.keyboard.press("Tab")  # to "Run it again"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    expect(widget.locator("[data-run]")).to_have_count(3)
    shown = [run_lines(widget, run) for run in (1, 2, 3)]
    assert shown == [run_fresh(code, tmp_path, seed) for seed in (1, 2, 3)]
    assert len({tuple(lines) for lines in shown}) > 1  # a set's order really changes
    assert "printed something other than run 1" in widget.locator("[data-verdict]").inner_text()

    # A version that stops with an error shows the error as its last line.
    page.goto(server.url + "/lessons/1.3-documents-and-shuffling/")
    widget = page.locator('[data-widget="program-runs"]')
    widget.get_by_label("docs = random.shuffle(docs)").check()
    assert run_lines(widget, 1)[-1] == "TypeError: object of type 'NoneType' has no len()"
    expect(widget.locator('[data-run="1"] .pr-error')).to_have_count(1)
    expect(widget.locator("[data-action=run-again]")).to_be_hidden()


def tokens_shown(widget) -> list[int]:
    text = widget.locator("[data-tokens]").inner_text()
    assert text.startswith("tokens = [") and text.endswith("]")
    return [int(item) for item in text[len("tokens = ["):-1].split(", ")]


def test_token_strip_encodes_as_python_does_and_shows_each_mistake(server, page: Page):
    chars = vocabulary()
    bos = len(chars)
    page.goto(server.url + "/lessons/1.6-encoding-a-name/")
    widget = page.locator('[data-widget="token-strip"]')
    field = widget.get_by_label("Type a name")
    expect(field).to_have_value("emma")
    for name in ("emma", "zoe", "kariahonelle"):
        field.fill(name)
        assert tokens_shown(widget) == [bos] + [chars.index(ch) for ch in name] + [bos]
    pairs = widget.locator("[data-pairs]").inner_text()
    assert "BOS → 'k'" in pairs and "'e' → BOS" in pairs

    field.fill("zoe")
    widget.get_by_label("BOS only at the start").check()
    assert tokens_shown(widget) == [bos] + [chars.index(ch) for ch in "zoe"]
    assert "The last pair, 'e' → BOS, is missing" in widget.locator("[data-verdict]").inner_text()
    widget.get_by_label("chars.index(ch) + 1").check()
    assert tokens_shown(widget) == [bos] + [chars.index(ch) + 1 for ch in "zoe"] + [bos]
    expect(widget.locator(f'[data-id="{bos}"]')).to_have_attribute("data-state", "clash")
    widget.get_by_label("ord(ch) - ord('a')").check()
    field.fill("Zoë")
    assert tokens_shown(widget) == [bos] + [ord(ch) - ord("a") for ch in "Zoë"] + [bos]
    expect(widget.locator(".ts-token.ts-bad")).to_have_count(2)
    widget.get_by_label("the right code").check()
    assert "'Z', 'ë' are not in chars" in widget.locator("[data-verdict]").inner_text()

    # The table: every id is a button, and the keyboard reaches it.
    cell = widget.locator('[data-id="4"]')
    cell.focus()
    page.keyboard.press("Enter")
    expect(cell).to_have_attribute("aria-pressed", "true")
    expect(widget.locator("[data-detail]")).to_have_text(f"id 4 is {chars[4]!r}: chars[4] is {chars[4]!r}.")


@pytest.mark.no_python
def test_token_strip_vocabulary_mistakes(server, page: Page):
    chars = vocabulary()
    n = len(chars)
    page.goto(server.url + "/lessons/1.5-bos-and-vocab-size/")
    widget = page.locator('[data-widget="token-strip"]')
    cells = widget.locator("[data-id]")
    expect(cells).to_have_count(n + 1)
    assert cells.nth(n).inner_text().split() == [str(n), "BOS"]
    assert [cells.nth(i).inner_text().split()[1] for i in (0, n - 1)] == [repr(chars[0]), repr(chars[-1])]
    widget.get_by_label("BOS = 0").check()
    expect(widget.locator('[data-id="0"]')).to_have_attribute("data-state", "clash")
    expect(widget.locator(f'[data-id="{n}"]')).to_have_attribute("data-state", "unused")
    widget.get_by_label("vocab_size = len(chars)").check()
    expect(widget.locator(f'[data-id="{n}"]')).to_have_attribute("data-state", "outside")
    assert f"ids go 0 to {n - 1}" in widget.locator("[data-verdict]").inner_text()
    widget.get_by_label("BOS = len(chars) + 1").check()
    expect(cells).to_have_count(n + 2)
    expect(widget.locator(f'[data-id="{n + 1}"]')).to_have_attribute("data-state", "outside")


@pytest.mark.parametrize("path", MODULE_1)
def test_module_1_pages_fit_a_phone(server, browser: Browser, path):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(server.url + path)
    page.wait_for_load_state("networkidle")
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 360
