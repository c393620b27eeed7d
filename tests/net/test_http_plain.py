"""Plain MCP POSTs are read without h11 (`net/http_plain.py`): what a client receives is byte for
byte what h11's path sends, for answers, refusals, pipelined and dripped requests, and a connection
that turns unusual half-way goes on under h11."""
from __future__ import annotations

import base64
import json
import re
import socket
import threading

import h11
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import relate
from relate.net.auth import Credential
from relate.net.http import HttpLimits, McpHttp
from relate.net.http_plain import head_end, plain_head
from relate.net.mcp_http import Engine, answer
from relate.protocols.mcp import McpServer

AUTH = b"Basic " + base64.b64encode(b"u:pw")


def request(body: bytes | str, *, extra: bytes = b"", auth: bytes = AUTH, method: bytes = b"POST",
            ctype: bytes = b"application/json") -> bytes:
    body = body.encode() if isinstance(body, str) else body
    return (method + b" /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + ctype + b"\r\nAuthorization: " + auth
            + b"\r\n" + extra + b"Content-Length: %d\r\n\r\n" % len(body) + body)


PING = request('{"jsonrpc":"2.0","id":1,"method":"ping"}')
BIG = request('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"' + "a" * (2 << 20) + '"}}')


@pytest.fixture(scope="module")
def server():
    db = relate.connect(":memory:")
    core = McpServer(db)
    engine = Engine()
    yield core, engine
    db.close()


def exchange(server, chunks: list[bytes], *, plain: bool = True, replies: int = 1, hang_up: bool = False) -> bytes:
    """Send `chunks` on one connection (one send each; then half-close with `hang_up`) and read until
    `replies` responses have come or the server closes; statement timings are zeroed."""
    core, engine = server
    http = McpHttp(lambda line, watch, headers: answer(core, engine, line, watch, headers), Credential("u", "pw"),
                   HttpLimits(auth_delay=0.0), threading.Event(), headers=True)
    http.plain = plain
    a, b = socket.socketpair()
    t = threading.Thread(target=http.serve_connection, args=(b,))
    t.start()
    for chunk in chunks:
        a.sendall(chunk)
    if hang_up:
        a.shutdown(socket.SHUT_WR)
    a.settimeout(20)
    out = b""
    while _complete(out) < replies:
        data = a.recv(65536)
        if not data:
            break
        out += data
    a.close()
    t.join(20)
    if b'_ms\\":' not in out:
        return out
    # a statement's timings and plan cache use (and so its reply's length) differ from run to run
    out = re.sub(rb'(_ms\\":[0-9.e-]+|plan_cache\\":\\"[a-z-]+)', b"_", out)
    return re.sub(rb"Content-Length: [0-9]+", b"Content-Length: _", out)


def _complete(data: bytes) -> int:
    count = 0
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0:
            return count
        found = re.search(rb"Content-Length: ([0-9]+)", data[:end])
        length = int(found.group(1)) if found else 0  # 100 Continue has no body
        if len(data) < end + 4 + length:
            return count
        count += 1
        data = data[end + 4 + length:]


CASES = [  # (what the client sends, how many replies it waits for, whether it then half-closes)
    ([PING], 1, False),
    ([request('{"jsonrpc":"2.0","id":"x","method":"tools/list"}')], 1, False),
    ([request('{"jsonrpc":"2.0","method":"notifications/initialized"}')], 1, False),
    ([request('{"jsonrpc":"2.0","id":1,"method":"nope"}')], 1, False),
    ([request('{"jsonrpc":"2.0","id":1,"method"')], 1, False),  # not JSON: 400 with id null
    ([request(b'\xff\xfe')], 1, False),  # not UTF-8
    ([request('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_cypher","arguments":'
              '{"statement":"RETURN $x AS x","parameters":{"x":[1,2.5,"\\u00e9"]}}}}')], 1, False),
    ([request("{}", auth=b"Basic " + base64.b64encode(b"u:wrong"))], 1, False),  # 401
    ([request("{}", ctype=b"text/plain")], 1, False),  # 415
    ([request("{}", extra=b"Origin: https://evil.example\r\n")], 1, False),  # 403
    ([request("{}", method=b"GET")], 1, False),  # 405
    ([request("{}", extra=b"Connection: close\r\n")], 1, False),
    ([request("{}", extra=b"Expect: 100-continue\r\n")], 2, False),
    ([PING[:-5], PING[-5:]], 1, False),  # the body in two sends
    ([bytes([c]) for c in PING], 1, False),  # dripped byte by byte
    ([PING + PING + PING], 3, False),  # pipelined
    ([PING, request("{}", method=b"GET"), PING], 3, False),  # unusual half-way: h11 from there on
    ([PING, PING[:40]], 2, True),  # a head cut short by the client's close
    ([PING[:-3]], 1, True),  # a body cut short
    ([request('{"jsonrpc":"2.0","id":9,"method":"ping"}', extra=b"MCP-Protocol-Version: 1999-01-01\r\n")], 1, False),
    ([b"POST /mcp HTTP/1.1\r\nHost: x\r\n" + b"X-Big: " + b"a" * 70000 + b"\r\n\r\n"], 1, False),  # 431
    ([BIG[i:i + 65536] for i in range(0, len(BIG), 65536)], 1, False),  # a 2 MiB body in many sends
]


@pytest.mark.parametrize("chunks, replies, hang_up", CASES, ids=range(len(CASES)))
def test_plain_requests_get_the_bytes_h11s_path_sends(server, chunks, replies, hang_up):
    expected = exchange(server, chunks, plain=False, replies=replies, hang_up=hang_up)
    assert expected.startswith(b"HTTP/1.1 ")
    assert exchange(server, chunks, plain=True, replies=replies, hang_up=hang_up) == expected


def test_pipelined_requests_are_answered_in_order(server):
    bodies = [f'{{"jsonrpc":"2.0","id":{i},"method":"ping"}}' for i in range(5)]
    out = exchange(server, [b"".join(request(body) for body in bodies)], replies=5)
    assert [json.loads(part.split(b"\r\n\r\n", 1)[1])["id"] for part in out.split(b"HTTP/1.1 ")[1:]] == list(range(5))


def test_what_the_plain_reader_leaves_to_h11():
    def head(text: bytes):
        return plain_head(text, head_end(text))
    ok = b"POST /mcp HTTP/1.1\r\nHost: h\r\nContent-Type:  application/json \r\nContent-Length: 2\r\n\r\n"
    assert head(ok) == (b"/mcp", [(b"host", b"h"), (b"content-type", b"application/json"),
                                  (b"content-length", b"2")], 2)
    for bad in [
        ok.replace(b"POST", b"GET"),
        ok.replace(b"HTTP/1.1", b"HTTP/1.0"),
        ok.replace(b"Host: h\r\n", b""),
        ok.replace(b"Host: h\r\n", b"Host: h\r\nHost: i\r\n"),
        ok.replace(b"Content-Length: 2\r\n", b""),
        ok.replace(b"Content-Length: 2\r\n", b"Content-Length: 2\r\nContent-Length: 2\r\n"),
        ok.replace(b"Content-Length: 2", b"Content-Length: +2"),
        ok.replace(b"Host: h\r\n", b"Host: h\r\nTransfer-Encoding: chunked\r\n"),
        ok.replace(b"Host: h\r\n", b"Host: h\r\nConnection: keep-alive\r\n"),
        ok.replace(b"Host: h\r\n", b"Host: h\r\nExpect: 100-continue\r\n"),
        ok.replace(b"Host: h\r\n", b"Host: h\r\n folded\r\n"),
        ok.replace(b"Host: h\r\n", b"Host: h\x00\r\n"),
        ok.replace(b"Host: h\r\n", b"Bad Name: h\r\n"),
        ok.replace(b"\r\n", b"\n"),
    ]:
        assert head(bad) is None, bad


_NAMES = st.sampled_from([b"Host", b"host", b"Content-Length", b"Content-Type", b"Origin", b"X-A", b"Expect",
                          b"Transfer-Encoding", b"Connection", b"Bad Name", b"", b"Authorization", b"MCP-Name"])
_VALUES = (st.sampled_from([b"2", b"02", b" 2 ", b"application/json", b"a b", b"\t x", b"\xe9", b""])
           | st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=8).map(str.encode)
           | st.binary(max_size=8))


_LINE = st.tuples(_NAMES, st.sampled_from([b":", b": ", b":\t", b" :"]), _VALUES)
_NEEDED = [(b"Host", b": ", b"h"), (b"Content-Length", b": ", b"2")]


@settings(max_examples=500, deadline=None)
@given(st.lists(_LINE, max_size=4).flatmap(lambda extra: st.permutations(_NEEDED + extra)),
       st.sampled_from([b"POST /mcp HTTP/1.1", b"POST /a?b=%20 HTTP/1.1", b"POST  /mcp HTTP/1.1",
                        b"POST /mcp HTTP/1.0", b"POST /m\x7fcp HTTP/1.1"]),
       st.sampled_from([b"\r\n", b"\r\n", b"\n"]))
def test_a_head_the_plain_reader_takes_is_the_head_h11_reads(lines, request_line, eol):
    head = request_line + eol + b"".join(n + sep + v + eol for n, sep, v in lines) + eol
    end = head_end(head)
    got = plain_head(head, end) if end >= 0 else None
    if got is None:
        return
    conn = h11.Connection(h11.SERVER)
    conn.receive_data(head)
    event = conn.next_event()  # raises if h11 would refuse it
    assert isinstance(event, h11.Request) and event.method == b"POST" and event.http_version == b"1.1"
    assert (event.target, list(event.headers)) == (got[0], got[1])
    assert end == len(head)
