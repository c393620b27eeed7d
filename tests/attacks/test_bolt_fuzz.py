"""Fuzzing `relate serve --bolt` as a hostile client would: after a valid handshake and login,
generated garbage (random bytes, broken chunk headers, PackStream with reserved markers and
lengths that run past the message, structures with random tags and fields, messages in the wrong
state, huge declared sizes) on a fresh connection each, against one real server process on a
durable store (seed `RELATE_FUZZ_SEED`, count `RELATE_FUZZ_BOLT`; the seed is printed on a
failure).

Checked for every input: the server answers with SUCCESS/RECORD/IGNORED/FAILURE messages only,
every FAILURE carries a client error's Neo4j code (never an internal error's), and once the client
stops sending the server closes the connection after whole messages, never hangs; between
batches a driver on another connection reads and writes; at the end the server exits 0 and every
acknowledged write is still there after a restart.
"""
from __future__ import annotations

import os
import random
import socket
import struct

import pytest

from relate.protocols.bolt_framing import Dechunker
from relate.protocols.bolt_packstream import Structure, pack, unpack
from tests.net.bolt_server import PASSWORD, USER, RawBolt, start_bolt

neo4j = pytest.importorskip("neo4j")

CASES = int(os.environ.get("RELATE_FUZZ_BOLT", "600"))
SEED = int(os.environ.get("RELATE_FUZZ_SEED", random.randrange(2 ** 32)))
HELLO = pack(Structure(0x01, ({"user_agent": "fuzz"},)))
LOGON = pack(Structure(0x6A, ({"scheme": "basic", "principal": USER, "credentials": PASSWORD},)))
TAGS = [0x01, 0x02, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x2F, 0x3F, 0x54, 0x66, 0x6A, 0x6B, 0x4E, 0x44, 0x45, 0x49,
        0x58, 0x59, 0x69, 0x00, 0xFF]
REPLY_TIMEOUT = 20.0


def _value(rng: random.Random, depth: int = 0):
    pick = rng.randrange(12 if depth < 3 else 7)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 127, -129, 2 ** 40, -(2 ** 63), 2 ** 63 - 1])
    if pick == 3:
        return rng.choice([0.5, float("nan"), -1e308])
    if pick == 4:
        return rng.choice(["", "RETURN 1", "MATCH (n) RETURN n", "CREATE (:F)", "n", "\u00e9" * 20, "UNWIND"])
    if pick == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(5)))
    if pick == 6:
        return rng.choice(["RETURN $x", "RETURN 1/0", "x" * 300])
    if pick in (7, 8):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if pick in (9, 10):
        return {rng.choice(["n", "qid", "db", "mode", "scheme", "x"]): _value(rng, depth + 1)
                for _ in range(rng.randrange(4))}
    return Structure(rng.choice(TAGS), tuple(_value(rng, depth + 1) for _ in range(rng.randrange(5))))


def _markers(rng: random.Random) -> bytes:
    """PackStream that does not decode: reserved markers, sizes past the end, broken UTF-8."""
    return rng.choice([
        bytes([rng.choice([0xC4, 0xC5, 0xC6, 0xC7, 0xCF, 0xD3, 0xD7, 0xDB, 0xE0, 0xEF])]),
        b"\xD2\xff\xff\xff\xff", b"\xD6\x7f\xff\xff\xff", b"\xDA\x00\x01\x00\x00", b"\x81\xff",
        b"\xB1\x10" + b"\x91" * rng.randrange(1, 300), b"\xA1\x01\x02", b"\xCE\x00\x00\x10\x00abc",
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))),
    ])


def _chunks(messages: list[bytes]) -> bytes:
    return b"".join(struct.pack(">H", len(m)) + m + b"\x00\x00" for m in messages)


def _case(rng: random.Random) -> bytes:
    """The bytes one connection sends after HELLO and LOGON."""
    kind = rng.randrange(6)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if kind == 1:  # a chunk header promising more than follows, then a close
        return struct.pack(">H", rng.randrange(2, 65535)) + b"\xB1\x10"
    if kind == 2:
        return _chunks([_markers(rng)])
    if kind == 3:
        return _chunks([pack(_value(rng)) for _ in range(rng.randrange(1, 4))])
    if kind == 4:  # well-formed messages in a random order
        msgs = [pack(Structure(rng.choice(TAGS[:13]), tuple(_value(rng, 1) for _ in range(rng.randrange(4)))))
                for _ in range(rng.randrange(1, 6))]
        return _chunks(msgs)
    return _chunks([pack(Structure(0x10, (rng.choice(["RETURN 1", "CREATE (:F)", "RETURN $p"]),
                                          {"p": _value(rng)}, {}))), pack(Structure(0x3F, ({"n": -1},)))])


def _drain(sock: socket.socket) -> list[bytes]:
    """Every message until the server closes the connection (the client has stopped sending, so
    a server that neither answers nor closes within REPLY_TIMEOUT hangs)."""
    frames = Dechunker(max_message=64 * 1024 * 1024)
    out: list[bytes] = []
    sock.settimeout(REPLY_TIMEOUT)
    while True:
        try:
            data = sock.recv(65536)
        except TimeoutError:
            raise AssertionError("the server neither answered nor closed the connection") from None
        except ConnectionResetError:
            return out
        if not data:
            assert not frames.pending, "the server closed in the middle of a message"
            return out
        out += frames.feed(data)


def test_malformed_bolt_gets_typed_failures_and_the_server_keeps_serving(tmp_path):
    rng = random.Random(SEED)
    store = str(tmp_path / "fuzz.rl")
    server = start_bolt(tmp_path, database=store)
    written = 0
    try:
        driver = neo4j.GraphDatabase.driver(f"bolt://127.0.0.1:{server.port}", auth=(USER, PASSWORD),
                                            max_transaction_retry_time=5.0)
        for i in range(CASES):
            data = _case(rng)
            c = RawBolt(server.port, timeout=REPLY_TIMEOUT)
            c.send(HELLO)
            c.send(LOGON)
            c.send_raw(data)
            c.sock.shutdown(socket.SHUT_WR)  # the end of what this client says
            try:
                replies = [unpack(m) for m in _drain(c.sock)]
            finally:
                c.close()
            assert replies[:2] == [Structure(0x70, (replies[0].fields[0],)), Structure(0x70, ({},))], \
                f"seed {SEED} case {i}"
            for r in replies:
                assert r.tag in (0x70, 0x71, 0x7E, 0x7F), f"seed {SEED} case {i}: {r}"
                if r.tag == 0x7F:
                    code = r.fields[0]["code"]
                    assert code.startswith("Neo.ClientError."), f"seed {SEED} case {i} {data!r}: {r}"
            if i % 50 == 0:
                driver.execute_query("CREATE (:Ack {i: $i})", i=i)
                written += 1
                assert driver.execute_query("RETURN 1 AS n")[0][0]["n"] == 1
        driver.execute_query("MATCH (f:F) DETACH DELETE f")
        driver.close()
    finally:
        code = server.stop()
    assert code == 0, server.stderr
    assert "internal error" not in server.stderr, server.stderr
    import relate
    with relate.connect(store) as conn:
        assert conn.execute("MATCH (a:Ack) RETURN count(a) AS n").rows == [(written,)]
