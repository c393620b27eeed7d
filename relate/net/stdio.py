"""MCP over stdio: newline-delimited JSON-RPC on stdin -> reply lines on stdout.

stdout carries nothing but replies (each flushed at once, so a host waiting on a reply gets it);
startup and shutdown lines go to stderr.  Runs until stdin closes, then exits 0.
"""
from __future__ import annotations

from typing import TextIO

from ..protocols.mcp import McpServer


def serve_stdio(server: McpServer, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    stderr.write("serve: MCP (stdio) serving on stdin/stdout (auth: none)\n")
    stderr.flush()
    for raw in stdin:
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        reply = server.handle_line(line)
        if reply is not None:
            stdout.write(reply + "\n")
            stdout.flush()
    stderr.write("serve: stdin closed, shutting down\n")
    stderr.flush()
    return 0
