"""Idempotency keys over streamable HTTP, where calls overlap: a keyed write sent again while its
first run is still going waits for it and answers -32000 IDEMPOTENCY_KEY_IN_PROGRESS; sent once
more, it gets the first answer back, replayed, and nothing is written twice."""
from __future__ import annotations

import json
import threading
import time

from tests.net.server import basic, post, start, tool_call

HEADERS = {"Content-Type": "application/json", "Authorization": basic("agent", "pw")}
# a write that takes a while: it walks a long range before it creates one node
SLOW = "UNWIND range(1, $n) AS x WITH count(x) AS c CREATE (o:Order {c: c}) RETURN o.c AS c"


def call(port: int, id_: int, **arguments) -> dict:
    reply = post(port, tool_call(id_, "cypher_query", **arguments), HEADERS)
    assert reply.status == 200, reply.body
    return reply.json()


def test_a_resent_write_in_flight_answers_in_progress_then_replays(tmp_path):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "agent:pw", "--tools", "graph"], tmp_path)
    try:
        args = {"query": SLOW, "parameters": {"n": 1_000_000}, "idempotencyKey": "order-7"}
        first: list[dict] = []
        t = threading.Thread(target=lambda: first.append(call(s.port, 1, **args)))
        started = time.monotonic()
        t.start()
        time.sleep(0.3)  # the first call holds the engine now
        second = call(s.port, 2, **args)
        t.join(120)
        assert time.monotonic() - started > 0.3
        assert second["error"]["code"] == -32000, second
        assert second["error"]["data"] == {"subcode": "IDEMPOTENCY_KEY_IN_PROGRESS"}
        body = json.loads(first[0]["result"]["content"][0]["text"])
        assert body["replayed"] is False and body["rows"] == [[1_000_000]]
        third = json.loads(call(s.port, 3, **args)["result"]["content"][0]["text"])
        assert third == {**body, "replayed": True}
        count = call(s.port, 4, query="MATCH (o:Order) RETURN count(o) AS n")
        assert json.loads(count["result"]["content"][0]["text"])["rows"] == [[1]]
    finally:
        assert s.stop() == 0
