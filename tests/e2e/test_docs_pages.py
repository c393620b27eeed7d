"""Every page of the built site, opened in Chromium and used the way a reader uses it: every
Cypher cell run, every MCP button pressed, every terminal run with its default and with each
preset; each browser answer compared with the native one for the same input; a screenshot of
every page (wide and phone-narrow) saved to test-artifacts/pages/.

Native twins, kept in step with the page:
  cells      what the cell shows (error, or headers, cells and summary line) == relate.browser's
             cell answer computed natively, cell after cell on one native page database; the
             page's database is also mirrored by a native `relate serve --mcp stdio` process that
             gets each cell's statement as a tool call (write_cypher for a write, read_cypher
             otherwise), so graph and plan cache match when the MCP buttons run
  MCP        the request line the page built and showed is sent to that native server (started
             with the panels' `--tools`, data-tools); the reply line must match byte for byte
             (timings aside)
  terminal   the arguments and environment the page ran with -> `relate ARGS` as a process
"""
from __future__ import annotations

import contextlib
import json
import time

import pytest

from conftest import READY_TIMEOUT_MS, SERVED
from docs import PAGE_NAMES
from native import McpProcess, cli
from parity import assert_parity


def wait_for_counter(page, locator, attribute: str, before: str) -> None:
    """Until the element's data-<attribute> run counter moves past `before` (its run finished)."""
    page.wait_for_function("([e, a, b]) => (e.dataset[a] || '0') !== b",
                           arg=[locator.element_handle(), attribute, before])


def tool_call(id_, name: str, statement: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": name, "arguments": {"statement": statement}}})


SHOWN_CELL = """(result) => ({
  error: result.querySelector('.cell-error')?.textContent ?? null,
  columns: [...result.querySelectorAll('th')].map((th) => th.textContent),
  rows: [...result.querySelectorAll('tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent)),
  summary: result.querySelector('.cell-summary')?.textContent ?? null,
})"""


def shown_cell(cell) -> dict:
    """What the reader sees of a cell's result: error, or table headers, cells and summary."""
    return cell.locator(".cell-result").evaluate(SHOWN_CELL)


def native_cell(result: dict) -> dict:
    """What the page shows of a native cell answer (a long result: its first SHOWN_ROWS rows)."""
    from blocks import SHOWN_ROWS

    if result.get("error"):
        return {"error": result["error"], "columns": [], "rows": [], "summary": None}
    return {"error": None, "columns": result["columns"], "rows": result["rows"][:SHOWN_ROWS],
            "summary": result["summary"]}


def run_cells(page, native_servers) -> int:
    """Run every cell (the autorun one ran at load) and compare each with the native engine."""
    from relate.browser import Page

    native_page = Page()
    cells = page.locator("section.cell")
    for n in range(cells.count()):
        cell = cells.nth(n)
        statement = cell.locator(".cell-source").input_value()
        if n > 0:  # the autorun cell already ran when the page loaded; don't run it twice
            before = cell.get_attribute("data-runs") or "0"
            cell.locator(".cell-run").click()
            wait_for_counter(page, cell, "runs", before)
        expected = native_page.cell(statement)
        assert_parity(shown_cell(cell), native_cell(expected), f"cell {n} ({statement!r})")
        # a write by its counters, or by its query type (db.createFulltextIndex counts nothing)
        writes = not expected.get("error") and (any(expected["stats"].values())
                                                or native_page.db.prepare(statement).query_type != "r")
        for native_server in native_servers:  # every panel's twin holds the page's graph
            reply = native_server.send(tool_call(f"cell-{n}", "write_cypher" if writes else "read_cypher", statement))
            assert len(reply) == 1, reply
    return cells.count()


def served_by(panel) -> tuple:
    """The `relate serve` flags a panel's core stands for: (--tools or None, further flags)."""
    return panel.get_attribute("data-tools"), tuple(json.loads(panel.get_attribute("data-serve") or "[]"))


def press_mcp_buttons(page, native_servers) -> int:
    pressed = 0
    panels = page.locator("section.mcp")
    for p in range(panels.count()):
        panel = panels.nth(p)
        native_server = native_servers[served_by(panel)]
        panel.locator(".mcp-readonly").set_checked(False)
        buttons = ([panel.locator(".mcp-list")] + panel.locator(".mcp-discover").all()
                   + [b for b in panel.locator(".mcp-send").all()])
        for button in buttons:
            before = panel.locator(".mcp-exchange").get_attribute("data-calls") or "0"
            button.click()
            wait_for_counter(page, panel.locator(".mcp-exchange"), "calls", before)
            request = panel.locator(".mcp-request").inner_text()
            reply = panel.locator(".mcp-reply").inner_text()
            assert_parity([reply], native_server.send(request), f"MCP panel {p}: {request}")
            pressed += 1
    return pressed


def run_terminals(page) -> int:
    runs = 0
    terminals = page.locator("section.terminal")
    for t in range(terminals.count()):
        terminal = terminals.nth(t)
        presets = terminal.locator(".term-preset option").all()
        choices = [None] + [o.get_attribute("value") for o in presets if o.get_attribute("value")]
        for choice in choices:
            if choice is not None:
                terminal.locator(".term-preset").select_option(value=choice)
            before = terminal.get_attribute("data-runs") or "0"
            terminal.locator(".term-run").click()
            wait_for_counter(page, terminal, "runs", before)
            args = json.loads(terminal.get_attribute("data-args"))
            env = json.loads(terminal.get_attribute("data-env"))
            shown = {"stdout": terminal.locator(".term-stdout").text_content(),
                     "stderr": terminal.locator(".term-stderr").text_content(),
                     "exitCode": int(terminal.locator(".term-code").text_content())}
            assert_parity(shown, cli(args, env), f"terminal {t}: relate {args} with {env}")
            runs += 1
    return runs


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_every_tryout_on_the_page_matches_native(name, browser_context, site_url, guard, artifacts):
    page = browser_context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    # every response the page gets must succeed, the browser's own requests (a favicon) included,
    # which only the server sees
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    served_before = len(SERVED)
    try:
        page.goto(site_url + f"{name}.html")
        assert page.locator("nav.site a[aria-current=page]").get_attribute("href") == f"{name}.html"
        page.wait_for_function("() => window.relate !== undefined", timeout=READY_TIMEOUT_MS)
        page.evaluate("() => window.relate.ready")
        hook = page.evaluate("() => ['ready', 'mcp', 'cli', 'cell'].map((k) => typeof window.relate[k])")
        assert hook == ["object", "function", "function", "function"]
        # the engine runs in a worker, not on the page's thread
        assert any(url.endswith("/tryout/worker.js") for url in workers), workers
        assert page.evaluate("() => typeof globalThis.loadPyodide") == "undefined"
        assert "running in this page" in page.locator("#relate-status").inner_text()
        # the status line went through every loading step: Pyodide, wheels, engine, and the
        # page's first cell when it has cells
        steps = page.evaluate("() => window.relate.timings.steps.map((s) => s.step)")
        assert steps == [1, 2, 3] + ([4] if page.locator("section.cell").count() else []), steps

        # a page's MCP panels serve one `--tools` value (data-tools; none: the default group);
        # each set of further flags (data-serve: the budgets) gets its own native twin
        served = {served_by(panel) for panel in page.locator("section.mcp").all()}
        assert len({tools for tools, _ in served}) <= 1, f"{name}.html mixes MCP panels of different --tools"
        with contextlib.ExitStack() as stack:
            twins = {key: stack.enter_context(McpProcess(":memory:", tools=key[0], extra=key[1]))
                     for key in sorted(served, key=str)} or {
                (None, ()): stack.enter_context(McpProcess(":memory:"))}
            done = run_cells(page, list(twins.values())) + press_mcp_buttons(page, twins)
        done += run_terminals(page)
        assert done > 0, f"{name}.html has no tryout"

        folder = artifacts / "pages"
        folder.mkdir(exist_ok=True)
        for suffix, width in (("", 1100), ("-narrow", 380)):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(folder / f"{name}{suffix}.png"), full_page=True)
            if suffix:  # nothing may stick out sideways on a phone: wide things scroll inside boxes
                overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, f"{name}.html is {overflow}px wider than a {width}px screen"
        assert not guard.foreign, f"the page tried to reach the network: {guard.foreign}"
        assert errors == [], f"script errors: {errors}"
        failed += [f"{code} {path}" for _, path, code in SERVED[served_before:] if code >= 400]
        assert failed == [], f"{name}.html: requests that failed: {failed}"
    finally:
        page.close()


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_no_request_of_the_page_fails(name, browser_context, site_url):
    """Every request a page makes is answered, the browser's own favicon request included.  The
    shared context intercepts requests (to abort any that leave the site), and Chromium asks for
    no favicon then, so this one watches without intercepting: it records foreign URLs instead."""
    context = browser_context.browser.new_context()
    page = context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    foreign: list[str] = []
    failed: list[str] = []
    page.on("request", lambda r: foreign.append(r.url)
            if r.url.startswith(("http:", "https:")) and not r.url.startswith(site_url) else None)
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    before = len(SERVED)
    try:
        page.goto(site_url + f"{name}.html")
        page.wait_for_function("() => window.relate !== undefined", timeout=READY_TIMEOUT_MS)
        page.evaluate("() => window.relate.ready")
        deadline = time.monotonic() + 15
        while not any("favicon" in path for _, path, _ in SERVED[before:]) and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        answered = SERVED[before:]
    finally:
        context.close()
    assert any("favicon" in path for _, path, _ in answered), "the browser asked for no icon"
    failed += [f"{code} {method} {path}" for method, path, code in answered if code >= 400]
    assert failed == [], f"{name}.html: {failed}"
    assert foreign == [], foreign
