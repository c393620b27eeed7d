"""The graph group on the time travel engine: records by string id with their spans, atTime
reads and their refusals, future-dated writes and the CURRENT_READ_VALID_NOW warning, the history
budget, and provenance kept with a write (a fixed clock makes the times exact)."""
from __future__ import annotations

import json

import pytest

import relate
from relate.protocols.mcp import McpServer
from relate.protocols.mcp_graph import Caller
from relate.protocols.tool_groups import parse_tools

T0 = 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z
SECOND = 1_000_000_000


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


def reply(server, tool, **arguments):
    return json.loads(server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                     "params": {"name": tool, "arguments": arguments}})))


def result(server, tool, **arguments):
    r = reply(server, tool, **arguments)
    assert "result" in r, r
    return json.loads(r["result"]["content"][0]["text"])


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def server(clock):
    return McpServer(relate.connect(clock=clock), tools=parse_tools("graph"))


def test_records_by_string_id_with_their_spans(server, clock):
    made = result(server, "cypher_query", query="CREATE (a:Person {name: 'Ada'})-[k:KNOWS {since: 2021}]->(b:Person) "
                                                "RETURN elementId(a) AS a, elementId(k) AS k, elementId(b) AS b")
    assert made["rows"] == [["n0", "r0", "n1"]]
    clock.now += SECOND
    span = {"txnFrom": "2026-01-01T00:00:00Z", "txnTo": None, "txn_from": T0, "txn_to": None,
            "validFrom": "2026-01-01T00:00:00Z", "validTo": None, "valid_from": T0, "valid_to": None}
    assert result(server, "get_node_by_str", str_id="n0") == {
        "id": "n0", "labels": ["Person"], "properties": {"name": "Ada"}, "span": span}
    assert result(server, "get_relationship_by_str", str_id="r0") == {
        "id": "r0", "edge_type": "KNOWS", "source": 0, "target": 1, "properties": {"since": 2021}, "span": span}
    for tool, missing in (("get_node_by_str", "n7"), ("get_node_by_str", "r0"), ("get_relationship_by_str", "n0"),
                          ("get_relationship_by_str", "x")):
        assert result(server, tool, str_id=missing) is None
    result(server, "cypher_query", query="MATCH (n) DETACH DELETE n")
    assert result(server, "get_node_by_str", str_id="n0") is None


def test_a_future_dated_node_is_null_until_its_time_and_reads_warn(server, clock):
    result(server, "cypher_query", query="AT VALID '2026-03-01T00:00:00Z' CREATE (:Launch {name: 'v2'})")
    assert result(server, "get_node_by_str", str_id="n0") is None
    out = result(server, "cypher_query", query="MATCH (l:Launch) RETURN l.name AS name")
    assert out["rows"] == []
    assert [w["code"] for w in out["warnings"]] == ["CURRENT_READ_VALID_NOW"]
    later = result(server, "cypher_query", query="MATCH (l:Launch) RETURN l.name AS name",
                   atTime="2026-04-01T00:00:00Z")
    assert later["rows"] == [["v2"]]
    clock.now = T0 + 90 * 86400 * SECOND  # the clock passes the launch date
    node = result(server, "get_node_by_str", str_id="n0")
    assert node["properties"] == {"name": "v2"} and node["span"]["validFrom"] == "2026-03-01T00:00:00Z"
    assert result(server, "cypher_query", query="MATCH (l:Launch) RETURN count(l) AS n")["warnings"] == []


def test_at_time_reads_the_past_and_its_refusals_are_invalid_params(server, clock):
    result(server, "cypher_query", query="CREATE (:Price {v: 1})")
    clock.now += 10 * SECOND
    result(server, "cypher_query", query="MATCH (p:Price) SET p.v = 2")
    past = result(server, "cypher_query", query="MATCH (p:Price) RETURN p.v AS v", atTime="2026-01-01T00:00:05Z")
    assert past["rows"] == [[1]]
    assert result(server, "cypher_query", query="MATCH (p:Price) RETURN p.v AS v")["rows"] == [[2]]
    for query, at, kind in (("RETURN 1", "2026-01-01", "AtTimeNeedsMatch"),
                            ("MATCH (p:Price) SET p.v = 3", "2026-01-01", "AtTimeWrite"),
                            ("AS OF '2026-01-01' MATCH (p) RETURN p", "2026-01-01", "AtTimeWithTemporalPrefix"),
                            ("MATCH (p) RETURN p", "yesterday", "InvalidTemporalPrefix")):
        e = reply(server, "cypher_query", query=query, atTime=at)["error"]
        assert (e["code"], e["data"]) == (-32602, {"kind": kind}), e
    assert result(server, "cypher_query", query="MATCH (p:Price) RETURN p.v AS v")["rows"] == [[2]]


def test_a_read_over_the_history_budget_is_internal_error_without_subcode(clock):
    db = relate.connect(clock=clock, temporal_read_limit=3)
    server = McpServer(db, tools=parse_tools("graph"))
    result(server, "cypher_query", query="UNWIND range(1, 10) AS i CREATE (:N {i: i})")
    clock.now += SECOND
    result(server, "cypher_query", query="MATCH (n:N) SET n.i = n.i + 1")
    e = reply(server, "cypher_query", query="MATCH (n:N) RETURN n.i AS i", atTime="2026-01-01T00:00:00Z")["error"]
    assert e["code"] == -32603 and "TEMPORAL_READ_LIMIT" in e["message"]
    assert "subcode" not in e.get("data", {})


def test_provenance_is_kept_with_the_write_and_names_the_caller(server):
    server.set_caller(Caller("agent"))
    result(server, "cypher_query", query="CREATE (:Fact {v: 1})",
           provenance={"actor": "planner", "reason": "import", "confidence": 0.9})
    record = server.db.transaction_record(1)
    assert record["provenance"] == {"actor": "planner", "reason": "import", "confidence": 0.9, "principal": "agent"}


def test_the_summary_counts_what_is_valid_now(server, clock):
    result(server, "cypher_query", query="CREATE (:Team)")
    result(server, "cypher_query", query="AT VALID '2026-03-01T00:00:00Z' CREATE (:Launch)")
    assert [x["label"] for x in result(server, "get_graph_summary")["labels"]] == ["Team"]
    clock.now = T0 + 90 * 86400 * SECOND
    assert [x["label"] for x in result(server, "get_graph_summary")["labels"]] == ["Launch", "Team"]
    assert result(server, "whoami")["current_snapshot_seq"] == 2
