"""Requests whose framing or origin is ambiguous, as a request-smuggling or origin-confusion
attacker sends them: refused with 400 and the connection closed, and the server keeps serving.
(Issue 14.)"""
from __future__ import annotations

import pytest

from tests.net.server import closed_without_reply, connect, post, read_reply, rpc, start

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = start(["--mcp", "0", "--database", ":memory:", "--auth", "none"], tmp_path_factory.mktemp("framing"))
    yield s
    assert s.stop() == 0


def _send(port: int, head: bytes, body: bytes):
    with connect(port) as c:
        c.sendall(head + body)
        reply = read_reply(c)
        assert reply is not None
        return reply, closed_without_reply(c, 5)


def test_content_length_with_transfer_encoding_is_refused_and_closed(server):
    body = rpc(1, "ping")
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    head = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n" % len(chunked))
    reply, closed = _send(server.port, head, chunked)
    assert reply.status == 400 and closed
    assert reply.json() == {"error": "malformed request: both Content-Length and Transfer-Encoding are set"}
    assert post(server.port, rpc(2, "ping"), JSON).json() == {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_a_repeated_origin_is_refused_and_closed(server):
    body = rpc(1, "ping")
    head = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Origin: http://127.0.0.1\r\nOrigin: http://localhost\r\nContent-Length: %d\r\n\r\n" % len(body))
    reply, closed = _send(server.port, head, body)
    assert reply.status == 400 and closed
    assert reply.json() == {"error": "malformed request: more than one Origin header"}
    assert post(server.port, rpc(2, "ping"), JSON).json() == {"jsonrpc": "2.0", "id": 2, "result": {}}


@pytest.mark.parametrize("raw, message", [
    (b"POST /mcp HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n", "malformed request: illegal header line"),
    (b"GARBAGE\r\n\r\n", "malformed request: illegal request line"),
    (b"POST /mcp HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n", "malformed request: illegal header line"),
    (b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", "malformed request: bad Content-Length"),
])
def test_a_400_says_what_was_wrong_without_the_library_repr(server, raw, message):
    with connect(server.port) as c:
        c.sendall(raw)
        reply = read_reply(c)
    assert reply.status == 400 and reply.json() == {"error": message}
    assert b"bytearray" not in reply.body and b"b'" not in reply.body


@pytest.mark.parametrize("pad, status", [(60_000, 200), (70_000, 431), (200_000, 431)])
def test_the_header_cap_is_64_kib_however_the_bytes_arrive(server, pad, status):
    body = rpc(1, "ping")
    raw = (b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Pad: " + b"a" * pad
           + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    with connect(server.port) as c:
        c.sendall(raw)
        reply = read_reply(c)
    assert reply.status == status
    if status == 431:
        assert reply.json() == {"error": "malformed request: header block over 64 KiB"}
    assert post(server.port, rpc(2, "ping"), JSON).status == 200
