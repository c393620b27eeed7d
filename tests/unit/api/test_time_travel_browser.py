"""The browser build's engine calls (`relate.browser.Page`, what the docs pages' worker runs):
AT VALID writes, AS OF reads, `at_time` on a cell, the CURRENT_READ_VALID_NOW warning."""
from __future__ import annotations

import json

from relate import browser


def test_cells_travel_in_time():
    page = browser.Page()
    assert page.cell("AT VALID '2020-01-01' CREATE (:P {x: 1})")["error"] is None
    assert page.cell("AT VALID '2022-01-01' MATCH (p:P) SET p.x = 2")["error"] is None
    assert page.cell("AS OF '2021-01-01' MATCH (p:P) RETURN p.x AS x")["rows"] == [["1"]]
    assert page.cell("MATCH (p:P) RETURN p.x AS x", at_time="2021-01-01")["rows"] == [["1"]]
    # the worker's request form, as JSON text
    browser._page = page
    answer = json.loads(browser.call(json.dumps({"op": "cell", "statement": "MATCH (p:P) RETURN p.x AS x",
                                                 "at_time": "2023-01-01"})))
    browser._page = None
    assert answer["values"] == [[2]]
    assert page.cell("AS OF '2021-01-01' CREATE (:Q)")["kind"] == "AsOfWrite"


def test_a_cell_carries_the_future_value_warning():
    page = browser.Page()
    page.cell("CREATE (:P {x: 1})")
    assert page.cell("MATCH (p:P) RETURN p.x")["warnings"] == []
    page.cell("AT VALID '2999-01-01' MATCH (p:P) SET p.x = 2")
    cell = page.cell("MATCH (p:P) RETURN p.x AS x")
    assert cell["values"] == [[1]] and cell["warnings"] == ["CURRENT_READ_VALID_NOW"]
