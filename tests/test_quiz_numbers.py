"""A typed number is read the same in the browser's quiz (frontend/src/numbers.ts) and the
terminal's (terminal/quiz.py): a minus sign, a decimal comma, and commas between thousands as the
pages print numbers ("32,001")."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from linebyline.terminal.quiz import parse_number

FRONTEND = Path(__file__).resolve().parents[1] / "frontend"
TYPED = ["32,001", "14,348,907", "-1,024", "1,024.5", "0,5", "1,5", "1,0000", "3.25", " 6 ",
         "−2", "–0,25", "1e-3", ".5", "12,34,567", "1,,000", "abc", "", "1 000", "+7"]
EXPECTED = {"32,001": 32001, "14,348,907": 14348907, "-1,024": -1024, "1,024.5": 1024.5,
            "0,5": 0.5, "1,5": 1.5, "−2": -2, "12,34,567": None, "1,,000": None, "abc": None}


def test_the_terminal_reads_thousands_and_decimal_commas():
    for typed, number in EXPECTED.items():
        assert parse_number(typed) == number, typed


@pytest.fixture(scope="module")
def browser_numbers(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bundle = tmp_path_factory.mktemp("numbers") / "numbers.mjs"
    subprocess.run([str(FRONTEND / "node_modules" / ".bin" / "esbuild"), "src/numbers.ts",
                    "--bundle", "--format=esm", f"--outfile={bundle}", "--log-level=warning"],
                   cwd=FRONTEND, check=True)
    return bundle


def test_the_browser_reads_every_typed_number_as_the_terminal_does(browser_numbers: Path):
    node = shutil.which("node")
    assert node, "Node (installed with npm by `make build`) runs the browser's parser"
    script = (f"const m = await import({json.dumps(browser_numbers.as_uri())});"
              f"console.log(JSON.stringify({json.dumps(TYPED)}.map(m.parseNumber)))")
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, check=True)
    assert json.loads(done.stdout) == [parse_number(typed) for typed in TYPED]
