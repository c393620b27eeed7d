"""What a new reader trips over on the tryouts, measured in Chromium: an MCP reply must show up
next to the button pressed (in the viewport), a statement that runs long shows that it runs and
can be stopped (the page's database is rebuilt, nothing of the stopped statement stays), a result
of thousands of rows shows its first rows and the count, and a long statement wraps instead of
pushing the page sideways."""
from __future__ import annotations

import re

import pytest

from conftest import READY_TIMEOUT_MS
from test_docs_pages import wait_for_counter

NEAR_PX = 200  # the reply's top edge at most this far below the button pressed

BOX = """(e) => { const r = e.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, viewport: window.innerHeight}; }"""


@pytest.fixture
def mcp_page(browser_context, site_url, guard):
    """mcp-reference.html, the page with the most MCP buttons in one panel."""
    page = browser_context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_viewport_size({"width": 1100, "height": 800})
    page.goto(site_url + "mcp-reference.html")
    page.wait_for_function("() => window.relate !== undefined", timeout=READY_TIMEOUT_MS)
    page.evaluate("() => window.relate.ready")
    yield page
    assert errors == [], errors
    assert not guard.foreign, guard.foreign
    page.close()


def test_mcp_reply_appears_next_to_the_button_pressed(mcp_page):
    panel = mcp_page.locator("section.mcp").first
    buttons = [panel.locator(".mcp-list")] + panel.locator(".mcp-send").all()
    assert len(buttons) >= 4
    for n, button in enumerate(buttons):
        exchange = panel.locator(".mcp-exchange")
        before = exchange.get_attribute("data-calls") or "0"
        button.click()
        wait_for_counter(mcp_page, exchange, "calls", before)
        mcp_page.wait_for_timeout(300)  # a smooth scroll, if any, has settled
        pressed = button.evaluate(BOX)
        reply = panel.locator(".mcp-request").evaluate(BOX)
        gap = reply["top"] - pressed["bottom"]
        assert 0 <= gap <= NEAR_PX, f"button {n}: the request starts {gap:.0f}px below the button"
        assert 0 <= reply["top"] < reply["viewport"], f"button {n}: the request is outside the viewport: {reply}"
        answer = panel.locator(".mcp-reply").evaluate(BOX)
        assert answer["top"] < answer["viewport"], f"button {n}: the reply is outside the viewport: {answer}"


def run_cell_with(page, cell, statement: str) -> None:
    cell.locator(".cell-source").fill(statement)
    before = cell.get_attribute("data-runs") or "0"
    cell.locator(".cell-run").click()
    wait_for_counter(page, cell, "runs", before)


def test_a_long_result_shows_its_first_rows_and_the_count(fresh_page):
    cell = fresh_page.locator("section.cell").nth(1)
    run_cell_with(fresh_page, cell, "UNWIND range(1, 5000) AS n RETURN n")
    rows = cell.locator(".cell-result tbody tr")
    assert 0 < rows.count() <= 100
    assert rows.first.inner_text() == "1"
    text = cell.locator(".cell-result").inner_text()
    assert "5000 rows" in text and f"first {rows.count()}" in text, text
    # the MCP tryout decodes long replies the same way
    form = fresh_page.locator('.mcp-call[data-tool="read_cypher"]')
    form.locator(".mcp-statement").fill("UNWIND range(1, 3000) AS n RETURN n")
    form.locator(".mcp-parameters").fill("{}")
    exchange = fresh_page.locator(".mcp-exchange")
    before = exchange.get_attribute("data-calls") or "0"
    form.locator(".mcp-send").click()
    wait_for_counter(fresh_page, exchange, "calls", before)
    shown = fresh_page.locator(".mcp-decoded tbody tr").count()
    assert 0 < shown <= 100
    assert "3000 rows" in fresh_page.locator(".mcp-decoded").inner_text()


LONG = "UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH a WHERE a < 0 RETURN count(a) AS none"


def test_a_long_running_cell_shows_it_runs_and_can_be_stopped(fresh_page):
    page = fresh_page
    nodes = page.evaluate("() => window.relate.cell('MATCH (n) RETURN count(n) AS n')")["rows"]
    page.evaluate("() => window.relate.cell(\"CREATE (:Marker {note: 'before the long one'})\")")
    cell = page.locator("section.cell").nth(1)
    cell.locator(".cell-source").fill(LONG)
    before = cell.get_attribute("data-runs") or "0"
    cell.locator(".cell-run").click()
    running = cell.locator(".cell-running")
    running.wait_for(state="visible", timeout=5_000)
    page.wait_for_timeout(1_500)
    shown = running.inner_text()  # read once: the count goes on while we look (1 s, then 2 s on a busy machine)
    counted = re.search(r"Running\D*(\d+) s", shown)
    assert counted and int(counted.group(1)) >= 1, shown
    stop = cell.locator(".cell-stop")
    assert stop.is_visible() and stop.is_enabled()
    stop.click()
    wait_for_counter(page, cell, "runs", before)  # the run ended, well before the statement would
    assert not running.is_visible() and not stop.is_visible()
    assert "Stopped" in cell.locator(".cell-result").inner_text()
    # the page's database is what it was before the stopped statement, and it answers again
    others = page.evaluate("() => window.relate.cell('MATCH (n) WHERE NOT n:Marker RETURN count(n) AS n')")
    assert others["rows"] == nodes
    marker = page.evaluate("() => window.relate.cell('MATCH (m:Marker) RETURN m.note AS note')")["rows"]
    assert marker == [["\"before the long one\""]]
    run_cell_with(page, cell, "RETURN 40 + 2 AS answer")
    assert cell.locator(".cell-result td").inner_text() == "42"
    assert "running in this page" in page.locator("#relate-status").inner_text()


def test_a_long_statement_wraps_instead_of_scrolling_sideways(page):
    long = "MATCH (p:Person) WHERE " + " OR ".join(f"p.name = 'person number {i}'" for i in range(40)) + " RETURN p"
    try:
        for width in (1100, 380):
            page.set_viewport_size({"width": width, "height": 900})
            for area in page.locator("main textarea").all()[:3]:
                original = area.input_value()
                area.fill(long)
                sizes = area.evaluate("(e) => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
                area.fill(original)
                assert sizes[0] <= sizes[1], f"at {width}px a long statement scrolls sideways: {sizes}"
                assert sizes[2] <= sizes[3] + 2, f"at {width}px the wrapped statement is cut off: {sizes}"
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 0
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})
