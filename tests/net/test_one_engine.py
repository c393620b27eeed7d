"""One `relate serve` process with MCP, Bolt and the Query API: the same statements give the same
rows on every door (and through the Python API), and all doors share one engine with one writer:
an open transaction's writes are unseen everywhere until it commits, a write anywhere else meanwhile
is refused as retryable, and a dropped or rolled-back transaction leaves nothing."""
from __future__ import annotations

import json
import socket
import time

import pytest

from tests.net.query_server import PASSWORD, USER, query, start_query
from tests.net.server import basic, post, tool_call

neo4j = pytest.importorskip("neo4j")
ex = pytest.importorskip("neo4j.exceptions")

SETUP = [
    "CREATE (:Person {name: 'Ada', born: 1815}), (:Person {name: 'Charles', born: 1791}), "
    "(:Person {name: 'Grace', born: 1906})",
    "MATCH (a:Person {name: 'Ada'}), (c:Person {name: 'Charles'}) CREATE (a)-[:KNOWS {since: 1833}]->(c)",
    "MATCH (g:Person {name: 'Grace'}) SET g.navy = true",
]
READS = [
    "MATCH (p:Person) RETURN p.name AS name, p.born AS born ORDER BY name",
    "MATCH (a)-[k:KNOWS]->(b) RETURN a.name AS a, k.since AS since, b.name AS b",
    "MATCH (p:Person) RETURN collect(p.name) AS names, avg(p.born) AS mean, count(*) AS n",
    "RETURN [1, 2.5, 'x', null, true] AS l, {k: [1, {d: 'deep'}]} AS m, 'é日本' AS s",
    "UNWIND range(1, 5) AS i WITH i WHERE i % 2 = 1 RETURN i, i * i AS sq",
    "MATCH (p:Person) WHERE p.navy RETURN p.name AS name",
]
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "Authorization": basic(USER, PASSWORD)}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    s = start_query(tmp_path_factory.mktemp("one"))
    yield s
    assert s.stop() == 0


@pytest.fixture
def ports(served):
    p = served.ports()
    yield p
    query(p["http"], "MATCH (n) DETACH DELETE n")


def _mcp(port: int, tool: str, statement: str) -> dict:
    reply = post(port, tool_call(1, tool, statement=statement), MCP_HEADERS).json()["result"]
    text = reply["content"][0]["text"]
    return {"refused": text} if reply["isError"] else json.loads(text)


def _via_mcp(port):
    for s in SETUP:
        assert "refused" not in _mcp(port, "write_cypher", s)
    out = []
    for r in READS:
        env = _mcp(port, "read_cypher", r)
        out.append([[row[c] for c in env["columns"]] for row in env["rows"]])
    return out


def _via_bolt(port):
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{port}", auth=(USER, PASSWORD)) as d:
        for s in SETUP:
            d.execute_query(s)
        return [[list(rec.values()) for rec in d.execute_query(r)[0]] for r in READS]


def _via_query_api(port):
    for s in SETUP:
        assert query(port, s)[0] == 202
    return [query(port, r)[1]["data"]["values"] for r in READS]


def _via_python():
    import relate
    with relate.connect(":memory:") as conn:
        for s in SETUP:
            conn.execute(s)
        return [[list(row) for row in conn.execute(r)] for r in READS]


def test_every_door_gives_the_same_rows(ports):
    results = {}
    for name, run in (("mcp", lambda: _via_mcp(ports["mcp"])), ("bolt", lambda: _via_bolt(ports["bolt"])),
                      ("http", lambda: _via_query_api(ports["http"])), ("python", _via_python)):
        results[name] = run()
        query(ports["http"], "MATCH (n) DETACH DELETE n")
    expected = results.pop("python")
    assert expected[0] == [["Ada", 1815], ["Charles", 1791], ["Grace", 1906]]
    for name, got in results.items():
        assert got == expected, name


def test_one_writer_across_every_door(ports):
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{ports['bolt']}", auth=(USER, PASSWORD),
                                    max_transaction_retry_time=0.5) as d, d.session() as s:
        tx = s.begin_transaction()
        tx.run("CREATE (:Pending)").consume()
        count = "MATCH (p:Pending) RETURN count(p) AS n"
        assert query(ports["http"], count)[1]["data"]["values"] == [[0]]
        assert _mcp(ports["mcp"], "read_cypher", count)["rows"] == [{"n": 0}]
        status, body, _ = query(ports["http"], "CREATE (:FromHttp)")
        assert (status, body["errors"][0]["code"]) == (409, "Neo.TransientError.Transaction.LockAcquisitionTimeout")
        refused = _mcp(ports["mcp"], "write_cypher", "CREATE (:FromMcp)")
        assert "WriterBusy" in refused["refused"]
        tx.commit()
    assert query(ports["http"], count)[1]["data"]["values"] == [[1]]
    assert _mcp(ports["mcp"], "read_cypher", count)["rows"] == [{"n": 1}]
    assert "refused" not in _mcp(ports["mcp"], "write_cypher", "CREATE (:FromMcp)")
    assert query(ports["http"], "CREATE (:FromHttp)")[0] == 202


def test_a_query_api_transaction_blocks_bolt_and_mcp_writers_until_rolled_back(ports):
    from tests.net.query_server import call
    status, body, _ = call(ports["http"], "POST", "/db/neo4j/query/v2/tx", {"statement": "CREATE (:Tx)"})
    tx = body["transaction"]["id"]
    with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{ports['bolt']}", auth=(USER, PASSWORD),
                                    max_transaction_retry_time=0.5) as d:
        with pytest.raises(ex.TransientError):
            d.execute_query("CREATE (:FromBolt)")
        assert d.execute_query("MATCH (t:Tx) RETURN count(t) AS n")[0][0]["n"] == 0
        assert "WriterBusy" in _mcp(ports["mcp"], "write_cypher", "CREATE (:FromMcp)")["refused"]
        assert call(ports["http"], "DELETE", f"/db/neo4j/query/v2/tx/{tx}")[0] == 202
        d.execute_query("CREATE (:FromBolt)")
        assert d.execute_query("MATCH (n) RETURN labels(n)[0] AS l")[0][0]["l"] == "FromBolt"


def test_a_dropped_bolt_connection_mid_transaction_frees_the_other_doors(ports):
    from relate.protocols.bolt_packstream import Structure, pack
    from tests.net.bolt_server import RawBolt
    raw = RawBolt(ports["bolt"])
    raw.send(pack(Structure(0x01, ({"user_agent": "t"},))))
    raw.send(pack(Structure(0x6A, ({"scheme": "basic", "principal": USER, "credentials": PASSWORD},))))
    raw.send(pack(Structure(0x11, ({},))))
    raw.send(pack(Structure(0x10, ("CREATE (:Orphan)", {}, {}))))
    raw.send(pack(Structure(0x3F, ({"n": -1},))))
    for _ in range(5):
        assert raw.recv() is not None
    assert query(ports["http"], "CREATE (:Blocked)")[0] == 409
    raw.sock.shutdown(socket.SHUT_RDWR)
    raw.close()
    deadline = time.monotonic() + 10
    while query(ports["http"], "CREATE (:After)")[0] == 409:
        assert time.monotonic() < deadline, "the dropped connection kept the write role"
        time.sleep(0.1)
    assert query(ports["http"], "MATCH (n) RETURN labels(n)[0]")[1]["data"]["values"] == [["After"]]
