"""The Build's Graph tab in Chromium: Run a learner's file, open Graph, see the graph of the Values
their own code made, step through their own backward(), and find a replaced grad marked.

The learner files are the lessons' solutions, and the same with `child.grad =` where `+=`
belongs (the mistake the tab is for), so every expected number is worked out here from the
file's own arithmetic, not read back from the code under test.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from linebyline.course import default_course_path

from .conftest import axe_violations, next_frames, set_editor_text, wait_for_python

pytestmark = pytest.mark.browser
LESSONS = default_course_path() / "lessons"
SHOTS = os.environ.get("LINEBYLINE_SHOTS", "")  # a folder: screenshots of each page, for a reader


def solution(number: str) -> str:
    folder = next(LESSONS.glob(f"{number}-*"))
    return (folder / "solution.py").read_text(encoding="utf-8")


def url(number: str) -> str:
    return f"/lessons/{next(LESSONS.glob(f'{number}-*')).name}/"


def replaced(source: str) -> str:
    """The solution with its backward()'s `+=` made `=`: a grad replaced instead of added.
    4.4's demo is a chain (each node used once), where `=` and `+=` agree, so there the learner
    also squares v as v * v: a node used twice, as they would try to see the difference."""
    source = source.replace("y = v ** 2 ", "y = v * v  ")
    lines = source.splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if "child.grad +=" in line]
    assert len(hits) == 1, hits
    lines[hits[0]] = lines[hits[0]].replace("child.grad +=", "child.grad =")
    return "".join(lines)


def run_and_open_graph(page: Page, base: str, number: str, source: str) -> None:
    page.goto(base + url(number))
    wait_for_python(page)
    set_editor_text(page, source)
    page.click('[data-action="run"]')
    expect(page.locator("[data-run-status]")).to_contain_text("Ran", timeout=60_000)
    page.get_by_role("tab", name="Graph").click()
    view = page.locator("[data-graph-view]")
    expect(view).to_have_attribute("data-state", re.compile("^(drawn|error)$"), timeout=60_000)
    assert view.get_attribute("data-state") == "drawn", page.locator("[data-graph-status]").inner_text()
    expect(page.locator("[data-graph-canvas] > svg, [data-graph-canvas] > figure")).to_have_count(1)


def shoot(page: Page, name: str) -> None:
    if SHOTS:
        next_frames(page)
        page.locator("#build").screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def step_words(page: Page) -> str:
    return page.locator("[data-graph-words]").inner_text()


@pytest.mark.parametrize("number", ["3.5", "4.4", "7.5"])
def test_a_correct_backward_steps_through_with_no_wrong_step(server, page: Page, number: str):
    run_and_open_graph(page, server.url, number, solution(number))
    status = page.locator("[data-graph-status]").inner_text()
    assert "every step agrees" in status, status
    expect(page.locator("[data-graph-first-wrong]")).to_be_hidden()
    expect(page.locator(".graph-node.graph-wrong")).to_have_count(0)
    slider = page.locator("[data-graph-slider]")
    steps = int(slider.get_attribute("max") or 0)
    assert steps >= 4
    page.click("[data-graph-back]")
    assert step_words(page).startswith(f"Step {steps - 1} of {steps}")
    slider.fill("0")
    assert step_words(page).startswith("Before backward()")
    grads = {t.strip() for t in page.locator(".graph-grad").all_text_contents()}
    assert grads == {"grad 0"}, grads  # the replay starts from zero grads
    expect(page.locator(".cm-marked-line")).to_have_count(0)
    page.click("[data-graph-step]")
    assert "backward() starts at" in step_words(page) and "its grad is 1" in step_words(page)
    expect(page.locator(".graph-node.graph-to")).to_have_count(1)
    # The editor marks the learner's line that made the write, the line the words name.
    line = int(re.search(r"\(line (\d+) of your code\)", step_words(page)).group(1))
    marked = page.locator(".cm-marked-line")
    expect(marked).to_have_count(1)
    assert marked.inner_text().strip() == solution(number).splitlines()[line - 1].strip()
    # Each later step travels one arrow: x * x's two arrows to x light up one at a time.
    for position in range(2, steps + 1):
        slider.fill(str(position))
        expect(page.locator(".kit-edge.kit-hot")).to_have_count(1)
    shoot(page, f"graph-{number}-right")


@pytest.mark.parametrize("number", ["3.5", "4.4", "7.5"])
def test_a_replaced_grad_is_found_and_marked(server, page: Page, number: str):
    run_and_open_graph(page, server.url, number, replaced(solution(number)))
    status = page.locator("[data-graph-status]").inner_text()
    assert "marked wrong" in status, status
    first = page.locator("[data-graph-first-wrong]")
    expect(first).to_be_visible()
    first.click()
    words = step_words(page)
    assert "wrong step" in words and "replaced it with" in words and "Write +=" in words, words
    expect(page.locator("[data-graph-words]")).to_have_attribute("data-mark", "wrong")
    expect(page.locator(".graph-node.graph-wrong")).to_have_count(1)  # the node the step wrote
    shoot(page, f"graph-{number}-replaced")
    page.locator("[data-graph-slider]").press("End")
    expect(page.locator(".graph-node.graph-wrong").first).to_be_visible()  # grads that end wrong


def test_a_graph_without_backward_draws_the_learners_own_nodes(server, page: Page):
    run_and_open_graph(page, server.url, "3.1", solution("3.1"))
    expect(page.locator("[data-graph-status]")).to_contain_text("no backward() yet")
    expect(page.locator("[data-graph-steps]")).to_be_hidden()
    # The demo's d = e + c and e = a * b: five nodes, d drawn last, named as the file names them.
    expect(page.locator(".graph-node")).to_have_count(5)
    titles = page.locator(".graph-title").all_text_contents()
    assert {"a", "b", "c", "e (*)", "d (+)"} == set(titles), titles
    shoot(page, "graph-3.1")


def test_the_drawing_is_read_out_by_keyboard_and_passes_axe(server, page: Page):
    run_and_open_graph(page, server.url, "7.5", solution("7.5"))
    page.locator("[data-graph-canvas]").focus()
    words = page.locator("[data-graph-node]")
    expect(words).to_contain_text("y (+): data 12, grad 1; made from")
    page.keyboard.press("Home")
    expect(words).to_contain_text("x: data 3, grad 7; a leaf")
    expect(words).to_contain_text("number 1 of 3 in your topological sort")  # their own order list
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page, "#build") == [], scheme
    page.set_viewport_size({"width": 390, "height": 800})
    next_frames(page)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    shoot(page, "graph-7.5-phone")


def test_attention_weights_are_drawn_as_a_grid(server, page: Page):
    run_and_open_graph(page, server.url, "8.4", solution("8.4"))
    page.locator("[data-graph-name]").select_option("calls")
    grid = page.locator(".graph-grid")
    expect(grid).to_be_visible(timeout=30_000)
    # The demo keeps the last position's softmax: one row over the 5 positions of BOS + "emma".
    expect(grid.locator("tbody tr")).to_have_count(1)
    expect(grid.locator("tbody td")).to_have_count(5)
    shoot(page, "graph-8.4")


def test_a_graph_of_500_nodes_is_drawn_in_full_and_stepped_by_keyboard(server, page: Page):
    """Drawn in full up to 500 nodes; bench/graph_tab.py measures how long it holds the page."""
    source = solution("7.5").split('if __name__ == "__main__":')[0] + (
        'if __name__ == "__main__":\n'
        "    total = Value(0.0)\n"
        "    for i in range(125):\n"
        "        total = total + Value(i / 10) * Value(0.5)\n"  # 4 new nodes each: 501 in all
        "    total.backward()\n")
    run_and_open_graph(page, server.url, "7.5", source)
    expect(page.locator("[data-graph-status]")).to_contain_text("total: 500 of its 501 nodes")
    expect(page.locator(".graph-node")).to_have_count(500)
    slider = page.locator("[data-graph-slider]")
    # 501 writes: the start, then one per child of each + and *; the one to the node not drawn
    # (the first Value(0.0), farthest from total) is counted, not shown.
    expect(page.locator("[data-graph-status]")).to_contain_text("wrote a grad 501 times")
    assert slider.get_attribute("max") == "500"
    slider.press("Home")
    page.keyboard.press("ArrowRight")
    assert step_words(page).startswith("Step 1 of ")
    page.locator("[data-graph-canvas]").focus()
    page.keyboard.press("End")
    expect(page.locator("[data-graph-node]")).to_contain_text("total (+): data")


def test_the_layout_library_stays_out_of_the_pages_bundle():
    """dagre runs in the Python worker: the page's main thread never lays a graph out."""
    dist = Path(__file__).resolve().parents[2] / "src/linebyline/web/static/linebyline/dist"
    marker = "Graph does not have node"  # one of dagre's own messages

    def bundle(name: str) -> str:
        text = (dist / name).read_text(encoding="utf-8")
        chunks = re.findall(r'from"\./chunks/([^"]+)"', text)
        return text + "".join((dist / "chunks" / chunk).read_text(encoding="utf-8") for chunk in chunks)

    assert marker in bundle("worker.js")
    assert marker not in bundle("app.js")


def test_a_whole_forward_pass_folds_into_blocks_that_open_on_demand(server, page: Page):
    """7.7's demo ends on the loss of a train2 step: tens of thousands of nodes."""
    run_and_open_graph(page, server.url, "7.7", solution("7.7"))
    blocks = page.locator("[data-graph-blocks]")
    expect(blocks).to_contain_text("It folds into blocks")
    names = [b.split(" · ")[0] for b in blocks.locator("button").all_inner_texts()]
    assert names[0] == "nearest loss" and {"wte", "mlp_fc1", "mlp_fc2"} <= set(names), names
    expect(page.locator(".graph-node")).to_have_count(500)
    blocks.get_by_role("button", name=re.compile(r"^mlp_fc1 · ")).click()
    expect(page.locator("[data-graph-status]")).to_contain_text("the block mlp_fc1 of loss", timeout=60_000)
    fc1 = blocks.get_by_role("button", name=re.compile(r"^mlp_fc1 · "))
    expect(fc1).to_have_attribute("aria-pressed", "true")
    titles = " ".join(page.locator(".graph-title").all_text_contents())
    assert "relu" in titles and "log" not in titles  # the MLP's first layer, not the loss
    shoot(page, "graph-7.7-block")
