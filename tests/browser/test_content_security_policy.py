"""The Content-Security-Policy forbids inline scripts, and nothing of ours needs one.

Every page is opened and the browser must report no violation at all. (Python running under the
policy, WebAssembly compiled in the worker, is shown by test_hostile_browser.py.)
"""
from __future__ import annotations

import pytest
from playwright.sync_api import Browser

pytestmark = pytest.mark.browser
PAGES = ["/", "/lessons/7.4-building-value/", "/program/", "/modules/7/review/",
         "/admin/login/"]
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
    (event) => window.__violations.push(`${event.violatedDirective}: ${event.blockedURI}`));
"""


def test_no_page_breaks_the_policy(server, browser: Browser):
    context = browser.new_context()
    context.add_init_script(LISTEN)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    for path in PAGES:
        response = page.goto(server.url + path)
        assert "script-src 'self' 'wasm-unsafe-eval'" in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__violations") == [], path
    context.close()
    assert not [text for text in console if "Content Security Policy" in text], console


def test_a_script_smuggled_into_the_page_does_not_run(server, browser: Browser):
    """What a hint or an explanation inserted as HTML might carry is blocked."""
    context = browser.new_context()
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("""() => {
        const box = document.createElement("div");
        box.innerHTML = '<img src="data:," onerror="window.__ran = true">';
        document.body.append(box);
        const script = document.createElement("script");
        script.textContent = "window.__ran = true";
        document.body.append(script);
    }""")
    page.wait_for_function("window.__violations.length >= 2")  # both refused, and reported
    assert page.evaluate("window.__ran") is None
    assert len(page.evaluate("window.__violations")) == 2
    context.close()
