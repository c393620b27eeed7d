"""The graph view of a cell result (web/tryout/graph.js) as a reader uses it: a result holding
nodes, relationships or paths gets a Table / Graph switch reached by Tab; the picture, drawn by
the vendored cytoscape.js with no request leaving the site, shows one coloured disc per node
(counted in a screenshot), takes focus and steps through the nodes with the arrow keys; a text
list names every node and relationship.  Results without graph values get no switch."""
from __future__ import annotations

import re

import pytest

from conftest import READY_TIMEOUT_MS, open_index
from png import blobs, decode, hex_colour

WORKS_ON = "MATCH p = (:Person)-[:WORKS_ON]->(:Project) RETURN p"
PEOPLE = {'(:Person {name: "Ada", role: "engineer"})', '(:Person {name: "Grace", role: "engineer"})'}
PROJECTS = {'(:Project {name: "relate", language: "Python"})',
            '(:Project {name: "opencypher-tck", language: "Gherkin"})'}


@pytest.fixture(scope="module")
def graph_page(browser_context, site_url, guard):
    """The index page on its own (its second cell is rewritten here), with script errors and
    requests leaving the site checked after each test."""
    page = browser_context.new_page()
    page.set_default_timeout(READY_TIMEOUT_MS)
    page.set_viewport_size({"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    open_index(page, site_url)
    page.js_errors = errors
    yield page
    page.close()


@pytest.fixture
def gpage(graph_page, guard):
    before = len(graph_page.js_errors)
    yield graph_page
    assert not guard.foreign, f"the page tried to reach the network: {guard.foreign}"
    assert graph_page.js_errors[before:] == [], f"script errors: {graph_page.js_errors[before:]}"


def run_by_keyboard(page, statement: str):
    """Type `statement` into the index's second cell and run it with Ctrl+Enter -> the cell."""
    cell = page.locator("section.cell").nth(1)
    source = cell.locator(".cell-source")
    source.fill(statement)
    before = cell.get_attribute("data-runs") or "0"
    source.press("Control+Enter")
    page.wait_for_function("([e, b]) => (e.dataset.runs || '0') !== b", arg=[cell.element_handle(), before])
    return cell


def tab_to(page, selector: str, presses: int = 6) -> None:
    """Press Tab until the element matching `selector` has focus (fails after `presses`)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
    focused = page.evaluate("() => document.activeElement?.outerHTML.slice(0, 120)")
    raise AssertionError(f"{selector} not reached by Tab; focus is on {focused}")


def label_colours(cell) -> dict[str, tuple[int, int, int]]:
    """The legend under the picture -> {label: the colour its nodes are drawn in}."""
    legend = cell.locator(".graph-legend").evaluate(
        """(legend) => [...legend.querySelectorAll('.graph-swatch')].map((swatch) =>
             [swatch.nextSibling.textContent.trim(), getComputedStyle(swatch).backgroundColor])""")
    return {label: tuple(int(n) for n in re.findall(r"\d+", rgb)[:3]) for label, rgb in legend}


def test_graph_by_keyboard_with_a_screenshot(gpage, artifacts):
    cell = run_by_keyboard(gpage, WORKS_ON)
    table, figure = cell.locator(".table-scroll"), cell.locator(".graph-view")
    assert table.is_visible() and figure.is_hidden()
    assert cell.locator(".view-choice").all_text_contents() == ["Table", "Graph"]

    # Tab from the statement: Run, Table, Graph; Enter switches to the picture
    tab_to(gpage, '.view-choice[data-view="graph"]')
    gpage.keyboard.press("Enter")
    gpage.wait_for_function("(f) => f.dataset.drawn === '1'", arg=figure.element_handle())
    assert table.is_hidden() and figure.is_visible()
    assert cell.locator('.view-choice[aria-pressed="true"]').text_content() == "Graph"
    assert (figure.get_attribute("data-nodes"), figure.get_attribute("data-relationships")) == ("4", "3")
    assert "4 nodes and 3 relationships." in figure.locator("figcaption").inner_text()

    # the screenshot: one disc of its label's colour per node, and nothing else of those colours
    canvas = cell.locator(".graph-canvas")
    shot = canvas.screenshot(path=str(artifacts / "graph-view.png"))
    image = decode(shot)
    colours = label_colours(cell)
    assert set(colours) == {":Person", ":Project"}
    person, project = blobs(image, colours[":Person"]), blobs(image, colours[":Project"])
    assert len(person) == 2 and len(project) == 2, (person, project)
    assert min(person + project) > 300, (person, project)  # discs of about 30 px across, not specks
    background = hex_colour(canvas.evaluate("(c) => getComputedStyle(c).getPropertyValue('--bg')"))
    assert sum(p == background for p in image.pixels) > len(image.pixels) // 2  # drawn on the page's ground

    # the picture takes focus; the arrow keys step through all four nodes, then wrap round
    tab_to(gpage, ".graph-canvas")
    focus_line = cell.locator(".graph-focus")
    seen = []
    for _ in range(4):
        gpage.keyboard.press("ArrowRight")
        text = focus_line.text_content()
        assert text.startswith("Selected: ") and text.endswith(" in the picture."), text
        seen.append(text.removeprefix("Selected: ").rsplit(", ", 1)[0])
    assert set(seen) == PEOPLE | PROJECTS
    gpage.keyboard.press("ArrowRight")
    assert focus_line.text_content().removeprefix("Selected: ").startswith(seen[0])
    assert focus_line.get_attribute("aria-live") == "polite"
    # the selected node is ringed in the accent colour: it shows in a new screenshot
    accent = hex_colour(canvas.evaluate("(c) => getComputedStyle(c).getPropertyValue('--accent')"))
    ringed = decode(canvas.screenshot(path=str(artifacts / "graph-view-selected.png")))
    assert not blobs(image, accent, min_pixels=20) and blobs(ringed, accent, min_pixels=20)

    # the text alternative, opened from the keyboard, names every node and relationship
    tab_to(gpage, ".graph-text summary")
    gpage.keyboard.press("Enter")
    nodes = cell.locator(".graph-nodes li").all_inner_texts()
    assert {line.split(" ", 1)[1] for line in nodes} == PEOPLE | PROJECTS
    assert sorted(cell.locator(".graph-relationships li").all_inner_texts()) == [
        "Ada -[:WORKS_ON {since: 2024}]-> relate",
        "Grace -[:WORKS_ON {since: 2022}]-> opencypher-tck",
        "Grace -[:WORKS_ON {since: 2023}]-> relate",
    ]
    cell.screenshot(path=str(artifacts / "graph-view-cell.png"))

    # a node's button in the list selects it in the picture
    cell.locator('.graph-node:text-is("opencypher-tck")').press("Enter")
    assert focus_line.text_content().startswith('Selected: (:Project {name: "opencypher-tck"')

    # Shift+Tab back to the switch: Table shows the table again
    cell.locator('.view-choice[data-view="table"]').focus()
    gpage.keyboard.press("Space")
    assert table.is_visible() and figure.is_hidden()


def test_the_chosen_view_stays_on_the_next_run(gpage):
    cell = run_by_keyboard(gpage, WORKS_ON)
    cell.locator('.view-choice[data-view="graph"]').click()
    cell = run_by_keyboard(gpage, "MATCH (p:Person {name: 'Ada'})-[k:KNOWS]->(f) RETURN p, k, f")
    figure = cell.locator(".graph-view")
    gpage.wait_for_function("(f) => f.dataset.drawn === '1'", arg=figure.element_handle())
    assert figure.is_visible() and cell.locator(".table-scroll").is_hidden()
    assert (figure.get_attribute("data-nodes"), figure.get_attribute("data-relationships")) == ("2", "1")
    cell.locator('.view-choice[data-view="table"]').click()


def test_relationships_alone_bring_their_end_nodes(gpage):
    cell = run_by_keyboard(gpage, "MATCH ()-[r:MAINTAINS]->() RETURN r")
    assert cell.locator(".graph-nodes li").count() == 2
    nodes = cell.locator(".graph-nodes li").all_text_contents()
    assert all("(not in the result;" in line for line in nodes), nodes
    cell.locator('.view-choice[data-view="graph"]').click()
    figure = cell.locator(".graph-view")
    gpage.wait_for_function("(f) => f.dataset.drawn === '1'", arg=figure.element_handle())
    assert (figure.get_attribute("data-nodes"), figure.get_attribute("data-relationships")) == ("2", "1")
    cell.locator('.view-choice[data-view="table"]').click()


def test_the_switch_comes_with_graph_values_only(gpage):
    """Which results get a switch: those holding a node, a relationship or a path, wherever."""
    statements = {
        "RETURN 1 AS one": False,
        "MATCH (p:Person) RETURN p.name AS name": False,
        # a map with a node's keys is still a map
        "RETURN {id: 1, kind: 'node', labels: [], properties: {}} AS m": False,
        "CREATE (:Scratch)": False,
        "MATCH (p:Person) RETURN p LIMIT 1": True,
        "MATCH (p:Person) RETURN collect(p) AS people": True,
        "MATCH ()-[k:KNOWS]->() RETURN {rel: k} AS m": True,
    }
    shown = {}
    for statement in statements:
        cell = run_by_keyboard(gpage, statement)
        shown[statement] = cell.locator(".view-switch").count() == 1
        assert cell.locator(".graph-view").count() == int(shown[statement]), statement
    assert shown == statements


def test_graph_values_found_at_any_depth(gpage):
    """Nodes inside lists and maps, paths inside lists, one node met twice: drawn once each."""
    cell = run_by_keyboard(gpage, "MATCH p = (a:Person {name: 'Ada'})-[:KNOWS]->(b) "
                                  "RETURN [a, b] AS pair, {who: a} AS holder, [p] AS paths")
    names = [line.split(" ", 1)[0] for line in cell.locator(".graph-nodes li").all_text_contents()]
    assert names == ["Ada", "Grace"]
    assert cell.locator(".graph-relationships li").all_text_contents() == ["Ada -[:KNOWS]-> Grace"]
