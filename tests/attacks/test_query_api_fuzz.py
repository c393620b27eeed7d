"""Fuzzing the HTTP Query API (`relate serve --http`) as a hostile client would: generated
requests (seeded: `RELATE_FUZZ_SEED`, printed on a failure; count `RELATE_FUZZ_QAPI`) with wrong
methods and paths, broken and mistyped JSON, typed parameters that lie about their type, unknown
or stale transaction ids, odd content types and origins, mixed with good writes.

Checked for every request: exactly one response; a failure is a JSON `{"errors": [{code,
message}]}` whose code is a Neo4j code and never an internal error; the server keeps serving
(a control query after every batch) and exits 0 when asked; every acknowledged write is there at
the end and again after a restart on the same store.
"""
from __future__ import annotations

import http.client
import json
import os
import random

from tests.net.query_server import auth_header, start_query

CASES = int(os.environ.get("RELATE_FUZZ_QAPI", "1500"))
SEED = int(os.environ.get("RELATE_FUZZ_SEED", str(random.randrange(1 << 30))))
TYPED = "application/vnd.neo4j.query"
BATCH = 100

_TYPES = ["Null", "Boolean", "Integer", "Float", "String", "Base64", "List", "Map", "Date", "Time", "LocalTime",
          "LocalDateTime", "OffsetDateTime", "ZonedDateTime", "Duration", "Point", "Node", "Path", "Vector", "Nope"]
_VALUES = [None, True, 0, -1, "1", "9223372036854775808", "-9223372036854775809", "NaN", "1e400", "x", "",
           "2015-13-40", "2015-03-26", "25:00", "12:50", "2015-07-04T19:32:24", "P14DT16H12M", "P", "PT-1.5S",
           "SRID=7203;POINT (1 2)", "SRID=9157;POINT (1 2)", "SRID=1;POINT (1 2)", "POINT (a b)", "AAH/", "!!",
           [], [1, "2"], {}, {"a": 1}, "\ud800", 1.5, 2 ** 70]
_STATEMENTS = ["RETURN $p AS p", "RETURN 1 AS n", "MATCH (n) RETURN count(n) AS c", "RETURN 1 +", "RETURN $missing",
               "RETURN 1 / 0", "UNWIND range(1, 3) AS i RETURN i", "CREATE (:Noise {v: $p})", "CALL nope()",
               "MATCH (n:Ack) RETURN n.k", "EXPLAIN MATCH (n) RETURN n", "RETURN '\ud800' AS s", "",
               "CALL { CREATE (:X) } IN TRANSACTIONS", "RETURN " + "[" * 300 + "]" * 300]


def _typed_value(rng: random.Random, depth: int = 0):
    if depth < 3 and rng.random() < 0.2:
        kind = rng.choice(["List", "Map"])
        inner = [_typed_value(rng, depth + 1) for _ in range(rng.randrange(3))]
        return {"$type": kind, "_value": inner if kind == "List" else {f"k{i}": v for i, v in enumerate(inner)}}
    v = {"$type": rng.choice(_TYPES), "_value": rng.choice(_VALUES)}
    if rng.random() < 0.1:
        v.pop(rng.choice(["$type", "_value"]))
    elif rng.random() < 0.05:
        v["extra"] = 1
    return v


def _body(rng: random.Random, typed: bool) -> bytes:
    req: dict = {"statement": rng.choice(_STATEMENTS)}
    if rng.random() < 0.7:
        req["parameters"] = {"p": _typed_value(rng) if typed else rng.choice(_VALUES)}
    for key, choices in (("includeCounters", [True, False, "yes", None, 1]),
                         ("accessMode", ["Read", "Write", "read", "sideways", 3]),
                         ("bookmarks", [["x"], "x", [1], None]), ("statement", [None, 5, ["RETURN 1"], {}])):
        if rng.random() < 0.15:
            req[key] = rng.choice(choices)
    if rng.random() < 0.05:
        req = rng.choice([[], "text", 5, None])  # type: ignore[assignment]
    data = json.dumps(req).encode("utf-8", "surrogatepass")
    r = rng.random()
    if r < 0.08:
        data = data[:rng.randrange(len(data) + 1)]
    elif r < 0.14 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    elif r < 0.16:
        data = b"[" * 5000 + b"]" * 5000
    return data


def _case(rng: random.Random, txs: list[str]):
    """-> (method, path, body, headers)"""
    db = rng.choice(["neo4j"] * 8 + ["system", "other", "", "%6Eeo4j", "..", "neo4j%00"])
    tx = rng.choice(txs + ["nope", "", "%2e%2e", "a" * 300]) if txs else "nope"
    path = rng.choice([f"/db/{db}/query/v2"] * 5 + [f"/db/{db}/query/v2/tx", f"/db/{db}/query/v2/tx/{tx}",
                      f"/db/{db}/query/v2/tx/{tx}/commit", "/", "/db", f"/db/{db}/query/v2/tx/{tx}/commit/x",
                      "/db/neo4j/query/v2?x=1", "//db//query/v2", "/db/neo4j/tx"])
    method = rng.choice(["POST"] * 8 + ["GET", "DELETE", "PUT", "PATCH", "OPTIONS"])
    typed = rng.random() < 0.5
    ctype = TYPED if typed else "application/json"
    headers = {"Content-Type": rng.choice([ctype] * 8 + ["text/plain", "application/vnd.neo4j.query.v9",
                                                         "application/json; charset=latin-1"]),
               "Accept": rng.choice([ctype] * 6 + ["*/*", "text/html", f"{TYPED}.v1.1", "application/json, */*"])}
    r = rng.random()
    headers["Authorization"] = auth_header() if r < 0.98 else rng.choice(["Basic !!", "Bearer x", "Basic "])
    if rng.random() < 0.05:
        headers["Origin"] = rng.choice(["https://evil.example", "null", "https://app.example"])
    body = _body(rng, typed) if method in ("POST", "PUT", "PATCH") else b""
    return method, path, body, headers


def _check(status: int, raw: bytes, sent, problems: list) -> None:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        problems.append(("a response body that is not UTF-8", status, raw[:300], sent))
    if status in (200, 202, 204):
        return
    try:
        body = json.loads(raw)
        err = body["errors"][-1]
        assert isinstance(err["code"], str) and err["code"].startswith("Neo.") and isinstance(err["message"], str)
    except Exception:
        problems.append(("not a Neo4j error body", status, raw[:300], sent))
        return
    if status >= 500 or "UnknownError" in err["code"] or err["message"] == "internal error":
        problems.append(("internal error", status, raw[:300], sent))


def _post(conn, path: str, body: dict) -> tuple[int, dict]:
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "Authorization": auth_header()})
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def test_query_api_survives_hostile_requests_and_keeps_every_write(tmp_path):
    rng = random.Random(SEED)
    store = str(tmp_path / "fuzz.rl")
    s = start_query(tmp_path, "--origin", "https://app.example", "--tx-timeout-secs", "5", database=store,
                    doors=("http",))
    problems: list = []
    acked: list[int] = []
    txs: list[str] = []
    try:
        port = s.ports()["http"]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for i in range(CASES):
            if i % 7 == 0:  # a good write, whose acknowledgement the end checks
                status, body = _post(conn, "/db/neo4j/query/v2", {"statement": "CREATE (:Ack {k: $k})",
                                                                  "parameters": {"k": i}})
                if status == 202:
                    acked.append(i)
                elif status != 409:  # 409: a fuzzed transaction holds the write role for now
                    problems.append(("good write refused", status, body, i))
            if i % 50 == 0:
                status, body = _post(conn, "/db/neo4j/query/v2/tx", {})
                if status == 202:
                    txs.append(body["transaction"]["id"])
            method, path, body_bytes, headers = sent = _case(rng, txs)
            try:
                conn.request(method, path, body_bytes or None, headers)
                r = conn.getresponse()
                raw = r.read()
                if r.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            except (http.client.HTTPException, OSError) as e:
                problems.append(("no response", repr(e), sent))
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            _check(r.status, raw, sent, problems)
            if i % BATCH == BATCH - 1:
                status, body = _post(conn, "/db/neo4j/query/v2", {"statement": "RETURN 1 AS n"})
                assert (status, body.get("data", {}).get("values")) == (202, [[1]]), (SEED, body)
        for tx in txs:  # whatever is still open is rolled back: the acked writes stay, the rest goes
            conn.request("DELETE", f"/db/neo4j/query/v2/tx/{tx}", headers={"Authorization": auth_header()})
            conn.getresponse().read()
        status, body = _post(conn, "/db/neo4j/query/v2", {"statement": "MATCH (n:Ack) RETURN n.k ORDER BY n.k"})
        assert [row[0] for row in body["data"]["values"]] == acked, SEED
        conn.close()
    finally:
        assert s.stop() == 0, s.stderr
    assert not problems, f"seed {SEED}: {problems[:5]}"
    assert "Traceback" not in s.stderr, s.stderr
    again = start_query(tmp_path, database=store, doors=("http",))
    try:
        conn = http.client.HTTPConnection("127.0.0.1", again.ports()["http"], timeout=60)
        status, body = _post(conn, "/db/neo4j/query/v2", {"statement": "MATCH (n:Ack) RETURN n.k ORDER BY n.k"})
        assert [row[0] for row in body["data"]["values"]] == acked
        conn.close()
    finally:
        again.stop()
