"""The index page in use, beyond what test_docs_pages.py does on every page: the terminal in all
four modes with and without the harness, its --max-rows field and Ctrl+Enter, the read-only
switch, a parameters field that is not JSON, screenshots of the tryouts in use, and a loud failure
(in the status line) when a wheel is missing."""
from __future__ import annotations

import json

import pytest

from conftest import READY_TIMEOUT_MS
from native import McpProcess, cli
from parity import assert_parity

pytestmark = pytest.mark.usefixtures("page")


def test_screenshots_in_use(page, artifacts):
    """The page after a reader used each tryout, wide and phone-narrow (for a human look)."""
    click_and_read(page, page.locator('.mcp-call[data-tool="read_cypher"] .mcp-send'))
    terminal = page.locator(".terminal")
    terminal.locator(".term-mode").select_option("toon")
    terminal.locator(".term-harness").set_checked(True)
    terminal.locator(".term-run").click()
    page.wait_for_function("() => document.querySelector('.terminal').dataset.runs")
    assert terminal.locator(".term-code").text_content() == "0"
    for name, width in (("index-in-use.png", 1100), ("index-narrow.png", 380)):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(artifacts / name), full_page=True)
        page.locator(".mcp").screenshot(path=str(artifacts / name.replace("index", "mcp")))
        page.locator(".terminal").screenshot(path=str(artifacts / name.replace("index", "terminal")))
    page.set_viewport_size({"width": 1280, "height": 720})


def click_and_read(page, button) -> tuple[str, str]:
    exchange = page.locator(".mcp-exchange")
    before = exchange.get_attribute("data-calls") or "0"
    button.click()
    page.wait_for_function(
        f"() => (document.querySelector('.mcp-exchange').dataset.calls || '0') !== '{before}'")
    return page.locator(".mcp-request").inner_text(), page.locator(".mcp-reply").inner_text()


def test_mcp_read_only_switch_matches_native(page):
    """With the switch on.  Only calls whose reply cannot depend on the data are compared, so a
    read-only server on an empty :memory: store is a faithful native twin."""
    page.locator(".mcp-readonly").check()
    with McpProcess(":memory:", read_only=True) as native:
        request, reply = click_and_read(page, page.locator(".mcp-list"))
        assert "write_cypher" not in reply
        assert_parity([reply], native.send(request), "tools/list button, read-only")
        request, reply = click_and_read(page, page.locator('.mcp-call[data-tool="write_cypher"] .mcp-send'))
        assert '"isError":true' in reply
        assert_parity([reply], native.send(request), "write_cypher button, read-only")
    page.locator(".mcp-readonly").uncheck()


def test_mcp_bad_parameters_are_caught_in_the_page(page):
    form = page.locator('.mcp-call[data-tool="read_cypher"]')
    form.locator(".mcp-parameters").fill("[1, 2")
    form.locator(".mcp-send").click()
    assert "parameters is not valid JSON" in page.locator(".mcp-decoded").inner_text()


@pytest.mark.parametrize(("mode", "harness"), [(m, h) for m in ("table", "envelope", "jsonl", "toon")
                                              for h in (False, True)])
def test_terminal_matches_native(page, mode, harness):
    terminal = page.locator(".terminal")
    terminal.locator(".term-mode").select_option(mode)
    terminal.locator(".term-harness").set_checked(harness)
    before = terminal.get_attribute("data-runs") or "0"
    terminal.locator(".term-run").click()
    page.wait_for_function(f"() => (document.querySelector('.terminal').dataset.runs || '0') !== '{before}'")
    args = json.loads(terminal.get_attribute("data-args"))
    env = json.loads(terminal.get_attribute("data-env"))
    assert args[:2] == ["--mode", mode] and env == ({"CLAUDECODE": "1"} if harness else {})
    shown = {"stdout": terminal.locator(".term-stdout").text_content(),
             "stderr": terminal.locator(".term-stderr").text_content(),
             "exitCode": int(terminal.locator(".term-code").text_content())}
    assert_parity(shown, cli(args, env), f"terminal: relate {args} with {env}")


def test_terminal_preset_and_max_rows(page):
    terminal = page.locator(".terminal")
    terminal.locator(".term-preset").select_option(label="arithmetic")
    assert terminal.locator(".term-statement").input_value() == "RETURN 1 + 2 AS sum"
    terminal.locator(".term-mode").select_option("jsonl")
    terminal.locator(".term-rows").fill("2")
    terminal.locator(".term-harness").set_checked(False)
    before = terminal.get_attribute("data-runs") or "0"
    terminal.locator(".term-statement").press("Control+Enter")
    page.wait_for_function(f"() => (document.querySelector('.terminal').dataset.runs || '0') !== '{before}'")
    args = json.loads(terminal.get_attribute("data-args"))
    assert args == ["--mode", "jsonl", "--max-rows", "2", "RETURN 1 + 2 AS sum"]
    assert terminal.locator(".term-code").text_content() == "0"
    terminal.locator(".term-rows").fill("")


def load_failure(browser_context, site_url, pattern, handler) -> tuple[str, str]:
    """Open the index with requests matching `pattern` answered by `handler` -> (why ready
    rejected, the status line the reader sees)."""
    page = browser_context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    try:
        page.route(pattern, handler)
        page.goto(site_url + "index.html")
        page.wait_for_function("() => window.relate !== undefined")
        outcome = page.evaluate("() => window.relate.ready.then(() => 'ready', (e) => String(e.message))")
        page.wait_for_function("() => document.getElementById('relate-status').classList.contains('error')")
        return outcome, page.locator("#relate-status").inner_text()
    finally:
        page.close()


def test_a_missing_wheel_fails_loudly(browser_context, site_url):
    """loadPackage alone would resolve with a wheel missing; the loader must refuse to start."""
    wheels = []

    def broken_manifest(route):
        manifest = json.loads(route.fetch().text())
        wheels.extend(manifest["wheels"])
        manifest["wheels"].append("lark-9.9.9-py3-none-any.whl")
        route.fulfill(json=manifest)

    outcome, status = load_failure(browser_context, site_url, "**/wheels/manifest.json", broken_manifest)
    expected = f"installing wheels failed ({len(wheels)}/{len(wheels) + 1})"
    assert outcome.startswith(expected), outcome
    assert status.startswith("relate could not start in this browser") and expected in status, status


def test_an_engine_that_cannot_load_says_so(browser_context, site_url):
    """The runtime missing (a broken deployment, a blocked download): the status line says the
    tryouts cannot run instead of loading forever."""
    outcome, status = load_failure(browser_context, site_url, "**/vendor/pyodide/pyodide.asm.wasm",
                                   lambda route: route.fulfill(status=404, body="gone"))
    assert outcome != "ready"
    assert status.startswith("relate could not start in this browser, so the tryouts on this page cannot run"), status
