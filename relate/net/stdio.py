"""MCP over stdio: newline-delimited JSON-RPC on stdin -> reply lines on stdout.

stdout carries nothing but replies (each flushed at once, so a host waiting on a reply gets it);
startup and shutdown lines go to stderr.  Runs until stdin closes, then exits 0.

Lines end at "\\n" only (a "\\r" before it is dropped).  A real stdin is read as bytes so the text
layer's universal-newline handling cannot split a message at a lone "\\r"; U+2028 and other
Unicode line breaks stay inside the message, as JSON allows.
"""
from __future__ import annotations

from typing import Iterator, TextIO

from ..protocols.mcp import McpServer


def _lines(stdin) -> Iterator[str]:
    raw = getattr(stdin, "buffer", None)
    if raw is not None:
        for line in iter(raw.readline, b""):
            yield line.decode("utf-8", "replace")
        return
    yield from iter(stdin.readline, "")  # a text stream given by a caller (tests, embedding)


def serve_stdio(server: McpServer, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    stderr.write("serve: MCP (stdio) serving on stdin/stdout (auth: none)\n")
    stderr.flush()
    for raw in _lines(stdin):
        line = raw[:-1] if raw.endswith("\n") else raw
        if line.endswith("\r"):
            line = line[:-1]
        if not line.strip():
            continue
        reply = server.handle_line(line)
        if reply is not None:
            stdout.write(reply + "\n")
            stdout.flush()
    stderr.write("serve: stdin closed, shutting down\n")
    stderr.flush()
    return 0
