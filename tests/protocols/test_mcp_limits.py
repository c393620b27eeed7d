"""The server's limits as an MCP host sees them through the protocol core: `--safe`,
`--max-traversal-depth`, `--expression-memory-limit`, `get_schema` sampling, and the extra
members real clients send."""
from __future__ import annotations

import io
import json

import pytest

import relate
from relate.cli.main import run
from relate.protocols.mcp import McpServer
from tests.conftest import TEAM

SAFE = "Error: syntax error: SafeModeViolation: "


def call(server, tool, **arguments):
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}})
    return json.loads(server.handle_line(line))["result"]


def text(result) -> str:
    return result["content"][0]["text"]


def rows(result):
    assert result["isError"] is False, text(result)
    return json.loads(text(result))["rows"]


@pytest.fixture
def team_db():
    db = relate.connect()
    db.execute(TEAM)
    return db


# ------------------------------------------------------------------ --safe

@pytest.mark.parametrize("statement", [
    "MATCH (p:Person) RETURN p.name",
    "MATCH (p:Person) RETURN collect(p.name) AS names",
    "OPTIONAL MATCH (p:Person) RETURN p",
    "MATCH (p:Person) WITH p RETURN p.name AS n ORDER BY n",
    "MATCH (p:Person) RETURN p.name AS name UNION MATCH (q:Project) RETURN q.name AS name LIMIT 1",
    "MATCH (p:Person) WITH p LIMIT 1 MATCH (p)-[:WORKS_ON]->(q) RETURN q",
    # one row per group, and a group per distinct role: nothing bounds how many
    "MATCH (p:Person) RETURN p.role AS role, count(*) AS n ORDER BY role",
])
def test_safe_refuses_unbounded_match_reads(team_db, statement):
    res = call(McpServer(team_db, safe=True), "read_cypher", statement=statement)
    assert res["isError"] is True and text(res).startswith(SAFE), text(res)


@pytest.mark.parametrize("statement, expected", [
    ("MATCH (p:Person) RETURN p.name AS n ORDER BY n LIMIT 2", [{"n": "Ada"}, {"n": "Grace"}]),
    ("MATCH (p:Person) RETURN count(p) AS n", [{"n": 3}]),
    ("MATCH (p:Person) RETURN p.role AS role, count(*) AS n ORDER BY role LIMIT 5", [{"n": 2, "role": "engineer"},
                                                                                     {"n": 1, "role": "maintainer"}]),
    ("MATCH (p:Person) RETURN p.role = 'engineer' AS engineer, count(*) AS n ORDER BY engineer",
     [{"engineer": False, "n": 1}, {"engineer": True, "n": 2}]),
    ("MATCH (p:Person) WITH max(p.name) AS m RETURN m", [{"m": "Noor"}]),
    ("MATCH (p:Person) WITH p ORDER BY p.name LIMIT 1 RETURN p.name AS n", [{"n": "Ada"}]),
    ("UNWIND [1, 2] AS x RETURN x", [{"x": 1}, {"x": 2}]),
    ("RETURN 1 AS one", [{"one": 1}]),
])
def test_safe_passes_bounded_reads_and_reads_without_match(team_db, statement, expected):
    assert rows(call(McpServer(team_db, safe=True), "read_cypher", statement=statement)) == expected


@pytest.mark.parametrize("statement", [
    "CREATE (n)",
    "CREATE (a:Person {name: 'Eve'})-[:KNOWS]->(b)",
    "MERGE (x {name: 'Eve'})",
    "MATCH (a:Person {name: 'Ada'}) CREATE (a)-[:KNOWS]->(b)",
])
def test_safe_refuses_new_named_nodes_without_a_label(team_db, statement):
    res = call(McpServer(team_db, safe=True), "write_cypher", statement=statement)
    assert res["isError"] is True and text(res).startswith(SAFE), text(res)
    assert rows(call(McpServer(team_db), "read_cypher", statement="MATCH (n) RETURN count(n) AS n")) == [{"n": 5}]


@pytest.mark.parametrize("statement", [
    "CREATE ()",
    "CREATE (n:Tag)",
    "MATCH (a:Person {name: 'Ada'}) CREATE (a)-[:KNOWS]->(:Person {name: 'Eve'})",
    "MATCH (a:Person {name: 'Ada'}), (b:Person {name: 'Noor'}) MERGE (a)-[:KNOWS]->(b)",
    "CREATE (a:Tag), (a)-[:R]->(b:Tag)",
    "MATCH (p:Person) SET p.seen = true",
])
def test_safe_passes_labelled_anonymous_and_bound_nodes(team_db, statement):
    res = call(McpServer(team_db, safe=True), "write_cypher", statement=statement)
    assert res["isError"] is False, text(res)


def test_safe_refusal_keeps_the_tool_class_refusal_first(team_db):
    res = call(McpServer(team_db, safe=True), "write_cypher", statement="MATCH (n) RETURN n")
    assert text(res) == "Only write queries are allowed for write-query"


def test_without_safe_the_same_statements_run(team_db):
    server = McpServer(team_db)
    assert len(rows(call(server, "read_cypher", statement="MATCH (p:Person) RETURN p.name"))) == 3
    assert call(server, "write_cypher", statement="CREATE (n)")["isError"] is False


def test_safe_flag_on_the_stdio_server():
    lines = "\n".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                  "params": {"name": "write_cypher" if i == 1 else "read_cypher",
                                             "arguments": {"statement": s}}})
                      for i, s in [(1, "CREATE (n)"), (2, "MATCH (n) RETURN n"), (3, "MATCH (n) RETURN n LIMIT 1")])
    out = io.StringIO()
    code = run(["serve", "--mcp", "stdio", "--safe"], env={}, stdin=io.StringIO(lines + "\n"), stdout=out,
               stderr=io.StringIO())
    replies = [json.loads(x)["result"] for x in out.getvalue().splitlines()]
    assert code == 0
    assert [r["isError"] for r in replies] == [True, True, False]
    assert text(replies[0]).startswith(SAFE + "CREATE of a new node (n) without a label")
    assert text(replies[1]).startswith(SAFE)


# ------------------------------------------------------------------ --max-traversal-depth

def test_traversal_depth_default_is_500(team_db):
    server = McpServer(team_db)
    ok = call(server, "read_cypher", statement="MATCH (a)-[*1..500]->(b) RETURN count(*) AS n")
    assert rows(ok) == [{"n": 7}]
    res = call(server, "read_cypher", statement="MATCH (a)-[*1..501]->(b) RETURN count(*) AS n")
    assert res["isError"] is True
    assert text(res).startswith("Error: semantic error: TraversalDepthExceeded: ")
    assert "501" in text(res) and "500" in text(res)


@pytest.mark.parametrize("statement", ["MATCH (a)-[*3]->(b) RETURN a", "MATCH (a)-[*..3]->(b) RETURN a",
                                       "MATCH (a)-[*3..]->(b) RETURN a",
                                       "MATCH (a) WHERE (a)-[*1..9]->() RETURN a",
                                       "MATCH (a) RETURN [(a)-[*..3]->(b) | b] AS bs"])
def test_traversal_depth_checks_every_explicit_bound(team_db, statement):
    res = call(McpServer(team_db, max_traversal_depth=2), "read_cypher", statement=statement)
    assert res["isError"] is True and "TraversalDepthExceeded" in text(res)


def test_an_unbounded_star_names_no_bound(team_db):
    res = call(McpServer(team_db, max_traversal_depth=1), "read_cypher",
               statement="MATCH (a:Person {name: 'Ada'})-[*]->(b) RETURN count(b) AS n")
    assert rows(res) == [{"n": 4}]  # paths: Ada->relate, Ada->Grace, Ada->Grace->relate, Ada->Grace->tck


def test_traversal_depth_flag_on_the_stdio_server():
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "read_cypher", "arguments": {"statement": "MATCH (a)-[*..5]->(b) RETURN count(*) AS n"}}})
    out = io.StringIO()
    run(["serve", "--mcp", "stdio", "--max-traversal-depth", "4"], env={}, stdin=io.StringIO(line + "\n"),
        stdout=out, stderr=io.StringIO())
    assert "TraversalDepthExceeded" in text(json.loads(out.getvalue())["result"])


# ------------------------------------------------------------------ --expression-memory-limit

def test_a_value_over_the_expression_memory_limit_is_a_tool_error(team_db):
    server = McpServer(team_db, expression_memory_limit=4096)
    res = call(server, "read_cypher", statement="RETURN range(1, 1000) AS xs")
    assert res["isError"] is True
    assert text(res).startswith("Error: runtime error: ExpressionMemoryLimit: ")
    res = call(server, "read_cypher", statement="RETURN reduce(s = '', x IN range(1, 600) | s + 'abcdefgh') AS s")
    assert res["isError"] is True
    assert len(rows(call(server, "read_cypher", statement="RETURN range(1, 100) AS xs"))[0]["xs"]) == 100


def test_expression_memory_limit_flag_takes_units():
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "read_cypher", "arguments": {"statement": "RETURN range(1, 1000) AS xs"}}})
    for limit, is_error in [("1KiB", True), ("1MiB", False), ("2048", True)]:
        out = io.StringIO()
        run(["serve", "--mcp", "stdio", "--expression-memory-limit", limit], env={},
            stdin=io.StringIO(line + "\n"), stdout=out, stderr=io.StringIO())
        assert json.loads(out.getvalue())["result"]["isError"] is is_error


# ------------------------------------------------------------------ get_schema sampling

@pytest.fixture
def mixed_db():
    db = relate.connect()
    # node ids in creation order: the first Item holds an integer `v`, the second a string
    db.execute("CREATE (:Item {v: 1})-[:NEXT]->(:Other), (:Item {v: 'two', w: true})-[:LINK {x: 1.5}]->(:Other)")
    db.execute("UNWIND range(1, 5) AS i CREATE (:Item {v: i})")
    return db


def test_schema_counts_are_exact_whatever_the_sample(mixed_db):
    server = McpServer(mixed_db)
    for size in (0, 1, 2, -1):
        schema = json.loads(text(call(server, "get_schema", sample_size=size)))
        assert schema["Item"]["count"] == 7 and schema["Other"]["count"] == 2


def test_schema_first_type_seen_wins_and_the_sample_bounds_what_is_seen(mixed_db):
    server = McpServer(mixed_db)
    one = json.loads(text(call(server, "get_schema", sample_size=1)))["Item"]
    assert one["properties"] == {"v": {"type": "Integer"}}
    assert list(one["relationships"]) == ["NEXT"]
    full = json.loads(text(call(server, "get_schema", sample_size=-1)))["Item"]
    assert full["properties"] == {"v": {"type": "Integer"}, "w": {"type": "Boolean"}}
    assert full["relationships"]["LINK"] == {"direction": "out", "labels": ["Other"],
                                             "properties": {"x": {"type": "Float"}}}
    assert json.loads(text(call(server, "get_schema")))["Item"] == full  # default 1000 sees all 7


def test_schema_sample_zero_sees_no_properties(mixed_db):
    zero = json.loads(text(call(McpServer(mixed_db), "get_schema", sample_size=0)))["Item"]
    assert zero == {"count": 7, "properties": {}, "type": "node"}


@pytest.mark.parametrize("bad, message", [
    (-2, "invalid params: sample_size must be -1 or non-negative, got -2"),
    ("ten", "invalid params: sample_size must be an integer"),
])
def test_schema_bad_sample_sizes(mixed_db, bad, message):
    res = call(McpServer(mixed_db), "get_schema", sample_size=bad)
    assert res["isError"] is True and text(res) == message


# ------------------------------------------------------------------ what clients in the wild send

def test_params_meta_is_ignored_on_every_method(team_db):
    server = McpServer(team_db)
    meta = {"_meta": {"progressToken": "t", "io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    for method in ("ping", "tools/list", "initialize"):
        reply = json.loads(server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                                                          "params": meta})))
        assert "result" in reply, reply
    reply = json.loads(server.handle_line(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        **meta, "name": "read_cypher", "arguments": {"statement": "RETURN 1 AS x"}}})))
    assert rows(reply["result"]) == [{"x": 1}]


def test_server_discover_probe_is_answered(team_db):
    # issue 19: the dual-era client's probe is answered (it was -32601 while relate was legacy-only)
    reply = json.loads(McpServer(team_db).handle_line(
        '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{}}}'))
    assert reply["result"]["supportedVersions"] == ["2026-07-28"]
    assert reply["result"]["resultType"] == "complete"


def test_stdio_splits_messages_on_newline_only():
    # U+2028 inside a string is JSON content, and "\r\n" line ends are accepted
    stmt = "RETURN 'a\u2028b' AS s"
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "read_cypher", "arguments": {"statement": stmt}}}, ensure_ascii=False)
    out = io.StringIO()
    run(["serve", "--mcp", "stdio"], env={}, stdin=io.StringIO(line + "\r\n\n"), stdout=out, stderr=io.StringIO())
    replies = out.getvalue().split("\n")
    assert replies[1:] == [""]
    assert rows(json.loads(replies[0])["result"]) == [{"s": "a\u2028b"}]
