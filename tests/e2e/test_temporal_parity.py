"""Temporal and spatial values: the page's `relate` == the native process, byte for byte.

The queries build every temporal kind, durations and points, and read zone history that only the
pinned tzdata wheel supplies in the browser (Stockholm in 1818 ran on local mean time, +00:53:28),
so a browser that fell back to other zone data, or rendered a value differently, shows up here.
Each CLI call opens its own `:memory:` database, so the cases share one loaded page.  MCP replies
go through the same engine and protocol core; one call checks them too.
"""
from __future__ import annotations

import json

import pytest

from native import McpProcess, cli
from parity import assert_parity

VALUES = ("RETURN date('2015-W30-2') AS d, localtime('214032.142') AS lt, time('2140-02') AS t, "
          "localdatetime('2015202T21') AS ldt, "
          "datetime('1818-07-21T21:40:32.142[Europe/Stockholm]') AS old, "
          "datetime({year: 1984, ordinalDay: 202, timezone: 'Europe/Stockholm'}) AS summer, "
          "duration({months: 0.75}) AS dur, point({x: 3, y: 4}) AS p, "
          "point({longitude: 18.07, latitude: 59.33}) AS geo")
ARITHMETIC = ("WITH datetime('2015-03-28T12:00[Europe/Stockholm]') AS start "
              "RETURN start + duration('P1D') AS plus_day, start + duration('PT24H') AS plus_hours, "
              "duration.between(date('1984-10-11'), date('2015-06-24')) AS between, "
              "date.truncate('weekYear', date('1984-01-01'), {day: 5}) AS truncated, "
              "start.offset AS offset, start.epochSeconds AS epoch, "
              "point.distance(point({x: 0, y: 0}), point({x: 3, y: 4})) AS distance")
ORDERED = ("UNWIND [date('1985-05-06'), date('1910-05-06'), date('1980-12-24')] AS d "
           "RETURN d ORDER BY d DESC")
STORE = "CREATE (:Event {at: datetime('2015-07-21T21:40:32.142+02:00[Europe/Stockholm]')})"

CASES = [pytest.param(["--mode", mode, VALUES], id=f"values-{mode}")
         for mode in ("table", "envelope", "jsonl", "toon")] + [
    pytest.param(["--mode", "envelope", ARITHMETIC], id="arithmetic-envelope"),
    pytest.param(["--mode", "table", ARITHMETIC], id="arithmetic-table"),
    pytest.param(["--mode", "jsonl", ORDERED], id="ordered-jsonl"),
    pytest.param(["--mode", "envelope", "RETURN date('2015-02-30') AS bad"], id="invalid-date"),
    pytest.param(["--mode", "envelope", "RETURN datetime('2015-07-21T21:40[Mars/Olympus]') AS bad"],
                 id="unknown-zone"),
    pytest.param(["--mode", "envelope", STORE + " WITH 1 AS one MATCH (e:Event) RETURN e.at AS at"],
                 id="store-and-read"),
]


@pytest.mark.parametrize("args", CASES)
def test_temporal_cli_matches_native(page, args):
    browser = page.evaluate("([a, e]) => window.relate.cli(a, {env: e})", [args, {}])
    assert_parity(browser, cli(args, {}), f"relate {args}")


def test_temporal_mcp_reply_matches_native(page):
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                          "params": {"name": "read_cypher", "arguments": {"statement": VALUES}}},
                         separators=(",", ":"))
    browser = page.evaluate("([l, ro]) => window.relate.mcp(l, {readOnly: ro})", [request, True])
    with McpProcess(":memory:", read_only=True) as native:
        assert_parity([] if browser is None else [browser], native.send(request), "read_cypher")
