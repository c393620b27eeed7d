"""A statement that runs for hours stops when nobody wants its answer any more, on a real
`relate serve --bolt --http` process: a Bolt RESET, a Bolt connection dropped, a Query API
client hanging up, and the server told to stop.  Each time the engine is free at once for the
next client (which would otherwise wait for hours) and the statement's writes are gone."""
from __future__ import annotations

import json
import socket
import threading

import pytest

from relate.protocols.bolt_packstream import Structure, pack, unpack
from tests.net import bolt_server
from tests.net.bolt_server import RawBolt, start_bolt
from tests.net.query_server import PASSWORD, USER, auth_header, call, start_query

# 10^10 rows: hours of counting, so only a cancel ends it within a test's time
FOREVER = "UNWIND range(1, 100000) AS x UNWIND range(1, 100000) AS y RETURN count(*) AS n"
WRITE_FOREVER = "CREATE (:Doomed) WITH 1 AS one " + FOREVER
SUCCESS, RECORD, IGNORED, FAILURE = 0x70, 0x71, 0x7E, 0x7F
RESET = pack(Structure(0x0F, ()))
WAIT = 30.0  # seconds a reply may take on a busy machine; the statements run for hours


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start_query(tmp_path_factory.mktemp("cancel"), doors=("http", "bolt"))
    try:
        yield s
        assert s.stop() == 0
    finally:
        s.kill()  # a statement left counting would hold the machine for hours


@pytest.fixture(scope="module")
def bolt_port(server):
    return server.ports()["bolt"]


def _client(port: int, password: str = PASSWORD) -> RawBolt:
    raw = RawBolt(port, timeout=WAIT)
    raw.send(pack(Structure(0x01, ({"user_agent": "cancel-test"},))))
    raw.send(pack(Structure(0x6A, ({"scheme": "basic", "principal": USER, "credentials": password},))))
    assert [unpack(raw.recv()).tag for _ in range(2)] == [SUCCESS, SUCCESS]
    return raw


def _run(raw: RawBolt, query: str) -> None:
    raw.send(pack(Structure(0x10, (query, {}, {}))))
    raw.send(pack(Structure(0x3F, ({"n": -1},))))


def _answer(raw: RawBolt) -> list:
    """The replies to one RUN + PULL: the RUN's SUCCESS, then records up to the summary."""
    out = [unpack(raw.recv())]
    while out[-1].tag in (SUCCESS, RECORD) and (len(out) == 1 or out[-1].tag == RECORD):
        out.append(unpack(raw.recv()))
    return out


def _count_doomed(port: int) -> int:
    """`MATCH (:Doomed)` on a new connection: answered only once the engine is free again."""
    raw = _client(port)
    try:
        _run(raw, "MATCH (d:Doomed) RETURN count(d) AS n")
        replies = _answer(raw)
        assert [r.tag for r in replies] == [SUCCESS, RECORD, SUCCESS], replies
        return replies[1].fields[0][0]
    finally:
        raw.close()


def test_reset_stops_the_running_statement_and_the_connection_goes_on(bolt_port):
    raw = _client(bolt_port)
    try:
        raw.send(pack(Structure(0x11, ({},))))  # BEGIN: the write is the transaction's
        _run(raw, WRITE_FOREVER)
        threading.Event().wait(0.5)  # the statement is counting
        raw.send(RESET)
        replies = [unpack(raw.recv()).tag for _ in range(4)]
        # BEGIN and RUN succeeded; the PULL that was running is IGNORED; the RESET succeeds
        assert replies == [SUCCESS, SUCCESS, IGNORED, SUCCESS]
        _run(raw, "RETURN 1 AS n")
        assert [r.tag for r in _answer(raw)] == [SUCCESS, RECORD, SUCCESS]
    finally:
        raw.close()
    assert _count_doomed(bolt_port) == 0


def test_a_dropped_connection_stops_its_statement_and_frees_the_writer(bolt_port):
    raw = _client(bolt_port)
    raw.send(pack(Structure(0x11, ({},))))
    _run(raw, WRITE_FOREVER)
    assert unpack(raw.recv()).tag == SUCCESS  # BEGIN
    threading.Event().wait(0.5)
    raw.close()
    assert _count_doomed(bolt_port) == 0
    other = _client(bolt_port)  # and the write role is free: a write goes through
    try:
        _run(other, "CREATE (:After) RETURN 1 AS one")
        assert [r.tag for r in _answer(other)] == [SUCCESS, RECORD, SUCCESS]
    finally:
        other.close()


def test_a_query_api_client_hanging_up_stops_its_statement(server):
    port = server.ports()["http"]
    body = json.dumps({"statement": WRITE_FOREVER}).encode()
    head = (f"POST /db/neo4j/query/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {auth_header()}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as c:
        c.sendall(head + body)
        threading.Event().wait(0.5)  # the statement is counting
    status, reply, _ = call(port, "POST", "/db/neo4j/query/v2", {"statement": "MATCH (d:Doomed) RETURN count(d) AS n"})
    assert status == 202 and reply["data"]["values"] == [[0]]


def test_stopping_the_server_stops_a_bolt_statement_and_answers_it(tmp_path):
    s = start_bolt(tmp_path)
    raw = _client(s.port, bolt_server.PASSWORD)
    try:
        _run(raw, FOREVER)
        assert unpack(raw.recv()).tag == SUCCESS  # the RUN
        threading.Event().wait(0.5)
        s.proc.terminate()
        failure = unpack(raw.recv())
        assert failure.tag == FAILURE and failure.fields[0]["code"] == "Neo.ClientError.Transaction.Terminated"
        assert "shutting down" in failure.fields[0]["message"]
        assert s.proc.wait(WAIT) == 0
    finally:
        raw.close()
        s.kill()


def test_stopping_the_server_stops_a_query_api_statement_and_answers_it(tmp_path):
    s = start_query(tmp_path, doors=("http",))
    replies: list = []
    try:
        asking = threading.Thread(target=lambda: replies.append(
            call(s.port, "POST", "/db/neo4j/query/v2", {"statement": FOREVER})))
        asking.start()
        threading.Event().wait(0.5)  # the statement is counting
        s.proc.terminate()
        asking.join(WAIT)
        assert s.proc.wait(WAIT) == 0
    finally:
        s.kill()
    status, body, _ = replies[0]
    assert status == 400 and body["errors"][0]["code"] == "Neo.ClientError.Transaction.Terminated"
    assert "shutting down" in body["errors"][0]["message"]
