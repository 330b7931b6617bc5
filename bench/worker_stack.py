"""How deep Python can recurse inside Pyodide in a Chromium module worker, as our workers run it.

The recursion limits of the two Python workers rest on this: the checks' worker (frontend/src/
worker.ts) and the training worker (frontend/src/train-worker.ts, what a learner's recursive
topological sort needs: bench/topo_depth.py). For each kind of recursion, a fresh worker runs it at
a depth, with Python's own limit out of the way, and a binary search finds the deepest that works
and says how the first one too deep failed (a RecursionError Python raises itself, or a crash of
the worker's stack):

- a plain function, as a learner writes `visit` (a loop over children, a set, a list);
- an operator method that calls the operator again (recursion through C, as in `a + b` inside
  `__add__`).

    .venv/bin/python bench/worker_stack.py [--most 200000]
"""
from __future__ import annotations

import argparse

from in_chromium import app_in_chromium
from playwright.sync_api import Page

PROBE_WORKER = """
self.onmessage = async (event) => {
  const { pyodideUrl, source } = event.data;
  try {
    const { loadPyodide } = await import(pyodideUrl + "pyodide.mjs");
    const py = await loadPyodide({ indexURL: pyodideUrl });
    try {
      self.postMessage({ outcome: "ok", detail: String(py.runPython(source)) });
    } catch (error) {
      // A PythonError (it has a .type) is an exception Python raised; anything else broke Python.
      const lines = String(error).split("\\n").filter(Boolean);
      self.postMessage({ outcome: error?.type ? "error" : "crash", detail: lines[lines.length - 1] ?? "" });
    }
  } catch (error) {
    self.postMessage({ outcome: "crash", detail: String(error) });
  }
};
"""
KINDS = {
    "a plain recursive function (visit)": """
import sys
sys.setrecursionlimit(10_000_000)
children = {i: [i + 1] for i in range(DEPTH)}
children[DEPTH] = []
seen, order = set(), []
def visit(v):
    if v not in seen:
        seen.add(v)
        for child in children[v]:
            visit(child)
        order.append(v)
visit(0)
len(order)
""",
    "an operator calling itself (through C)": """
import sys
sys.setrecursionlimit(10_000_000)
class Deep:
    def __init__(self, n):
        self.n = n
    def __add__(self, other):
        return self if self.n == 0 else Deep(self.n - 1) + other
(Deep(DEPTH) + 1).n
""",
}


def probe(page: Page, source: str, depth: int) -> tuple[str, str]:
    """Run `source` at `depth` in a fresh worker: ("ok" | "error" (Python raised) | "crash", detail)."""
    return tuple(page.evaluate("""async (source) => {
        const worker = new Worker("/bench-probe-worker.js", { type: "module" });
        const answer = await new Promise((resolve) => {
            worker.onmessage = (event) => resolve([event.data.outcome, event.data.detail]);
            worker.onerror = (event) => resolve(["crash", event.message || "the worker failed"]);
            worker.postMessage({ pyodideUrl: document.body.dataset.pyodideUrl, source });
        });
        worker.terminate();
        return answer;
    }""", source.replace("DEPTH", str(depth))))


def deepest(page: Page, source: str, most: int) -> tuple[int, str]:
    """The deepest depth that works (up to `most`), and how the next one failed."""
    low, high, failure = 1, most + 1, f"none up to {most:,}"
    if probe(page, source, low)[0] != "ok":
        return 0, "it fails even at depth 1"
    while high - low > max(1, low // 100):  # to 1 %: each probe loads Python afresh
        middle = (low + high) // 2
        outcome, detail = probe(page, source, middle)
        if outcome == "ok":
            low = middle
        else:
            high, failure = middle, f"{outcome}: {detail[:160]}"
        print(f"    depth {middle:>9,}: {outcome}", flush=True)
    return low, failure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--most", type=int, default=200_000, help="the deepest depth tried (200,000)")
    parser.add_argument("--port", type=int, default=8631, help="for the server (8631)")
    args = parser.parse_args()
    results = []
    with app_in_chromium(args.port, {"bench-probe-worker.js": PROBE_WORKER}) as (url, _, page):
        page.goto(url + "/my-microgpt/")
        for kind, source in KINDS.items():
            print(f"{kind}:", flush=True)
            results.append((kind, *deepest(page, source, args.most)))
    print("\nheadless Chromium, Pyodide in a module worker:")
    for kind, depth, failure in results:
        print(f"  {kind}: works to depth {depth:,}; deeper: {failure}")


if __name__ == "__main__":
    main()
