"""Starting `relate serve --bolt 0` as a real process, and a raw Bolt client for the tests that
send what no driver would."""
from __future__ import annotations

import re
import socket
import struct
from pathlib import Path

from tests.net.server import Served

LISTENING = re.compile(r"Bolt listening on bolt://[^ ]+:(\d+) ")
USER, PASSWORD = "neo4j", "bolt-test-secret"


class BoltServed(Served):
    listening = LISTENING  # the line `relate serve --bolt` announces its port with


def start_bolt(cwd: Path, *flags: str, database: str = ":memory:") -> BoltServed:
    argv = ["--bolt", "0", "--database", database, "--auth", f"{USER}:{PASSWORD}", *flags]
    return BoltServed(argv, cwd).wait_listening()


HANDSHAKE = b"\x60\x60\xB0\x17" + bytes([0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])


class RawBolt:
    """A Bolt connection driven by hand: `send` PackStream bytes as one message, `recv` replies."""

    def __init__(self, port: int, handshake: bytes = HANDSHAKE, timeout: float = 15.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.sendall(handshake)
        self.version = self._exact(4)
        self.buf = b""

    def _exact(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            part = self.sock.recv(n - len(out))
            if not part:
                return out
            out += part
        return out

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def send(self, message: bytes) -> None:
        self.sock.sendall(struct.pack(">H", len(message)) + message + b"\x00\x00")

    def recv(self) -> bytes | None:
        """One reply message's bytes, or None when the server closed the connection."""
        body = b""
        while True:
            head = self._exact(2)
            if len(head) < 2:
                return None
            size = struct.unpack(">H", head)[0]
            if size == 0:
                if body:
                    return body
                continue
            part = self._exact(size)
            if len(part) < size:
                return None
            body += part

    def close(self) -> None:
        self.sock.close()
