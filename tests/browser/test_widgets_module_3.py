"""Module 3's widgets in Chromium: expression-graph (3.1, 3.2), sort-game (3.3) and graph-walk
(3.4, 3.5), driven by keyboard and clicks. Every number they show is compared with the same
number worked out here, in Python, from the lesson's own parameters. Then axe and a phone-sized
screen on every page of the module.
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import busy_widget_passes_axe_and_fits_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.no_python]
PAGES = ["/lessons/3.1-expressions-as-graphs/", "/lessons/3.2-operator-overloading/",
         "/lessons/3.3-topological-sort/", "/lessons/3.4-recursion-and-visited/",
         "/lessons/3.5-walking-it-in-reverse/"]


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def shown(x: float) -> str:
    """A number as the widgets write it: no trailing zeros, a real minus sign."""
    return f"{x:g}".replace("-", "−")


# --- independent Python versions of what the widgets work out ----------------------------------

def graph_of(params):
    """{name: children} from graph-walk parameters (inputs first), and the output's name."""
    children = {name: [] for name in params["inputs"]}
    for node in params["nodes"]:
        children[node["name"]] = list(node["args"])
    return children, params["nodes"][-1]["name"]


def post_order(children, root, before=False):
    """The depth-first sort of 3.3/3.4 (or, before=True, the mistake: append on entry)."""
    order = []

    def visit(name):
        if name in order:
            return
        if before:
            order.append(name)
        for child in children[name]:
            visit(child)
        if not before:
            order.append(name)

    visit(root)
    return order


def count_calls(children, root, seen):
    """How many times visit() runs, with or without the visited set."""
    calls, done = 0, set()

    def visit(name):
        nonlocal calls
        calls += 1
        if seen:
            if name in done:
                return
            done.add(name)
        for child in children[name]:
            visit(child)

    visit(root)
    return calls


def _paths_below(children, root):
    """Every node reached, once per path, walking down from root: a node found k times has k
    paths up to root."""
    found = [root]
    for child in children[root]:
        found.extend(_paths_below(children, child))
    return found


def forwards_counts(children, root):
    """The counts a forwards walk leaves (the 3.5 mistake)."""
    counts = {name: 0 for name in children}
    counts[root] = 1
    for name in post_order(children, root):
        for child in children[name]:
            counts[child] += counts[name]
    return counts


# --- expression-graph ----------------------------------------------------------------------------

def test_expression_graph_draws_what_is_typed(server, page: Page, course):
    params = course.lesson("3.1").explore.params
    values = {name: float(value) for name, value in params["variables"].items()}
    page.goto(server.url + PAGES[0])
    widget = page.locator('[data-widget="expression-graph"]')
    box = widget.get_by_label("Expression")
    box.fill("")
    box.press_sequentially("a * b + a * c")  # typed key by key, as a learner does
    status = widget.locator("[data-status]")
    expect(status).to_contain_text("6 nodes and 6 arrows")
    items = widget.locator("[data-nodes] li")
    assert items.count() == 6
    for index in range(6):
        text = items.nth(index).get_attribute("data-node-text")
        data = float(items.nth(index).get_attribute("data-data"))
        assert data == pytest.approx(eval(text, {}, dict(values))), text  # noqa: S307
    output = eval("a * b + a * c", {}, dict(values))  # noqa: S307
    expect(status).to_contain_text(f"The output's data is {shown(output)}")
    # every box of the drawing shows its node's number
    boxes = sorted(number(t) for t in widget.locator(".eg-data").all_text_contents())
    assert boxes == sorted([2, -3, 10, -6, 20, 14])

    box.fill("a * (b +")
    expect(status).to_contain_text("The expression stops after “+”")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(items).to_have_count(0)
    widget.get_by_role("button", name="Draw (a + b) * c").click()
    expect(status).to_contain_text(f"The output's data is {shown((values['a'] + values['b']) * values['c'])}")


def test_expression_graph_builds_what_value_builds_and_its_mistakes(server, page: Page, course):
    params = course.lesson("3.2").explore.params
    values = {name: float(value) for name, value in params["variables"].items()}
    page.goto(server.url + PAGES[1])
    widget = page.locator('[data-widget="expression-graph"]')
    box = widget.get_by_label("Expression")
    status = widget.locator("[data-status]")
    box.fill("3 - a")
    want = 3 - values["a"]
    expect(status).to_contain_text(f"The output's data is {shown(want)}")
    # 3 - a is built as (a * -1) + 3: an add and a mul node, and two wrapped numbers
    assert widget.locator("[data-nodes] li").count() == 5
    assert "2 plain numbers were wrapped" in status.inner_text()
    widget.get_by_label("Try the mistake: __rsub__ returns self + (-other)").check()
    flipped = values["a"] - 3
    expect(status).to_contain_text(f"The output's data is {shown(flipped)}")
    expect(status).to_contain_text(f"With microgpt's Value the output would be {shown(want)}")
    widget.get_by_label("Try the mistake: no __radd__").check()
    expect(status).to_contain_text("TypeError: unsupported operand type(s) for +: 'int' and 'Value'")
    widget.get_by_label("Try the mistake: __add__ and __mul__ do not wrap plain numbers").check()
    expect(status).to_contain_text("AttributeError: 'int' object has no attribute 'data'")
    widget.get_by_label("Value as in microgpt.py").check()
    box.fill("(a - b) / c")
    expect(status).to_contain_text(f"The output's data is {shown((values['a'] - values['b']) / values['c'])}")
    assert "a pow node" in widget.locator("[data-nodes]").inner_text()


# --- sort-game ----------------------------------------------------------------------------------

def puzzle_graph(puzzle):
    return {item["name"]: list(item.get("needs", [])) for item in puzzle["items"]}


def first_broken(children, order):
    for at, name in enumerate(order):
        for need in children[name]:
            if need not in order[:at]:
                return need, name
    return None


def test_sort_game_checks_an_order_and_shows_the_sort(server, page: Page, course):
    puzzles = course.lesson("3.3").explore.params["puzzles"]
    dressing = puzzle_graph(puzzles[0])
    goal = puzzles[0]["goal"]
    right = post_order(dressing, goal)
    page.goto(server.url + PAGES[2])
    widget = page.locator('[data-widget="sort-game"]')
    verdict = widget.locator("[data-verdict]")

    for name in right:  # the sort's own order is a right one
        widget.locator(f'[data-put="{name}"]').click()
    widget.locator("[data-check-order]").click()
    expect(verdict).to_contain_text("Every rule holds")

    widget.get_by_role("button", name="Start over").click()
    mine = ["socks", "shoes"]
    for name in mine:
        widget.locator(f'[data-put="{name}"]').click()
    widget.locator("[data-check-order]").click()
    need, item = first_broken(dressing, mine)
    expect(verdict).to_contain_text(f"Broken rule: {need} must come before {item}")

    widget.get_by_role("button", name="To the end").click()
    chips = widget.locator("[data-sort-order] li[data-name]")
    assert [chips.nth(i).get_attribute("data-name") for i in range(chips.count())] == right
    widget.get_by_label("Try appending before the children").check()
    wrong = post_order(dressing, goal, before=True)
    assert [chips.nth(i).get_attribute("data-name") for i in range(chips.count())] == wrong
    need, item = first_broken(dressing, wrong)
    expect(widget.locator("[data-caption]")).to_contain_text(f"Broken rule: {need} must come before {item}")

    # keyboard: Reset, then the arrow keys step the sort
    widget.get_by_label("Try appending before the children").uncheck()
    widget.get_by_role("button", name="Reset").click()
    widget.get_by_role("button", name="Step ▶").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(widget.locator("[data-step-counter]")).to_contain_text("step 2 /")
    expect(widget.locator("[data-stack]")).to_contain_text(f"visit({goal})")

    widget.get_by_label("2. A graph of Values").check()
    values = puzzle_graph(puzzles[1])
    widget.get_by_role("button", name="To the end").click()
    assert [chips.nth(i).get_attribute("data-name") for i in range(chips.count())] == post_order(
        values, puzzles[1]["goal"])


# --- graph-walk ---------------------------------------------------------------------------------

def test_graph_walk_counts_the_calls_of_visit(server, page: Page, course):
    params = course.lesson("3.4").explore.params
    children, output = graph_of(params)
    page.goto(server.url + PAGES[3])
    widget = page.locator('[data-widget="graph-walk"]')
    widget.get_by_role("button", name="To the end").click()
    calls = widget.locator("[data-calls]")
    expect(calls).to_have_text(str(count_calls(children, output, seen=True)))
    order = widget.locator("[data-order] li")
    assert order.all_inner_texts() == post_order(children, output)

    widget.get_by_label("Try without seen").check()
    expect(calls).to_have_text(str(count_calls(children, output, seen=False)))
    assert order.count() == count_calls(children, output, seen=False)  # one entry per call

    slider = widget.locator(".gw-ladder input[type=range]")
    slider.fill("30")
    ladder = {f"x{k}": [f"x{k - 1}", f"x{k - 1}"] for k in range(1, 31)} | {"x0": []}
    assert number(widget.locator('[data-ladder="values"]').inner_text()) == 31
    assert number(widget.locator('[data-ladder="with"]').inner_text()) == count_calls(ladder, "x30", True)
    without = 1  # without seen, x_k's calls: itself, then twice those of x_(k-1)
    for _ in range(30):
        without = 1 + 2 * without
    assert number(widget.locator('[data-ladder="without"]').inner_text()) == without
    assert count_calls(ladder, "x12", False) == 2 ** 13 - 1  # the recurrence, checked by brute force
    slider.focus()
    page.keyboard.press("ArrowLeft")
    expect(widget.locator('[data-ladder="values"]')).to_have_text("30")


def test_graph_walk_counts_paths_walking_in_reverse(server, page: Page, course):
    params = course.lesson("3.5").explore.params
    children, output = graph_of(params)
    page.goto(server.url + PAGES[4])
    widget = page.locator('[data-widget="graph-walk"]')
    widget.get_by_role("button", name="Step ▶").focus()
    for _ in range(len(children)):
        page.keyboard.press("ArrowRight")
    expect(widget.locator("[data-step-counter]")).to_have_text(f"step {len(children)} / {len(children)}")

    def counts():
        return {name: number(widget.locator(f'[data-status="{name}"]').text_content().split(":")[1])
                for name in children}

    assert counts() == {name: _paths_below(children, output).count(name) for name in children}
    widget.get_by_label("Try walking forwards").check()
    assert counts() == forwards_counts(children, output)
    widget.locator('[data-paths-of="a"]').click()
    listed = widget.locator("[data-paths] li")
    assert listed.count() == _paths_below(children, output).count("a")
    assert all(text.startswith("a →") and text.endswith(output) for text in listed.all_inner_texts())


# --- every page of the module: axe in both themes, and a phone's width -------------------------

def _busier(page: Page) -> None:
    """The widget's busier states too: the mistake switched on, a step taken."""
    for label in ("Try without seen", "Try walking forwards", "Try appending before the children"):
        if page.get_by_label(label).count():
            page.get_by_label(label).check()
            page.get_by_role("button", name="Step ▶").click()


@pytest.mark.parametrize("path", PAGES)
def test_module_3_widgets_pass_axe_and_fit_a_phone(server, page: Page, path):
    busy_widget_passes_axe_and_fits_a_phone(page, server.url + path, _busier)
