"""Rebuild the installed app's icons (PNG, which Chromium's install prompt wants) from the
favicon's drawing, rendered by Chromium itself at each size.

    .venv/bin/python scripts/build_icons.py

Writes src/linebyline/web/static/linebyline/icons/: icon-192.png and icon-512.png (the favicon's
rounded square) and icon-maskable-512.png (full bleed, the lines inside the central circle that
every platform's mask keeps).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "linebyline" / "web" / "static" / "linebyline"
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM_FLAGS, chromium_path  # noqa: E402


def maskable(favicon: str) -> str:
    """The favicon with square corners and its lines shrunk to 70% about the centre."""
    square = favicon.replace(' rx="6"', "")
    shrunk = '<g fill="#fff" transform="translate(16 16) scale(.7) translate(-16 -16)">'
    return re.sub(r'<g fill="#fff">', shrunk, square)


def render(svg: str, size: int, target: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": size, "height": size})
        sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
        page.set_content(f'<body style="margin:0;background:transparent">{sized}</body>')
        page.locator("svg").screenshot(path=str(target), omit_background=True)
        browser.close()


def main() -> int:
    favicon = (STATIC / "favicon.svg").read_text()
    out = STATIC / "icons"
    out.mkdir(exist_ok=True)
    render(favicon, 192, out / "icon-192.png")
    render(favicon, 512, out / "icon-512.png")
    render(maskable(favicon), 512, out / "icon-maskable-512.png")
    print(f"wrote {', '.join(p.name for p in sorted(out.glob('*.png')))} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
