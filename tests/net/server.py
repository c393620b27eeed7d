"""Starting `relate serve --mcp PORT` as a real process for the network tests, and talking raw
HTTP/1.1 to it."""
from __future__ import annotations

import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))
LISTENING = re.compile(r"listening on http://[^ ]+:(\d+) ")


class Served:
    """One running server process: its port, its stderr so far, and how to stop it."""

    listening = LISTENING  # the line that announces the port

    def __init__(self, argv: list[str], cwd: Path, env: dict | None = None) -> None:
        self.log_path = cwd / f"serve-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "w+")  # a file, so a full pipe can never block the server
        self.proc = subprocess.Popen([RELATE, "serve", *argv], cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self._log,
                                     env={**os.environ, **(env or {})})
        self.port: int | None = None

    def wait_listening(self, timeout: float = 30.0) -> "Served":
        deadline = time.monotonic() + timeout
        while True:
            m = self.listening.search(self.stderr)
            if m:
                self.port = int(m.group(1))
                return self
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited {self.proc.returncode}: {self.stderr}")
            if time.monotonic() > deadline:
                raise AssertionError(f"server did not start: {self.stderr}")
            time.sleep(0.05)

    @property
    def stderr(self) -> str:
        return self.log_path.read_text()

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        finally:
            self._log.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._log.close()


def start(argv: list[str], cwd: Path, env: dict | None = None) -> Served:
    return Served(argv, cwd, env).wait_listening()


def run_serve(argv: list[str], cwd: Path, env: dict | None = None, timeout: float = 30.0):
    """A `relate serve` run that is expected to end by itself (usage errors, bind failures)."""
    return subprocess.run([RELATE, "serve", *argv], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, stdin=subprocess.DEVNULL)


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def rpc(id_, method: str, params: dict | None = None) -> bytes:
    msg: dict = {"jsonrpc": "2.0", "method": method}
    if id_ is not None:
        msg["id"] = id_
    if params is not None:
        msg["params"] = params
    return json.dumps(msg).encode()


def tool_call(id_, name: str, **arguments) -> bytes:
    return rpc(id_, "tools/call", {"name": name, "arguments": arguments})


class Reply:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body)


def connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    return s


def request_bytes(method: str = "POST", body: bytes = b"", headers: dict | None = None, version: str = "1.1",
                  length: bool = True) -> bytes:
    lines = [f"{method} /mcp HTTP/{version}", "Host: 127.0.0.1"]
    for k, v in (headers or {}).items():
        lines.append(f"{k}: {v}")
    if length and body and not any(k.lower() == "content-length" for k in (headers or {})):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def read_reply(sock: socket.socket) -> Reply | None:
    """One response from `sock` (None when the server closed the connection without one)."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            if buf:
                raise AssertionError(f"truncated response: {buf!r}")
            return None
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if status == 100:
        return Reply(100, headers, rest)  # the caller reads the final reply next
    n = int(headers.get("content-length", "0"))
    while len(rest) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError("truncated body")
        rest += chunk
    return Reply(status, headers, rest[:n])


def post(port: int, body: bytes = b"", headers: dict | None = None, **kw) -> Reply:
    """One request on a fresh connection."""
    with connect(port) as s:
        s.sendall(request_bytes(body=body, headers=headers, **kw))
        reply = read_reply(s)
        assert reply is not None, "connection closed without a reply"
        return reply


def closed_without_reply(sock: socket.socket, timeout: float) -> bool:
    """Does the server close `sock` within `timeout` seconds without sending anything?"""
    sock.settimeout(timeout)
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
