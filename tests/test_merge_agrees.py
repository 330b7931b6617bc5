"""The browser's merge (frontend/src/merge.ts, run by Node) and Python's (progress/merge.py) give
the same answer on the same generated cases: merged lessons, read documents, refused documents."""
from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from linebyline.progress import merge as pm
from tests.progress_cases import documents, settings_entries
from tests.test_progress_merge import LAWS

ROOT = Path(__file__).resolve().parents[1]
FRONTEND = ROOT / "frontend"


class BrowserMerge:
    """A Node process running merge.ts, answering one JSON line per request."""

    def __init__(self, bundle: Path) -> None:
        node = shutil.which("node")
        assert node, "Node (installed with npm by `make build`) runs the browser's merge"
        self.process = subprocess.Popen(
            [node, str(ROOT / "tests" / "js" / "merge_runner.mjs"), bundle.as_uri()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def ask(self, request: dict) -> dict:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the Node merge stopped"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser_merge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserMerge]:
    bundle = tmp_path_factory.mktemp("merge") / "merge.mjs"
    subprocess.run([str(FRONTEND / "node_modules" / ".bin" / "esbuild"), "src/merge.ts",
                    "--bundle", "--format=esm", f"--outfile={bundle}", "--log-level=warning"],
                   cwd=FRONTEND, check=True)
    running = BrowserMerge(bundle)
    yield running
    running.close()


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True)


@LAWS
@given(documents(), documents())
def test_the_browser_merges_as_python_does(browser_merge, a, b):
    answer = browser_merge.ask({"op": "merge", "a": a, "b": b})
    assert canonical(answer.get("ok")) == canonical(pm.merge(a, b))


@LAWS
@given(documents(), documents(), documents())
def test_three_way_merges_agree(browser_merge, a, b, c):
    ab = browser_merge.ask({"op": "merge", "a": a, "b": b})["ok"]
    abc = browser_merge.ask({"op": "merge", "a": ab, "b": c})["ok"]
    assert canonical(abc) == canonical(pm.merge(pm.merge(a, b), c))


def _mangled(lesson: dict) -> st.SearchStrategy[dict]:
    """A read lesson, or one with a field broken the way a stale or hostile file might be."""
    breakages = [
        lambda d: d,
        lambda d: {**d, "status": "finished"},
        lambda d: {**d, "hintsShown": -1},
        lambda d: {**d, "doneAt": 1.5},
        lambda d: {**d, "draft": "x" * (pm.MAX_DRAFT + 1)},
        lambda d: {**d, "draftDevice": "no spaces allowed"} if "draft" in d else d,
        lambda d: {**d, "checks": {"passed": 3, "total": 2}},
        lambda d: {**d, "earlier": [{"draft": "a"}]},
        lambda d: {**d, "colour": "blue"},
        lambda d: {k: v for k, v in d.items() if k != "draftDevice"},
        lambda d: {**d, "passedCode": "x = 1\n", "passedAt": 5},
        lambda d: {**d, "passedCode": "x = 1\n"},
        lambda d: {**d, "passedAt": -1},
    ]
    return st.sampled_from(breakages).map(lambda broken: broken(dict(lesson)))


@LAWS
@given(documents().flatmap(lambda lessons: st.fixed_dictionaries(
    {number: _mangled(lesson) for number, lesson in lessons.items()})),
    st.sampled_from([1, 2]))
def test_reading_agrees_on_good_and_bad_documents(browser_merge, lessons, version):
    doc = {"format": pm.FORMAT, "version": version, "course": "microgpt", "lessons": lessons}
    answer = browser_merge.ask({"op": "read", "doc": doc})
    try:
        _, expected = pm.read_document(doc)
    except pm.ProgressError as error:
        assert answer == {"error": str(error)}
    else:
        assert canonical(answer.get("ok")) == canonical(expected)


@LAWS
@given(settings_entries(), settings_entries())
def test_the_browser_merges_settings_as_python_does(browser_merge, a, b):
    answer = browser_merge.ask({"op": "mergeSettings", "a": a, "b": b})
    assert canonical(answer.get("ok")) == canonical(pm.merge_settings(a, b))


@pytest.mark.parametrize("settings", [
    {"todoLevel": {"value": "own", "at": 7}}, {}, [], {"colour": {"value": "blue", "at": 1}},
    {"todoLevel": "own"}, {"todoLevel": {"value": "own"}}, {"todoLevel": {"value": "alone", "at": 1}},
    {"todoLevel": {"value": "own", "at": -1}}, {"todoLevel": {"value": "own", "at": 1.5}},
    {"todoLevel": {"value": "own", "at": 1, "by": "me"}},
])
def test_reading_settings_agrees(browser_merge, settings):
    doc = {"format": pm.FORMAT, "version": 2, "course": "microgpt", "lessons": {},
           "settings": settings}
    answer = browser_merge.ask({"op": "readSettings", "doc": doc})
    try:
        expected = pm.read_settings(doc)
    except pm.ProgressError as error:
        assert answer == {"error": str(error)}
    else:
        assert answer == {"ok": expected}
