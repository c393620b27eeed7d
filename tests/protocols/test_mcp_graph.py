"""The `graph` tool group through the MCP core, request line in and reply line out: results in
`content[0].text`, refusals as JSON-RPC errors with the 1.4 line's codes."""
from __future__ import annotations

import json

import pytest

import relate
from relate.protocols.jsonrpc import decode
from relate.protocols.mcp import McpServer
from relate.protocols.mcp_graph import ANONYMOUS, Caller
from relate.protocols.tool_groups import parse_tools

TEAM = ("CREATE (ada:Person {name: 'Ada', born: 1990})-[:KNOWS {since: 2021}]->(grace:Person:Admin {name: 'Grace'}),"
        " (grace)-[:WORKS_ON]->(:Project {name: 'relate'}), (ada)-[:WORKS_ON]->(:Project {name: 'tck'})")


def line(id_, tool, arguments):
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})


def reply(server, tool, ticket=None, **arguments):
    if ticket is None:
        return json.loads(server.handle_line(line(1, tool, arguments)))
    return json.loads(server.handle(decode(line(1, tool, arguments)), None, ticket))


def result(server, tool, **arguments):
    r = reply(server, tool, **arguments)
    assert "result" in r, r
    assert r["result"]["isError"] is False
    return json.loads(r["result"]["content"][0]["text"])


def error(server, tool, **arguments):
    r = reply(server, tool, **arguments)
    assert "error" in r, r
    return r["error"]


@pytest.fixture
def db():
    conn = relate.connect()
    conn.execute(TEAM)
    return conn


@pytest.fixture
def server(db):
    return McpServer(db, tools=parse_tools("all"))


# ---------------------------------------------------------------- cypher_query
def test_rows_are_lists_in_column_order(server):
    out = result(server, "cypher_query", query="MATCH (p:Person) RETURN p.name AS name, p.born AS born ORDER BY name")
    assert out["columns"] == ["name", "born"]
    assert out["rows"] == [["Ada", 1990], ["Grace", None]]
    assert out["warnings"] == [] and out["stats"]["nodes_created"] == 0
    assert "replayed" not in out


def test_parameters_fill_placeholders_and_writes_count(server):
    out = result(server, "cypher_query", query="CREATE (p:Person {name: $n}) RETURN p.name AS n",
                 parameters={"n": "Noor"})
    assert out["rows"] == [["Noor"]] and out["stats"]["nodes_created"] == 1


def test_non_finite_floats_are_strings_in_both_forms(server):
    q = "RETURN 1.0/0 AS a, -1.0/0 AS b, 0.0/0 AS c, 1.5 AS d"
    assert result(server, "cypher_query", query=q)["rows"] == [["Infinity", "-Infinity", "NaN", 1.5]]
    assert result(server, "cypher_query", query=q, format="tagged")["rows"] == [[
        {"type": "FLOAT", "value": "Infinity"}, {"type": "FLOAT", "value": "-Infinity"},
        {"type": "FLOAT", "value": "NaN"}, {"type": "FLOAT", "value": 1.5}]]


def test_tagged_cells_name_types_all_the_way_down(server):
    out = result(server, "cypher_query", format="tagged",
                 query="MATCH (a:Person {name: 'Ada'})-[k:KNOWS]->(g) "
                       "RETURN a, k, '1' AS s, [1, null] AS l, {d: date('2024-05-01')} AS m, null AS n")
    ada, knows, s, lst, m, n = out["rows"][0]
    assert ada == {"type": "NODE", "value": {"id": 0, "labels": ["Person"], "properties": {
        "name": {"type": "STRING", "value": "Ada"}, "born": {"type": "INTEGER", "value": 1990}}}}
    assert knows == {"type": "RELATIONSHIP", "value": {"id": 0, "type": "KNOWS", "start": 0, "end": 1,
                                                       "properties": {"since": {"type": "INTEGER", "value": 2021}}}}
    assert s == {"type": "STRING", "value": "1"}
    assert lst == {"type": "LIST", "value": [{"type": "INTEGER", "value": 1}, None]}
    assert m == {"type": "MAP", "value": {"d": {"type": "DATE", "value": "2024-05-01"}}}
    assert n is None


def test_tagged_paths_and_zoned_times(server):
    out = result(server, "cypher_query", format="tagged",
                 query="MATCH p = (:Person {name: 'Ada'})-[:KNOWS]->() "
                       "RETURN p, datetime('2024-01-01T00:00:00Z') AS t, localdatetime('2024-01-01T10:00') AS lt")
    path, t, lt = out["rows"][0]
    assert path["type"] == "PATH"
    assert [c["type"] for c in path["value"]["nodes"]] == ["NODE", "NODE"]
    assert [c["value"]["type"] for c in path["value"]["relationships"]] == ["KNOWS"]
    assert t == {"type": "ZONED DATETIME", "value": "2024-01-01T00:00Z"}  # Cypher's own text form
    assert lt == {"type": "LOCAL DATETIME", "value": "2024-01-01T10:00"}


@pytest.mark.parametrize("arguments, message", [
    ({}, 'Invalid params: missing string "query"'),
    ({"query": 1}, 'Invalid params: missing string "query"'),
    ({"query": "RETURN 1", "parameters": [1]}, 'Invalid params: "parameters" must be an object'),
    ({"query": "RETURN 1", "format": "xml"}, 'Invalid params: format must be "plain" or "tagged"'),
    ({"query": "RETURN 1", "atTime": 2024}, "Invalid params: atTime must be an ISO-8601 string"),
    ({"query": "RETURN 1", "idempotencyKey": ""}, "Invalid params: idempotencyKey must be a string of 1 to 256 "
                                                  "characters"),
    ({"query": "RETURN 1", "idempotencyKey": "k" * 257}, "Invalid params: idempotencyKey must be a string of 1 to "
                                                         "256 characters"),
    ({"query": "RETURN 1", "provenance": "me"}, 'Invalid params: "provenance" must be an object'),
    ({"query": "RETURN 1", "provenance": {"confidence": 2}}, "Invalid params: provenance.confidence must be a "
                                                             "number from 0.0 to 1.0"),
    ({"query": "RETURN 1", "provenance": {"actor": 7}}, "Invalid params: provenance.actor must be a string"),
    ({"query": "RETURN 1", "provenance": {"who": "x"}}, "Invalid params: provenance has no field 'who' (it takes "
                                                        "actor, source, reason, requestId, confidence)"),
])
def test_bad_arguments_are_invalid_params(server, arguments, message):
    assert error(server, "cypher_query", **arguments) == {"code": -32602, "message": message}


def test_engine_refusals_are_json_rpc_errors_with_the_kind(server):
    assert error(server, "cypher_query", query="MATCH (n RETURN n")["code"] == -32602
    assert error(server, "cypher_query", query="MATCH (n RETURN n")["data"] == {"kind": "ParseError"}
    assert error(server, "cypher_query", query="RETURN $x") == {
        "code": -32602, "message": "semantic error: ParameterMissing: Expected parameter(s): x",
        "data": {"kind": "ParameterMissing"}}
    assert error(server, "cypher_query", query="RETURN 1/0") == {
        "code": -32603, "message": "arithmetic error: DivisionByZero: / by zero", "data": {"kind": "DivisionByZero"}}


def test_a_read_only_server_refuses_writes_with_invalid_params(db):
    ro = McpServer(db, read_only=True, tools=parse_tools("graph"))
    e = error(ro, "cypher_query", query="CREATE (:X)")
    assert e["code"] == -32602 and e["data"]["kind"] == "ReadOnly"
    assert result(ro, "cypher_query", query="MATCH (x:X) RETURN count(x) AS n")["rows"] == [[0]]


def test_internal_failures_show_no_detail(server, monkeypatch, caplog):
    from relate.errors import E

    def broken(*a, **k):
        raise E.Internal.Internal("the disk caught fire")
    monkeypatch.setattr(server.db, "run", broken)
    assert error(server, "cypher_query", query="RETURN 1") == {"code": -32603, "message": "internal error",
                                                               "data": {"kind": "Internal"}}
    assert "the disk caught fire" in caplog.text


# ---------------------------------------------------------------- idempotency keys
def count(server, label="Order"):
    return result(server, "cypher_query", query=f"MATCH (o:{label}) RETURN count(o) AS n")["rows"][0][0]


def test_the_same_keyed_write_runs_once_and_replays(server):
    args = {"query": "CREATE (o:Order {n: $n}) RETURN o.n AS n", "parameters": {"n": 1}, "idempotencyKey": "k1"}
    first = result(server, "cypher_query", **args)
    assert first["replayed"] is False and first["stats"]["nodes_created"] == 1
    again = result(server, "cypher_query", **args)
    assert again == {**first, "replayed": True}
    assert count(server) == 1


def test_the_same_key_with_another_request_is_refused(server):
    result(server, "cypher_query", query="CREATE (:Order)", idempotencyKey="k1")
    e = error(server, "cypher_query", query="CREATE (:Order)", parameters={"x": 1}, idempotencyKey="k1")
    assert e["code"] == -32602 and e["data"] == {"subcode": "IDEMPOTENCY_KEY_REUSED"}
    assert "IDEMPOTENCY_KEY_REUSED" in e["message"]
    assert count(server) == 1


def test_keys_are_ignored_for_reads_and_a_failed_write_keeps_no_key(server):
    assert "replayed" not in result(server, "cypher_query", query="RETURN 1 AS x", idempotencyKey="k")
    assert error(server, "cypher_query", query="CREATE (:Order {n: 1/0})", idempotencyKey="k2")["code"] == -32603
    assert result(server, "cypher_query", query="CREATE (:Order)", idempotencyKey="k2")["replayed"] is False
    assert result(server, "cypher_query", query="CREATE (:Order)", idempotencyKey="k")["replayed"] is False
    assert count(server) == 2


def test_a_call_that_arrived_while_the_first_ran_answers_in_progress(server):
    args = {"query": "CREATE (:Order)", "idempotencyKey": "k"}
    msg = decode(line(1, "cypher_query", args))
    first, second = server.admit(msg), server.admit(msg)  # both arrive; the first then runs
    assert json.loads(server.handle(msg, None, first))["result"]["isError"] is False
    e = json.loads(server.handle(msg, None, second))["error"]
    assert e["code"] == -32000 and e["data"] == {"subcode": "IDEMPOTENCY_KEY_IN_PROGRESS"}
    again = server.admit(msg)  # sent again: the replay
    assert json.loads(json.loads(server.handle(msg, None, again))["result"]["content"][0]["text"])["replayed"] is True
    assert count(server) == 1


def test_a_read_that_arrived_with_a_key_frees_it(server):
    read = decode(line(1, "cypher_query", {"query": "RETURN 1", "idempotencyKey": "k"}))
    server.handle(read, None, server.admit(read))
    write = decode(line(2, "cypher_query", {"query": "CREATE (:Order)", "idempotencyKey": "k"}))
    assert json.loads(server.handle(write, None, server.admit(write)))["result"]["isError"] is False


# ---------------------------------------------------------------- summary, indexes, graphs, whoami
def test_graph_summary_counts_labels_and_types(server):
    assert result(server, "get_graph_summary") == {
        "nodes": 4, "relationships": 3,
        "labels": [{"count": 1, "label": "Admin"}, {"count": 2, "label": "Person"}, {"count": 2, "label": "Project"}],
        "relationship_types": [
            {"count": 1, "source_labels": ["Person"], "target_labels": ["Admin", "Person"], "type": "KNOWS"},
            {"count": 2, "source_labels": ["Admin", "Person"], "target_labels": ["Project"], "type": "WORKS_ON"}],
    }
    result(server, "cypher_query", query="MATCH (p:Project) DETACH DELETE p")
    out = result(server, "get_graph_summary")
    assert out["nodes"] == 2 and [t["type"] for t in out["relationship_types"]] == ["KNOWS"]


def test_list_indexes_shows_single_property_range_indexes(server):
    assert result(server, "list_indexes") == {"indexes": []}
    for q in ("CREATE INDEX person_name FOR (p:Person) ON (p.name)",
              "CREATE INDEX pair FOR (p:Person) ON (p.name, p.born)",
              "CREATE TEXT INDEX txt FOR (p:Project) ON (p.name)",
              "CREATE INDEX since FOR ()-[k:KNOWS]-() ON (k.since)"):
        result(server, "cypher_query", query=q)
    assert result(server, "list_indexes") == {"indexes": [
        {"entity": "NODE", "label": "Person", "name": "person_name", "property": "name", "state": "ONLINE"},
        {"entity": "RELATIONSHIP", "label": "KNOWS", "name": "since", "property": "since", "state": "ONLINE"}]}


def test_list_graphs_names_the_store(tmp_path):
    path = str(tmp_path / "team.rl")
    with relate.connect(path) as conn:
        assert result(McpServer(conn, tools=parse_tools("graph")), "list_graphs") == {
            "graphs": [{"current": True, "name": "team", "read_only": False}]}
    with relate.connect(path, read_only=True) as conn:
        assert result(McpServer(conn, tools=parse_tools("graph")), "list_graphs") == {
            "graphs": [{"current": True, "name": "team", "read_only": True}]}
    assert result(McpServer(relate.connect(), tools=parse_tools("graph")), "list_graphs")["graphs"][0]["name"] == \
        "memory"


def test_whoami_per_caller(tmp_path):
    path = str(tmp_path / "g")
    with relate.connect(path) as conn:
        server = McpServer(conn, tools=parse_tools("graph"))
        me = result(server, "whoami")
        assert me == {"capabilities": ["read", "write"], "current_snapshot_seq": me["current_snapshot_seq"],
                      "graph": "g", "graph_dir": path, "roles": ["admin"], "subject": "local", "tenant": None}
        server.set_caller(Caller("agent"))
        assert result(server, "whoami")["subject"] == "agent"
        server.set_caller(ANONYMOUS)
        anon = result(server, "whoami")
        assert (anon["subject"], anon["roles"], anon["graph_dir"]) == (None, [], None)


def test_the_snapshot_seq_grows_with_each_committed_write(server):
    before = result(server, "whoami")["current_snapshot_seq"]
    result(server, "cypher_query", query="MATCH (n) RETURN count(n) AS n")
    assert result(server, "whoami")["current_snapshot_seq"] == before
    result(server, "cypher_query", query="CREATE (:Order)")
    line_ = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_cypher","arguments":' \
            '{"statement":"CREATE (:Order)"}}}'
    server.handle_line(line_)
    assert result(server, "whoami")["current_snapshot_seq"] == before + 2


def test_unknown_arguments_members_are_ignored(server):
    assert result(server, "whoami", _meta={"x": 1})["subject"] == "local"


# ---------------------------------------------------------------- the label limit
def test_a_create_naming_too_many_new_labels_is_refused_before_it_runs(server):
    many = " ".join(f"(:L{i})" for i in range(257)).replace(") (", "), (")
    e = error(server, "cypher_query", query=f"CREATE {many}")
    assert e == {"code": -32602, "message": "TOO_MANY_NEW_LABELS: the statement names 257 labels new to the graph; "
                                            "at most 256 are allowed in one statement",
                 "data": {"subcode": "TOO_MANY_NEW_LABELS"}}
    assert result(server, "get_graph_summary")["nodes"] == 4  # nothing ran
    at_limit = " ".join(f"(:L{i})" for i in range(256)).replace(") (", "), (")
    assert result(server, "cypher_query", query=f"CREATE {at_limit}")["stats"]["nodes_created"] == 256
    # labels the graph holds are not new: the same 256 plus one new one pass
    assert result(server, "cypher_query", query=f"CREATE {at_limit}, (:Person:Extra)")["stats"]["nodes_created"] == 257
    merged = "MERGE " + " MERGE ".join(f"(:M{i})" for i in range(257))
    assert error(server, "cypher_query", query=merged)["data"] == {"subcode": "TOO_MANY_NEW_LABELS"}


@pytest.mark.parametrize("first", [
    {"query": "CREATE (:Order", "idempotencyKey": "k"},                      # does not compile
    {"query": "CREATE (:Order)", "format": "xml", "idempotencyKey": "k"},    # a bad argument
    {"query": "CREATE (:Order {n: 1/0})", "idempotencyKey": "k"},            # fails as it runs
])
def test_a_keyed_call_that_was_refused_frees_its_key_on_http_too(server, first):
    refused = decode(line(1, "cypher_query", first))
    assert "error" in json.loads(server.handle(refused, None, server.admit(refused)))
    write = decode(line(2, "cypher_query", {"query": "CREATE (:Order)", "idempotencyKey": "k"}))
    ticket = server.admit(write)
    out = json.loads(json.loads(server.handle(write, None, ticket))["result"]["content"][0]["text"])
    assert out["replayed"] is False and count(server) == 1
