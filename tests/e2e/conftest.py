"""Shared fixtures of the browser tests: the built site served in-process, Chromium, the page.

    site_url        dist/site/ served by server/serve.py's handler on 127.0.0.1:<free port>
                    (every answer it gives is noted in SERVED)
    browser_context Debian's Chromium through Playwright (never `playwright install`); every
                    request that leaves the site's origin is aborted and recorded
    page            the index page with relate ready (one page for the session; CLI calls and
                    DOM checks that don't depend on its database share it)
    fresh_page      the same page reloaded: a new Pyodide, a new page database holding only
                    what the autorun cell wrote, MCP ids starting again at 1
Chromium missing: the browser tests fail when CI is set (CI must install it), else skip.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "dist" / "site"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("RELATE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
READY_TIMEOUT_MS = 120_000  # a cold Pyodide start on a busy 2-core machine can take a while


def _serve_module():
    spec = importlib.util.spec_from_file_location("relate_site_server", ROOT / "server" / "serve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# (method, path, status) of every request the site server answered, in order: the browser's own
# requests (a favicon) reach the server but not Playwright's page events
SERVED: list[tuple[str, str, int]] = []


def _recording(module):
    class Recording(module.QuietSiteHandler):
        def log_request(self, code="-", size="-") -> None:
            SERVED.append((self.command, self.path, int(code)))
    return functools.partial(Recording, directory=str(SITE))


@pytest.fixture(scope="session")
def site_url():
    if not (SITE / "wheels" / "manifest.json").is_file() or not (SITE / "index.html").is_file():
        pytest.fail("dist/site is not built: run `python build/site.py` (./run-tests does it first)")
    module = _serve_module()
    server = module.make_server(SITE, 0, quiet=True)
    server.RequestHandlerClass = _recording(module)  # the same handler, its answers noted in SERVED
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class Guard:
    """Requests that tried to leave the local site (each one was aborted)."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.foreign: list[str] = []

    def route(self, route) -> None:
        url = route.request.url
        if url.startswith(self.origin) or not url.startswith(("http:", "https:", "ws:", "wss:")):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort()


@pytest.fixture(scope="session")
def guard(site_url):
    return Guard(site_url)


@pytest.fixture(scope="session")
def browser_context(site_url, guard, tmp_path_factory):
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        message = f"{CHROMIUM} is missing (apt-get install chromium; scripts/setup.sh does it as root)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context()
        context.route("**/*", guard.route)
        yield context
        context.close()
        browser.close()
    assert not guard.foreign, f"the site tried to reach the network: {guard.foreign}"


def open_index(page, site_url: str) -> None:
    page.goto(site_url + "index.html")
    _await_ready(page)


def reload_index(page) -> None:
    """A new Pyodide and a new page database, holding only what the autorun cell wrote."""
    page.reload()
    _await_ready(page)


def _await_ready(page) -> None:
    page.wait_for_function("() => window.relate !== undefined", timeout=READY_TIMEOUT_MS)
    page.evaluate("() => window.relate.ready")  # raises here if the engine failed to start


@pytest.fixture(scope="session")
def shared_page(browser_context, site_url):
    page = browser_context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.js_errors = errors
    open_index(page, site_url)
    yield page
    page.close()


@pytest.fixture
def page(shared_page, guard):
    """The session's page; after the test, no request may have left 127.0.0.1 and no script
    error may have been logged."""
    before = len(shared_page.js_errors)
    yield shared_page
    assert not guard.foreign, f"the page tried to reach the network: {guard.foreign}"
    assert shared_page.js_errors[before:] == [], f"script errors: {shared_page.js_errors[before:]}"


@pytest.fixture
def fresh_page(page):
    reload_index(page)
    return page


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def autorun_statement(page) -> str:
    """The statement of the page's autorun cell: what the page ran on its database at load."""
    return page.eval_on_selector(".cell[data-autorun] .cell-source", "e => e.value")
