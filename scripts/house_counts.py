"""The house's figures (issue 33), counted from the code as it is: import cycles among Python
modules (every import, those inside functions and under TYPE_CHECKING included), modules at the
package root besides __init__ and __main__, functions over 80 lines and classes over 200 in src/,
and the README's lines. Run from the repository root: `.venv/bin/python scripts/house_counts.py`.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "linebyline"
LIMITS = {ast.FunctionDef: 80, ast.AsyncFunctionDef: 80, ast.ClassDef: 200}


def cycles() -> list[list[str]]:
    """The groups of modules that import one another in a circle (strongly connected)."""
    graph = grimp.build_graph("linebyline")
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in order:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for module in sorted(graph.modules):
        if module not in order:
            visit(module)
    return found


def too_long() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            limit = LIMITS.get(type(node))
            if limit and node.end_lineno - node.lineno + 1 > limit:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} "
                             f"({node.end_lineno - node.lineno + 1} lines)")
    return found


def main() -> int:
    sys.path.insert(0, str(ROOT / "src"))
    circles = cycles()
    root = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    long = too_long()
    readme = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    print(f"import cycles: {len(circles)}")
    for circle in circles:
        print("  " + " <-> ".join(circle))
    print(f"modules at the package root: {len(root)} ({', '.join(root)})")
    print(f"functions over 80 lines, classes over 200: {len(long)}")
    for item in long:
        print("  " + item)
    print(f"README lines: {readme}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
