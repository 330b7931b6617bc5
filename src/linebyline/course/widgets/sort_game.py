"""sort-game (3.3): put things in an order that keeps every "must come before" rule, then watch
the depth-first sort (append after the children) build one, step by step.

Each puzzle lists items, each with the items it ``needs`` (its children: they must come first),
and a ``goal``: the item the sort starts from, which must need every other item, directly or
not. The browser works out every order and every check from these rules.
"""
from __future__ import annotations

from ..fields import Fields
from . import _common

KIND = "sort-game"


def validate(params: Fields) -> None:
    params.only("puzzles", "mistake")
    puzzles = params.items("puzzles", "puzzle")
    if not puzzles and "puzzles" in params.data:
        params.error("`puzzles` must list at least one puzzle")
    for puzzle in puzzles:
        _puzzle(puzzle)
    _common.texts(params, "mistake")


def _puzzle(puzzle: Fields) -> None:
    puzzle.only("title", "intro", "goal", "items")
    puzzle.get("title", str)
    puzzle.get("intro", str, None)
    goal = puzzle.get("goal", str)
    needs: dict[str, list[str]] = {}
    items = puzzle.items("items", "item")
    for item in items:
        item.only("name", "label", "needs")
        name = item.get("name", str)
        item.get("label", str, None)
        wanted = item.get("needs", list, [])
        if name is None:
            continue
        if name in needs:
            item.error(f"the name {name!r} is used twice", "name")
        needs[name] = [str(n) for n in wanted or []]
        if len(set(needs[name])) != len(needs[name]):
            item.error(f"{name!r} lists an item twice in `needs`", "needs")
    if len(items) < 2:
        puzzle.error("a puzzle needs at least two items")
    for item in items:
        name = item.data.get("name")
        for need in needs.get(name, []):
            if need not in needs:
                item.error(f"{name!r} needs {need!r}, which is not an item of this puzzle", "needs")
    if goal is not None and goal not in needs:
        puzzle.error(f"the goal {goal!r} is not an item of this puzzle", "goal")
        return
    if goal is None or any(need not in needs for wanted in needs.values() for need in wanted):
        return
    # No cycles, and every item reachable from the goal (else the sort would leave it out).
    state: dict[str, int] = {}

    def visit(name: str) -> bool:
        if state.get(name) == 1:
            return False
        if state.get(name) == 2:
            return True
        state[name] = 1
        ok = all(visit(need) for need in needs[name])
        state[name] = 2
        return ok

    if not visit(goal):
        puzzle.error("the rules go round in a circle: no order can keep them all", "items")
        return
    missing = [name for name in needs if name not in state]
    if missing:
        puzzle.error(f"the goal {goal!r} does not need {', '.join(map(repr, missing))}, directly "
                     "or through other items, so the sort from the goal would leave them out",
                     "goal")
