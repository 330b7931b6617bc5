"""Module 4's widgets in Chromium: every number they show against Python's own arithmetic.

slope-plot is swept over every stop of its slider for each curve of lesson 4.3 (the rule and the
nudge must agree everywhere with the starting h), then driven by the keyboard and through its
mistakes; paths-graph is clicked path by path; rule-cards are opened with the keyboard. The
module's pages also pass axe in both colour schemes and fit a 360 px screen.
"""
from __future__ import annotations

import math
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import busy_widget_passes_axe_and_fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
PAGES = ["/lessons/4.1-slopes/", "/lessons/4.2-derivatives-by-nudging/",
         "/lessons/4.3-meet-log-and-exp/", "/lessons/4.4-the-chain-rule/",
         "/lessons/4.5-many-paths-add-up/", "/lessons/4.6-the-table-of-local-gradients/"]

SWEEP = """(widget) => {
    const slider = widget.querySelector('input[type=range]');
    const read = (key) => Number(widget.querySelector(`[data-readout="${key}"]`).dataset.value);
    const rows = [];
    const steps = Math.round((Number(slider.max) - Number(slider.min)) / Number(slider.step));
    for (let i = 0; i <= steps; i += 1) {
        slider.value = String(Number(slider.min) + i * Number(slider.step));
        slider.dispatchEvent(new Event('input', {bubbles: true}));
        rows.push({x: read('x'), rule: read('rule'), nudge: read('nudge'),
                   verdict: widget.querySelector('[data-readout="verdict"]').textContent});
    }
    return rows;
}"""


def number(text: str) -> float:
    return float(text.replace("−", "-"))


def test_slope_plot_agrees_with_python_at_every_stop(server, page: Page, course):
    params = course.lesson("4.3").explore.params
    h = params["h"]["start"]
    curves = {"log x": (math.log, lambda x: 1 / x), "exp x": (math.exp, math.exp),
              "−log p, the surprise (x is p)": (lambda p: -math.log(p), lambda p: -1 / p)}
    page.goto(server.url + "/lessons/4.3-meet-log-and-exp/")
    widget = page.locator('[data-widget="slope-plot"]')
    expect(widget.locator("select")).to_have_value(str(h))
    radios = widget.locator(".sp-picker").first.locator("input[type=radio]")
    seen = 0
    for index, function in enumerate(params["functions"]):
        radios.nth(index).check()
        f, slope = curves[function["label"]]
        rows = widget.evaluate(SWEEP)
        assert len(rows) >= 40
        for row in rows:
            x = row["x"]
            assert row["rule"] == pytest.approx(slope(x), rel=1e-12), (function["label"], x)
            assert row["nudge"] == pytest.approx((f(x + h) - f(x - h)) / (2 * h), rel=1e-9)
            assert row["verdict"] == "The rule and the nudge agree.", (function["label"], x)
            seen += 1
    assert seen > 200

    # The keyboard moves x by one step; the wrong rule's number is log x, and it is called wrong.
    radios.nth(0).check()
    slider = widget.locator("input[type=range]")
    slider.fill("2")
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert number(widget.locator('[data-readout="x"]').inner_text()) == pytest.approx(2.05)
    widget.get_by_label("A wrong rule: log x as log's slope, x as exp's").check()
    assert float(widget.locator('[data-readout="rule"]').get_attribute("data-value")) == \
        pytest.approx(math.log(2.05))
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("misses the curve")


def test_slope_plot_shows_the_nudging_mistakes(server, page: Page):
    page.goto(server.url + "/lessons/4.2-derivatives-by-nudging/")
    widget = page.locator('[data-widget="slope-plot"]')
    widget.get_by_label("x³").check()
    widget.locator("input[type=range]").fill("2")
    widget.get_by_label("nudge h").select_option("0.01")
    nudged = widget.locator('[data-readout="nudge"]')
    assert float(nudged.get_attribute("data-value")) == pytest.approx((2.01 ** 3 - 1.99 ** 3) / 0.02)
    widget.get_by_label("One-sided nudge: (f(x + h) − f(x)) / h").check()
    assert float(nudged.get_attribute("data-value")) == pytest.approx((2.01 ** 3 - 8) / 0.01)
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("one-sided")
    # Forgetting to put x back: each measurement starts one nudge lower.
    widget.get_by_label("Forget to put x back after nudging").check()
    widget.get_by_role("button", name="Measure again").click()
    widget.get_by_role("button", name="Measure again").click()
    x = 2 - 2 * 0.01
    assert float(nudged.get_attribute("data-value")) == pytest.approx(
        ((x + 0.01) ** 3 - (x - 0.01) ** 3) / 0.02)
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("left it at 1.98")
    # A nudge far too small: the difference is rounding noise, and the widget says so.
    widget.get_by_label("No mistake").check()
    widget.get_by_label("nudge h").select_option("1e-13")
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("rounding noise")


def test_slope_plot_shows_true_arithmetic_and_advises_an_h_of_its_menu(server, page: Page):
    """At h = 1e−13, f(x + h) and f(x − h) differ in their last digits only: the formula shows
    enough of them that its own subtraction and division give the slope shown, and the advice
    names an h the menu has, one that does measure the slope."""
    page.goto(server.url + "/lessons/4.2-derivatives-by-nudging/")
    widget = page.locator('[data-widget="slope-plot"]')
    widget.get_by_role("radio", name="x²").check()
    slider = widget.locator("input[type=range]")
    slider.fill("1.6")
    menu = widget.get_by_label("nudge h")
    labels = menu.locator("option").all_inner_texts()
    offered = [text.replace("−", "-") for text in labels]
    verdict = widget.locator('[data-readout="verdict"]')
    for h, advice in (("1e-13", "Use a larger h, such as "), ("1e-10", None)):
        menu.select_option(h)
        how = widget.locator(".sp-measured .sp-how").inner_text().replace("−", "-")
        match = re.fullmatch(r"\(f\(x \+ h\) - f\(x - h\)\) / 2h = \((\S+) - (\S+)\) / (\S+)", how)
        assert match, how
        right, left, run = (float(group) for group in match.groups())
        assert run == 2 * float(h)
        slope = number(widget.locator('[data-readout="nudge"]').inner_text())
        assert round((right - left) / run, 4) == slope, how
        if advice:
            expect(verdict).to_contain_text(advice)
            suggested = re.search(r"such as (\S+)\.$", verdict.inner_text()).group(1).replace("−", "-")
            assert suggested in offered, (suggested, offered)
    # The h it suggests does measure the slope; a curve that bends gets a smaller h, of the menu.
    menu.select_option(label=labels[offered.index(suggested)])
    expect(verdict).to_have_text("The rule and the nudge agree.")
    widget.get_by_role("radio", name="x³").check()
    slider.fill("2")
    menu.select_option("0.5")
    expect(verdict).to_contain_text("make h smaller, such as ")
    smaller = re.search(r"such as (\S+)\.$", verdict.inner_text()).group(1).replace("−", "-")
    assert smaller in offered and float(smaller) < 0.5
    # The slider's name stays "x" whatever its value; the value is in aria-valuetext.
    for value in ("2.5", "1.6"):
        slider.fill(value)
        expect(widget.get_by_role("slider", name="x", exact=True)).to_have_attribute("aria-valuetext", value)


def _paths(widget) -> list[float]:
    return [float(button.get_attribute("data-value"))
            for button in widget.locator("button.pg-path").all()]


def test_paths_graph_highlights_each_path_and_adds_the_shares(server, page: Page):
    page.goto(server.url + "/lessons/4.5-many-paths-add-up/")
    widget = page.locator('[data-widget="paths-graph"]')
    # y = (x · 4) · (x + 5) at x = 2: through p 4 · (x + 5), through q 1 · 4x.
    assert _paths(widget) == pytest.approx([4 * 7, 1 * 8])
    total = widget.locator('[data-readout="total"]')
    measured = widget.locator('[data-readout="measured"]')
    y = lambda x: (x * 4) * (x + 5)  # noqa: E731
    assert float(total.get_attribute("data-value")) == pytest.approx(36)
    assert float(measured.get_attribute("data-value")) == pytest.approx(
        (y(2.0001) - y(1.9999)) / 0.0002)
    first = widget.locator("button.pg-path").first
    first.click()
    expect(first).to_have_attribute("aria-pressed", "true")
    assert widget.locator("path.pg-edge.pg-on").count() == 2
    assert widget.locator("path.pg-edge.pg-off").count() == 2
    # The keyboard picks the second path.
    second = widget.locator("button.pg-path").nth(1)
    second.focus()
    page.keyboard.press("Enter")
    expect(second).to_have_attribute("aria-pressed", "true")
    expect(first).to_have_attribute("aria-pressed", "false")
    # Another x: the shares follow, and still add up to the nudge.
    widget.locator("input[type=range]").fill("1")
    assert _paths(widget) == pytest.approx([4 * 6, 1 * 4])
    assert float(total.get_attribute("data-value")) == pytest.approx(28)
    # The mistakes give the numbers nudging never shows.
    widget.get_by_label("Multiply the paths' shares").check()
    assert float(total.get_attribute("data-value")) == pytest.approx(24 * 4)
    widget.get_by_label("Keep only the last path (= instead of +=)").check()
    assert float(total.get_attribute("data-value")) == pytest.approx(4)
    widget.get_by_label("Add the rates along a path").check()
    assert _paths(widget) == pytest.approx([4 + 6, 1 + 4])
    expect(widget.locator('[data-readout="verdict"]')).to_contain_text("rates multiply")
    # The surprise of a count: two paths, -1 and +1/27.
    widget.get_by_label("No mistake: multiply along, add across").check()
    widget.get_by_label("the surprise of a count: L = −log(w / (w + 26))").check()
    assert _paths(widget) == pytest.approx([-1, 1 / 27])
    assert float(widget.locator('[data-readout="measured"]').get_attribute("data-value")) == \
        pytest.approx(-26 / 27, rel=1e-6)


def test_rule_cards_open_by_keyboard_and_check_each_rule(server, page: Page, course):
    cards = course.lesson("4.6").explore.params["cards"]
    h = course.lesson("4.6").explore.params["h"]
    functions = {"add": lambda x, c: x + c["other"], "mul": lambda x, c: x * c["other"],
                 "pow": lambda x, c: x ** c["n"], "log": lambda x, c: math.log(x),
                 "exp": lambda x, c: math.exp(x), "relu": lambda x, c: max(0.0, x)}
    rules = {"add": lambda x, c: 1, "mul": lambda x, c: c["other"],
             "pow": lambda x, c: c["n"] * x ** (c["n"] - 1), "log": lambda x, c: 1 / x,
             "exp": lambda x, c: math.exp(x), "relu": lambda x, c: 1.0 if x > 0 else 0.0}
    page.goto(server.url + "/lessons/4.6-the-table-of-local-gradients/")
    widget = page.locator('[data-widget="rule-cards"]')
    toggles = widget.locator("button.rc-toggle")
    assert toggles.count() == len(cards) == 6
    for index, card in enumerate(cards):
        toggle = toggles.nth(index)
        back = widget.locator(f"#{toggle.get_attribute('aria-controls')}")
        expect(back).to_be_hidden()
        toggle.focus()
        page.keyboard.press("Enter" if index % 2 == 0 else " ")
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(back).to_be_visible()
        f, x = functions[card["op"]], card["x"]
        assert float(back.locator('[data-readout="rule"]').get_attribute("data-value")) == \
            pytest.approx(rules[card["op"]](x, card))
        assert float(back.locator('[data-readout="nudge"]').get_attribute("data-value")) == \
            pytest.approx((f(x + h, card) - f(x - h, card)) / (2 * h), rel=1e-9)
        expect(back.locator(".rc-verdict")).to_have_text("The rule and the nudge agree.")
    # Type another x into the log card, then put relu on its corner.
    log = widget.locator("li", has=page.locator('[data-op="log"]'))
    log.locator("input").fill("0.5")
    assert float(log.locator('[data-readout="rule"]').get_attribute("data-value")) == 2
    assert float(log.locator('[data-readout="wrong"]').get_attribute("data-value")) == \
        pytest.approx(math.log(0.5))
    relu = widget.locator("li", has=page.locator('[data-op="relu"]'))
    relu.locator("input").fill("0")
    assert float(relu.locator('[data-readout="rule"]').get_attribute("data-value")) == 0
    assert float(relu.locator('[data-readout="nudge"]').get_attribute("data-value")) == \
        pytest.approx(0.5)
    expect(relu.locator(".rc-verdict")).to_contain_text("corner")
    expect(relu.locator(".rc-mistake")).to_contain_text(">= instead of >")


def _opened(page: Page) -> None:
    """Open what a learner opens (every card, a path), so that its colours are checked too."""
    page.evaluate("""() => {
        document.querySelectorAll('.rc-toggle').forEach((b) => b.click());
        const path = document.querySelector('.pg-path'); if (path) path.click();
    }""")


@pytest.mark.parametrize("path", PAGES)
def test_module_4_widgets_pass_axe_and_fit_a_phone(server, page: Page, path):
    busy_widget_passes_axe_and_fits_a_phone(page, server.url + path, _opened)
