"""runtime/browser.py's graph entry, as the browser's worker calls it, in a fresh CPython process
(importing browser.py seals and freezes that process): it reads what the last Build run made,
never an Explore widget's run, and a backward() stopped by the page's time limit is an error to
show, not a broken Python."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from .conftest import ROOT

SCRIPT = textwrap.dedent('''
    import json
    from linebyline.runtime import browser
    no_stop = lambda: 0
    LEARNER = """
    class Value:
        def __init__(self, data, children=(), local_grads=()):
            self.data, self.grad, self._children, self._local_grads = data, 0, children, local_grads
        def __mul__(self, other):
            return Value(self.data * other.data, (self, other), (other.data, self.data))
        def backward(self):
            self.grad = 1
            for child, local in zip(self._children, self._local_grads):
                child.grad += local * self.grad
            if HANG:
                raise KeyboardInterrupt  # as the page's interrupt arrives in a backward() that never ends
    HANG = False
    a, b = Value(2.0), Value(5.0)
    out = a * b
    out.backward()
    """
    results = {}
    browser.run(LEARNER, "mine.py", no_stop, True)
    browser.run("widget = 1", "widget.py", no_stop)  # an Explore widget's run keeps nothing
    results["first"] = json.loads(browser.graph("", "chain"))
    browser.run(LEARNER + "HANG = True", "mine.py", no_stop, True)
    results["hang"] = json.loads(browser.graph("", "chain"))
    print(json.dumps(results))
''')


def test_the_graph_entry_reads_the_build_run_and_survives_a_stop():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    first = results["first"]
    assert first["name"] == "out" and [n["grad"] for n in first["graph"]["nodes"]] == [5.0, 2.0, 1.0]
    assert first["backward"]["marked"] == 0
    assert results["hang"]["error"].startswith("Drawing stopped: running your backward() again took longer")
