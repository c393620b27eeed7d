"""Bolt's byte layer: the opening handshake, and messages <-> chunks.

Handshake: the client sends the magic `60 60 B0 17` and four proposals of 4 bytes
`[00][range][minor][major]` ("major.(minor - range) up to major.minor"), in its order of
preference; `negotiate` picks, for the first proposal that names a supported version, the highest
such version, and the server answers `00 00 minor major` (or four zero bytes and a close).
relate speaks 5.0 to 5.4: 5.5 is never negotiated, and the 5.7+ manifest proposal (`00 00 01 FF`)
is passed over, so drivers fall back to their classic proposals.

Chunks: a message is sent as chunks `[u16 size][size bytes]`, ended by `00 00`; a `00 00` between
messages is a keep-alive.  `Dechunker.feed(bytes)` returns the messages completed so far; a
message larger than `max_message` is `Request.InvalidFormat` (the connection cannot resynchronise
after it and is closed).
"""
from __future__ import annotations

from ..errors import E

MAGIC = b"\x60\x60\xB0\x17"
VERSIONS = ((5, 4), (5, 3), (5, 2), (5, 1), (5, 0))  # highest first
MAX_CHUNK = 0xFFFF
MAX_MESSAGE = 16 * 1024 * 1024
NOOP = b"\x00\x00"  # an empty chunk between messages: a keep-alive, skipped by the reader


def negotiate(proposals: bytes) -> tuple[int, int] | None:
    """16 bytes of proposals -> the version to speak, or None when none is supported."""
    for i in range(0, 16, 4):
        _, span, minor, major = proposals[i:i + 4]
        if major in (0x00, 0xFF):
            continue
        low = max(0, minor - span)
        for v in VERSIONS:
            if v[0] == major and low <= v[1] <= minor:
                return v
    return None


def reply(version: tuple[int, int] | None) -> bytes:
    return bytes((0, 0, version[1], version[0])) if version else b"\x00\x00\x00\x00"


def chunk(message: bytes) -> bytes:
    """One message's bytes -> its chunks and the end marker."""
    out = bytearray()
    for i in range(0, len(message), MAX_CHUNK):
        part = message[i:i + MAX_CHUNK]
        out += len(part).to_bytes(2, "big")
        out += part
    out += b"\x00\x00"
    return bytes(out)


class Dechunker:
    """Bytes as they arrive -> whole messages."""

    def __init__(self, max_message: int = MAX_MESSAGE) -> None:
        self.max_message = max_message
        self._buf = bytearray()
        self._message = bytearray()
        self._started = False  # a chunk of the current message has arrived

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        buf = self._buf
        out = []
        pos = 0
        while len(buf) - pos >= 2:
            size = int.from_bytes(buf[pos:pos + 2], "big")
            if size == 0:
                pos += 2
                if self._started:
                    out.append(bytes(self._message))
                    self._message.clear()
                    self._started = False
                continue  # else a keep-alive between messages
            if len(buf) - pos - 2 < size:
                break
            if len(self._message) + size > self.max_message:
                raise E.Request.InvalidFormat(f"a message over {self.max_message} bytes")
            self._message += buf[pos + 2:pos + 2 + size]
            self._started = True
            pos += 2 + size
        del buf[:pos]
        return out

    @property
    def pending(self) -> bool:
        """Part of a message has arrived (a peer that stops here left a message unfinished)."""
        return self._started or bool(self._buf)
