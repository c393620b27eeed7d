"""`relate serve --bolt` on the wire, where drivers never go: version negotiation, Bolt 5.0's
auth in HELLO, chunk boundaries and keep-alives, pipelined failures, runtime errors at PULL,
protocol violations, and the WebSocket transport on the same port."""
from __future__ import annotations

import pytest

from relate.protocols.bolt_packstream import Structure, pack, unpack
from tests.net.bolt_server import HANDSHAKE, PASSWORD, USER, RawBolt, start_bolt

HELLO = pack(Structure(0x01, ({"user_agent": "wire-test"},)))
LOGON = pack(Structure(0x6A, ({"scheme": "basic", "principal": USER, "credentials": PASSWORD},)))
RESET = pack(Structure(0x0F, ()))
PULL_ALL = pack(Structure(0x3F, ({"n": -1},)))


def run(query: str, params: dict | None = None) -> bytes:
    return pack(Structure(0x10, (query, params or {}, {})))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start_bolt(tmp_path_factory.mktemp("wire"))
    yield s
    assert s.stop() == 0


def _ready(port: int) -> RawBolt:
    c = RawBolt(port)
    c.send(HELLO)
    c.send(LOGON)
    assert [unpack(c.recv()).tag for _ in range(2)] == [0x70, 0x70]
    return c


def _proposals(*slots: bytes) -> bytes:
    return b"\x60\x60\xB0\x17" + b"".join(slots) + b"\x00\x00\x00\x00" * (4 - len(slots))


@pytest.mark.parametrize("slots, answer", [
    ((b"\x00\x00\x01\xFF", b"\x00\x08\x08\x05", b"\x00\x02\x04\x04", b"\x00\x00\x00\x03"), b"\x00\x00\x04\x05"),
    ((b"\x00\x00\x00\x05",), b"\x00\x00\x00\x05"),
    ((b"\x00\x00\x02\x05",), b"\x00\x00\x02\x05"),
    ((b"\x00\x00\x05\x05",), b"\x00\x00\x00\x00"),  # 5.5 is never negotiated
    ((b"\x00\x02\x04\x04", b"\x00\x00\x00\x03"), b"\x00\x00\x00\x00"),
    ((b"\x00\x00\x01\xFF",), b"\x00\x00\x00\x00"),  # the manifest proposal alone
])
def test_version_negotiation(server, slots, answer):
    c = RawBolt(server.port, _proposals(*slots))
    assert c.version == answer
    if answer == b"\x00\x00\x00\x00":
        assert c.recv() is None  # and closed
    c.close()


def test_bolt_5_0_authenticates_in_hello(server):
    c = RawBolt(server.port, _proposals(b"\x00\x00\x00\x05"))
    c.send(pack(Structure(0x01, ({"user_agent": "x", "scheme": "basic", "principal": "u",
                                  "credentials": PASSWORD},))))
    meta = unpack(c.recv()).fields[0]
    assert meta["server"].startswith("Neo4j/") and meta["connection_id"].startswith("bolt-")
    c.send(run("RETURN 5 AS n"))
    c.send(PULL_ALL)
    assert unpack(c.recv()).fields[0]["fields"] == ["n"]
    assert unpack(c.recv()) == Structure(0x71, ([5],))
    c.close()
    bad = RawBolt(server.port, _proposals(b"\x00\x00\x00\x05"))
    bad.send(pack(Structure(0x01, ({"scheme": "basic", "principal": "u", "credentials": "no"},))))
    reply = unpack(bad.recv())
    assert reply.tag == 0x7F and reply.fields[0]["code"] == "Neo.ClientError.Security.Unauthorized"
    assert bad.recv() is None
    bad.close()


def test_messages_split_in_one_byte_chunks_and_keep_alives_between(server):
    c = _ready(server.port)
    message = run("RETURN 'chunked' AS s")
    framed = b"\x00\x00" + b"".join(b"\x00\x01" + bytes([b]) for b in message) + b"\x00\x00" + b"\x00\x00"
    c.send_raw(framed)
    c.send(PULL_ALL)
    assert unpack(c.recv()).tag == 0x70
    assert unpack(c.recv()) == Structure(0x71, (["chunked"],))
    assert unpack(c.recv()).fields[0]["type"] == "r"
    c.close()


def test_a_failure_ignores_the_pipeline_until_reset(server):
    c = _ready(server.port)
    for m in (run("NOT CYPHER"), PULL_ALL, run("RETURN 1"), RESET, run("RETURN 2 AS n"), PULL_ALL):
        c.send(m)
    replies = [unpack(c.recv()) for _ in range(7)]
    assert [r.tag for r in replies] == [0x7F, 0x7E, 0x7E, 0x70, 0x70, 0x71, 0x70]
    assert replies[0].fields[0]["code"] == "Neo.ClientError.Statement.SyntaxError"
    assert replies[5].fields == ([2],)
    c.close()


def test_a_runtime_error_fails_the_pull_not_the_run(server):
    c = _ready(server.port)
    c.send(run("UNWIND [1, 0] AS d RETURN 10 / d AS q"))
    c.send(PULL_ALL)
    assert unpack(c.recv()).fields[0]["fields"] == ["q"]
    reply = unpack(c.recv())
    assert reply.tag == 0x7F and reply.fields[0]["code"] == "Neo.ClientError.Statement.ArithmeticError"
    c.close()


@pytest.mark.parametrize("message", [
    pack(Structure(0x3F, ({"n": 10},))),           # PULL with nothing to pull
    pack(Structure(0x12, ())),                     # COMMIT outside a transaction
    pack(Structure(0x01, ({},))),                  # a second HELLO
    pack(Structure(0x10, (1, {}, {}))),            # RUN whose query is not a string
    pack(Structure(0x55, ())),                     # no such message
    pack([1, 2, 3]),                               # not a structure
    b"\xC7",                                       # a reserved marker
    b"\xB1\x10\xD0\x05ab",                         # a string running past the message
])
def test_protocol_violations_fail_and_close(server, message):
    c = _ready(server.port)
    c.send(message)
    reply = unpack(c.recv())
    assert reply.tag == 0x7F and reply.fields[0]["code"].startswith("Neo.ClientError.Request.")
    assert c.recv() is None
    c.close()
    ok = _ready(server.port)  # the server goes on
    ok.close()


def test_route_answers_a_one_server_table(server):
    c = _ready(server.port)
    c.send(pack(Structure(0x66, ({"address": "example:7687"}, [], {}))))
    rt = unpack(c.recv()).fields[0]["rt"]
    assert rt["db"] == "neo4j" and {s["role"] for s in rt["servers"]} == {"ROUTE", "READ", "WRITE"}
    assert all(s["addresses"] == ["example:7687"] for s in rt["servers"])
    c.close()


def test_bolt_over_websocket_on_the_same_port(server):
    from websockets.sync.client import connect
    with connect(f"ws://127.0.0.1:{server.port}", open_timeout=10) as ws:
        ws.send(HANDSHAKE)
        assert ws.recv(timeout=10) == b"\x00\x00\x04\x05"
        frame = b"".join(len(m).to_bytes(2, "big") + m + b"\x00\x00"
                         for m in (HELLO, LOGON, run("RETURN 'ws' AS t"), PULL_ALL))
        ws.send(frame)
        from relate.protocols.bolt_framing import Dechunker
        frames, messages = Dechunker(), []
        while len(messages) < 5:
            messages += frames.feed(ws.recv(timeout=10))
        replies = [unpack(m) for m in messages]
        assert [r.tag for r in replies] == [0x70, 0x70, 0x70, 0x71, 0x70]
        assert replies[3].fields == (["ws"],)


def test_a_websocket_from_a_page_needs_its_origin_listed(tmp_path):
    # any page a browser shows may open a WebSocket to loopback: only the listed ones may connect
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    s = start_bolt(tmp_path, "--origin", "http://127.0.0.1:8080")
    try:
        url = f"ws://127.0.0.1:{s.port}"
        for origin in ("http://evil.example", "http://127.0.0.1:9999", "null"):
            with pytest.raises(InvalidStatus) as refused:
                connect(url, origin=origin, open_timeout=10)
            assert refused.value.response.status_code == 403
            assert b"--origin" in refused.value.response.body
        for origin in ("http://127.0.0.1:8080", "HTTP://127.0.0.1:8080/", None):
            with connect(url, origin=origin, open_timeout=10) as ws:
                ws.send(HANDSHAKE)
                assert ws.recv(timeout=10) == b"\x00\x00\x04\x05"
    finally:
        assert s.stop() == 0
    # and without --origin no page may connect
    s = start_bolt(tmp_path)
    try:
        with pytest.raises(InvalidStatus):
            connect(f"ws://127.0.0.1:{s.port}", origin="http://127.0.0.1:8080", open_timeout=10)
    finally:
        assert s.stop() == 0
