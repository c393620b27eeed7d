"""The HTTP Query API v2 (`relate serve --http`) with plain HTTP requests, as a script or curl
sends them: discovery, plain and typed JSON, counters, notifications, explicit transactions
(isolation, one writer, commit, rollback, expiry), typed errors, CORS for the listed origins."""
from __future__ import annotations

import time

import pytest

from tests.net.query_server import TYPED, auth_header, call, query, start_query

Q = "/db/neo4j/query/v2"
COUNTERS = ["containsUpdates", "nodesCreated", "nodesDeleted", "propertiesSet", "relationshipsCreated",
            "relationshipsDeleted", "labelsAdded", "labelsRemoved", "indexesAdded", "indexesRemoved",
            "constraintsAdded", "constraintsRemoved", "containsSystemUpdates", "systemUpdates"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    s = start_query(tmp_path_factory.mktemp("qapi"), "--tx-timeout-secs", "2", "--origin", "https://app.example",
                    doors=("http",))
    yield s
    assert s.stop() == 0


@pytest.fixture
def port(served):
    p = served.ports()["http"]
    yield p
    query(p, "MATCH (n) DETACH DELETE n")


def _code(body) -> str:
    return body["errors"][-1]["code"]


def test_discovery_needs_no_credential(port):
    status, body, headers = call(port, "GET", "/", auth=None)
    assert status == 200 and headers["content-type"] == "application/json"
    assert body["neo4j_version"].startswith("5.") and body["neo4j_edition"] == "community"
    assert body["query"] == f"http://127.0.0.1:{port}/db/{{databaseName}}/query/v2"


def test_a_statement_in_plain_json(port):
    status, body, _ = query(port, "CREATE (a:Person {name: $n, born: 1815})-[r:WROTE {y: 1843}]->(b:Note) "
                                  "RETURN a, r, a.name AS name, [1, 2.5, null] AS l", {"n": "Ada"},
                            extra={"includeCounters": True})
    assert status == 202
    assert body["data"]["fields"] == ["a", "r", "name", "l"]
    (a, r, name, lst), = body["data"]["values"]
    assert a["labels"] == ["Person"] and a["properties"] == {"name": "Ada", "born": 1815}
    assert r["type"] == "WROTE" and r["startNodeElementId"] == a["elementId"] and r["properties"] == {"y": 1843}
    assert name == "Ada" and lst == [1, 2.5, None]
    assert list(body["counters"]) == COUNTERS
    assert body["counters"]["nodesCreated"] == 2 and body["counters"]["containsUpdates"] is True
    assert body["counters"]["relationshipsCreated"] == 1 and body["counters"]["propertiesSet"] == 3
    assert body["queryType"] == "w" and len(body["bookmarks"]) == 1
    status, body, _ = query(port, "RETURN 1 AS n")
    assert "counters" not in body and body["queryType"] == "r"


def test_typed_json_both_ways(port):
    params = {"i": {"$type": "Integer", "_value": "9223372036854775807"},
              "f": {"$type": "Float", "_value": "NaN"},
              "d": {"$type": "Date", "_value": "2015-03-26"},
              "z": {"$type": "ZonedDateTime", "_value": "2015-11-21T21:40:32.142+01:00[Europe/Berlin]"},
              "p": {"$type": "Point", "_value": "SRID=7203;POINT (1.2 3.4)"},
              "b": {"$type": "Base64", "_value": "AAH/"},
              "m": {"$type": "Map", "_value": {"k": {"$type": "List", "_value": [{"$type": "Null", "_value": None}]}}}}
    status, body, headers = query(port, "RETURN $i AS i, $f AS f, $d + duration('P1D') AS d, $z.hour AS h, "
                                        "$p.x AS x, $b AS b, $m AS m, duration('PT1H') AS du", params,
                                  typed=True)
    assert status == 202 and headers["content-type"] == TYPED
    assert body["data"]["values"] == [[
        {"$type": "Integer", "_value": "9223372036854775807"}, {"$type": "Float", "_value": "NaN"},
        {"$type": "Date", "_value": "2015-03-27"}, {"$type": "Integer", "_value": "21"},
        {"$type": "Float", "_value": "1.2"}, {"$type": "Base64", "_value": "AAH/"},
        {"$type": "Map", "_value": {"k": {"$type": "List", "_value": [{"$type": "Null", "_value": None}]}}},
        {"$type": "Duration", "_value": "PT1H"}]]
    # the Content-Type says how parameters are written, Accept how the answer is
    status, body, headers = call(port, "POST", Q, {"statement": "RETURN $x AS x", "parameters": {"x": 5}},
                                 headers={"Content-Type": "application/json", "Accept": TYPED})
    assert headers["content-type"] == TYPED and body["data"]["values"] == [[{"$type": "Integer", "_value": "5"}]]


def test_a_missing_index_is_a_notification(port):
    status, body, _ = query(port, "MATCH (p:Person {name: 'x'}) RETURN p")
    assert status == 202
    (note,) = body["notifications"]
    assert note["category"] == "PERFORMANCE" and note["severity"] == "INFORMATION" and "code" in note


@pytest.mark.parametrize("body, status, code", [
    ({"statement": "THIS IS NOT CYPHER"}, 400, "Neo.ClientError.Statement.SyntaxError"),
    ({"statement": "RETURN $missing"}, 400, "Neo.ClientError.Statement.ParameterMissing"),
    ({"statement": "RETURN 1 / 0"}, 400, "Neo.ClientError.Statement.ArithmeticError"),
    ({"statement": 7}, 400, "Neo.ClientError.Request.Invalid"),
    ({"statement": "RETURN 1", "parameters": [1]}, 400, "Neo.ClientError.Request.Invalid"),
    ({"statement": "RETURN 1", "accessMode": "Sideways"}, 400, "Neo.ClientError.Request.Invalid"),
    ({"nothing": 1}, 400, "Neo.ClientError.Request.Invalid"),
    ({"statement": "CREATE (:W)", "accessMode": "Read"}, 400, "Neo.ClientError.Statement.AccessMode"),
])
def test_bad_requests_get_typed_errors(port, body, status, code):
    got, reply, _ = call(port, "POST", Q, body)
    assert (got, _code(reply)) == (status, code)
    assert reply["errors"][-1]["message"]
    assert query(port, "RETURN 1 AS n")[1]["data"]["values"] == [[1]]


def test_framing_credential_and_routing_errors(port):
    assert call(port, "POST", Q, raw=b"{not json")[0:2] == (
        400, {"errors": [{"code": "Neo.ClientError.Request.InvalidFormat",
                          "message": "protocol error: the body is not JSON: Expecting property name enclosed in "
                                     "double quotes at line 1 column 2"}]})
    status, body, headers = call(port, "POST", Q, {"statement": "RETURN 1"}, auth=None)
    assert (status, _code(body)) == (401, "Neo.ClientError.Security.Unauthorized")
    assert body["errors"][0]["message"] == "No authentication header supplied."
    assert headers["www-authenticate"].startswith("Basic")
    status, body, _ = call(port, "POST", Q, {"statement": "RETURN 1"}, auth=auth_header("neo4j", "wrong"))
    assert (status, body["errors"][0]["message"]) == (401, "Invalid username or password.")
    status, body, _ = call(port, "POST", "/db/other/query/v2", {"statement": "RETURN 1"})
    assert (status, _code(body)) == (404, "Neo.ClientError.Database.DatabaseNotFound")
    status, body, _ = call(port, "POST", "/db/neo4j/query/v3", {"statement": "RETURN 1"})
    assert (status, _code(body)) == (404, "Neo.ClientError.Request.Invalid")
    status, body, _ = call(port, "PUT", Q, {"statement": "RETURN 1"})
    assert (status, _code(body)) == (405, "Neo.ClientError.Request.Invalid")
    status, body, _ = call(port, "POST", Q, raw=b"statement=RETURN+1",
                           headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert (status, _code(body)) == (400, "Neo.ClientError.Request.InvalidFormat")
    status, body, _ = call(port, "POST", Q, {"statement": "RETURN 1"}, auth=f"Bearer {'query-test-secret'}")
    assert status == 202


def _begin(port, body=None):
    status, reply, _ = call(port, "POST", f"{Q}/tx", body or {})
    assert status == 202, reply
    return reply


def test_an_explicit_transaction_sees_its_writes_and_nobody_else_does(port):
    opened = _begin(port, {"statement": "CREATE (:Pending {v: 1})"})
    tx = opened["transaction"]["id"]
    assert isinstance(tx, str) and opened["transaction"]["expires"].endswith("Z")
    assert opened["data"]["fields"] == []
    assert query(port, "MATCH (p:Pending) RETURN count(p) AS n")[1]["data"]["values"] == [[0]]
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}", {"statement": "MATCH (p:Pending) SET p.v = 2 RETURN p.v"})
    assert status == 202 and body["data"]["values"] == [[2]] and body["transaction"]["id"] == tx
    # a second writer gets a retryable error at once, not a wait
    status, body, _ = query(port, "CREATE (:Other)")
    assert (status, _code(body)) == (409, "Neo.TransientError.Transaction.LockAcquisitionTimeout")
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}/commit")
    assert status == 202 and len(body["bookmarks"]) == 1 and "transaction" not in body
    assert query(port, "MATCH (p:Pending) RETURN p.v")[1]["data"]["values"] == [[2]]
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}/commit")
    assert (status, _code(body)) == (404, "Neo.ClientError.Request.Invalid")
    assert query(port, "CREATE (:Other)")[0] == 202


def test_rollback_and_a_failed_statement_leave_nothing(port):
    tx = _begin(port)["transaction"]["id"]
    call(port, "POST", f"{Q}/tx/{tx}", {"statement": "CREATE (:Gone)"})
    assert call(port, "DELETE", f"{Q}/tx/{tx}")[0] == 202
    tx = _begin(port, {"statement": "CREATE (:AlsoGone)"})["transaction"]["id"]
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}", {"statement": "RETURN 1 / 0"})
    assert status == 400 and "transaction" not in body  # the failure rolled the transaction back
    assert call(port, "POST", f"{Q}/tx/{tx}/commit")[0] == 404
    assert query(port, "MATCH (n) RETURN count(n)")[1]["data"]["values"] == [[0]]
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}/commit", {"statement": "RETURN 1"})
    assert status == 404


def test_commit_with_a_last_statement_and_a_keep_alive(port):
    tx = _begin(port)["transaction"]["id"]
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}", {})  # no statement: only keeps it open
    assert status == 202 and body == {"transaction": body["transaction"]}
    status, body, _ = call(port, "POST", f"{Q}/tx/{tx}/commit",
                           {"statement": "CREATE (n:Last) RETURN count(n) AS c", "includeCounters": True})
    assert status == 202 and body["data"]["values"] == [[1]] and body["counters"]["nodesCreated"] == 1
    assert query(port, "MATCH (n:Last) RETURN count(n)")[1]["data"]["values"] == [[1]]


def test_an_idle_transaction_expires_rolls_back_and_frees_the_writer(port):
    tx = _begin(port, {"statement": "CREATE (:Abandoned)"})["transaction"]["id"]
    assert query(port, "CREATE (:Blocked)")[0] == 409
    deadline = time.monotonic() + 15
    while query(port, "CREATE (:Later)")[0] == 409:
        assert time.monotonic() < deadline, "the expired transaction kept the write role"
        time.sleep(0.2)
    assert call(port, "POST", f"{Q}/tx/{tx}", {"statement": "RETURN 1"})[0] == 404
    values = query(port, "MATCH (n) RETURN labels(n)[0] ORDER BY labels(n)[0]")[1]["data"]["values"]
    assert values == [["Later"]]


def test_cors_for_listed_origins_only(port):
    ok = {"Origin": "https://app.example"}
    status, body, headers = query(port, "RETURN 1 AS n", headers=ok)
    assert status == 202 and headers["access-control-allow-origin"] == "https://app.example"
    status, body, headers = call(port, "OPTIONS", Q, auth=None,
                                 headers={**ok, "Access-Control-Request-Method": "POST"})
    assert status == 204 and "POST" in headers["access-control-allow-methods"]
    assert "Authorization" in headers["access-control-allow-headers"]
    for other in ("https://evil.example", "http://127.0.0.1:8000", "null"):
        status, body, headers = query(port, "RETURN 1 AS n", headers={"Origin": other})
        assert (status, _code(body)) == (403, "Neo.ClientError.Request.Invalid")
        assert "access-control-allow-origin" not in headers
    status, body, headers = call(port, "OPTIONS", Q, auth=None, headers={"Origin": "https://evil.example"})
    assert status == 403 and "access-control-allow-origin" not in headers


def test_read_only_applies_to_every_door(tmp_path):
    import relate

    from tests.net.query_server import PASSWORD, USER
    from tests.net.server import basic, post
    with relate.connect(str(tmp_path / "ro.rl")) as conn:
        conn.execute("CREATE (:Seed)")
    s = start_query(tmp_path, "--read-only", database=str(tmp_path / "ro.rl"))
    try:
        ports = s.ports()
        status, body, _ = query(ports["http"], "CREATE (:W)")
        assert (status, _code(body)) == (400, "Neo.ClientError.Statement.AccessMode")
        tx = _begin(ports["http"])["transaction"]["id"]
        status, body, _ = call(ports["http"], "POST", f"{Q}/tx/{tx}", {"statement": "CREATE (:W)"})
        assert (status, _code(body)) == (400, "Neo.ClientError.Statement.AccessMode")
        neo4j = pytest.importorskip("neo4j")
        with neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{ports['bolt']}", auth=(USER, PASSWORD)) as d:
            with pytest.raises(neo4j.exceptions.ClientError) as err:
                d.execute_query("CREATE (:W)")
            assert err.value.code == "Neo.ClientError.Statement.AccessMode"
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                   "Authorization": basic(USER, PASSWORD)}
        tools = post(ports["mcp"], b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}', headers).json()
        assert [t["name"] for t in tools["result"]["tools"]] == ["read_cypher", "get_schema"]
        assert query(ports["http"], "MATCH (n) RETURN count(n)")[1]["data"]["values"] == [[1]]
    finally:
        s.stop()
