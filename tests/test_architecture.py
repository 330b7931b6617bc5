"""The layers and the ban on import cycles hold (import-linter, as `make test` runs it), and the
contracts can fail: a copy of the package given a cycle, an upward import or a third-party import
in the runtime is refused, each by its own contract."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(src: Path, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(cache)], capture_output=True, text=True,
                          cwd=src.parent, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
                          timeout=300)


@pytest.fixture
def package(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "linebyline", src / "linebyline",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    return src


def add_line(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")


def test_the_package_keeps_every_contract(package, tmp_path):
    result = lint_imports(package, tmp_path / "cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 kept, 0 broken" in result.stdout


@pytest.mark.parametrize("module, line, broken", [
    ("runtime/words.py", "from . import agree", "No import cycles"),  # agree imports words
    ("course/dataset.py", "from ..progress import merge", "Layers"),  # up a layer, yet no cycle
    ("runtime/flow.py", "import yaml", "standard library only"),
])
def test_a_change_against_the_contracts_is_refused(package, tmp_path, module, line, broken):
    add_line(package / "linebyline" / module, line)
    result = lint_imports(package, tmp_path / "cache")
    assert result.returncode != 0, result.stdout
    refused = [text for text in result.stdout.splitlines() if text.endswith("BROKEN")]
    assert len(refused) == 1 and broken in refused[0], result.stdout


# --- the browser code: no import cycles (dependency-cruiser, as `make test` runs it) -------------

FRONTEND = ROOT / "frontend"


def depcruise(src: Path) -> subprocess.CompletedProcess:
    """dependency-cruiser from the frontend's own node_modules, on `src` (a copy of frontend/src
    beside a copy of the configuration)."""
    return subprocess.run([str(FRONTEND / "node_modules" / ".bin" / "depcruise"), "src", "--config",
                           ".dependency-cruiser.cjs"], capture_output=True, text=True,
                          cwd=src.parent, timeout=300)


@pytest.fixture
def browser_code(tmp_path: Path) -> Path:
    src = tmp_path / "frontend" / "src"
    shutil.copytree(FRONTEND / "src", src)
    shutil.copy(FRONTEND / ".dependency-cruiser.cjs", src.parent)
    (src.parent / "node_modules").symlink_to(FRONTEND / "node_modules")
    return src


def test_the_browser_code_has_no_import_cycle(browser_code):
    result = depcruise(browser_code)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no dependency violations found" in result.stdout
    assert int(result.stdout.split("(")[1].split()[0]) > 100  # every module was read


def test_a_cycle_of_types_in_the_browser_code_is_refused(browser_code):
    # exercise.ts takes a type from levels.ts; levels.ts taking one back from editor.ts, which
    # takes one from exercise.ts, closes a cycle made of `import type` alone.
    add_line(browser_code / "levels.ts", 'import type { Editor } from "./editor";')
    add_line(browser_code / "editor.ts", 'import type { ExerciseData } from "./exercise";\n'
             "export type Again = ExerciseData;")
    result = depcruise(browser_code)
    assert result.returncode != 0
    assert "no-circular" in result.stdout and "src/editor.ts" in result.stdout
