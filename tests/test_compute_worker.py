"""The author's computations (sandbox.compute): each item in a forked copy of the solved
state, several at once, results in the items' order, and nothing left running after a timeout."""
from __future__ import annotations

from pathlib import Path

from linebyline.sandbox import compute

from .browser.conftest import eventually

SOLUTION = "import os, time\ncounter = [0]\n"
MEET = """
open({mine!r}, 'w').close()
deadline = time.monotonic() + 20
while not os.path.exists({other!r}) and time.monotonic() < deadline:
    time.sleep(0.01)
counter[0] += 1
answer = [os.path.exists({other!r}), counter[0]]
"""


def item(code: str) -> dict:
    return {"code": code, "name": "answer"}


def test_items_run_at_once_on_the_solved_state_and_come_back_in_order(tmp_path):
    one, two = str(tmp_path / "one"), str(tmp_path / "two")
    items = [item(MEET.format(mine=one, other=two)), item(MEET.format(mine=two, other=one)),
             item("answer = 'x' * 300_000"),  # more than a pipe holds: read as it comes
             item("answer = 1 / 0")]
    results = compute(SOLUTION, items, timeout=60)
    # The first two met (they ran at the same time), and each saw the solution's state untouched
    # by the other: counter 1 both times.
    assert [r.get("value") for r in results[:2]] == [[True, 1], [True, 1]]
    assert results[2] == {"value": "x" * 300_000}
    assert results[3]["error"].startswith("ZeroDivisionError")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in "ZX"  # a zombie has stopped; only its exit status is left


def test_a_computation_past_its_time_leaves_nothing_running(tmp_path):
    pids = tmp_path / "pids"
    sleeper = item(f"open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
                   "time.sleep(60)\nanswer = 1")
    results = compute(SOLUTION, [sleeper, sleeper], timeout=2)
    assert results == [{"error": "it ran past 2 s"}] * 2
    started = [int(line) for line in pids.read_text().split()]
    assert started, "no item started"
    eventually(lambda: not any(alive(pid) for pid in started),
               "every forked item ends with the computation")
