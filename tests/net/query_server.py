"""Starting `relate serve` with the Query API (and Bolt and MCP beside it) as a real process, and
plain HTTP requests to it (urllib: what a script or curl would send)."""
from __future__ import annotations

import base64
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

from tests.net.server import Served

USER, PASSWORD = "neo4j", "query-test-secret"
TYPED = "application/vnd.neo4j.query"
_LINES = {"mcp": re.compile(r"MCP \(streamable HTTP\) listening on http://[^ ]+:(\d+) "),
          "bolt": re.compile(r"Bolt listening on bolt://[^ ]+:(\d+) "),
          "http": re.compile(r"Query API \(HTTP\) listening on http://[^ ]+:(\d+) ")}


class QueryServed(Served):
    listening = _LINES["http"]

    def ports(self) -> dict[str, int]:
        return {k: int(m.group(1)) for k, rx in _LINES.items() if (m := rx.search(self.stderr))}


def start_query(cwd: Path, *flags: str, database: str = ":memory:", doors=("http", "bolt", "mcp")) -> QueryServed:
    argv = ["--database", database, "--auth", f"{USER}:{PASSWORD}", *flags]
    for door in doors:
        argv += ["--mcp" if door == "mcp" else f"--{door}", "0"]
    served = QueryServed(argv, cwd)
    served.wait_listening()
    return served


def auth_header(user: str = USER, password: str = PASSWORD) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def call(port: int, method: str, path: str, body=None, *, typed: bool = False, headers: dict | None = None,
         auth: str | None = "default", raw: bytes | None = None):
    """One request -> (status, JSON body or None, response headers)."""
    ctype = TYPED if typed else "application/json"
    h = {"Content-Type": ctype, "Accept": ctype}
    if auth == "default":
        h["Authorization"] = auth_header()
    elif auth is not None:
        h["Authorization"] = auth
    h.update(headers or {})
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, text, got = r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        status, text, got = e.code, e.read(), dict(e.headers)
    return status, (json.loads(text) if text else None), {k.lower(): v for k, v in got.items()}


def query(port: int, statement: str, parameters: dict | None = None, **kw):
    body: dict = {"statement": statement}
    if parameters is not None:
        body["parameters"] = parameters
    body.update(kw.pop("extra", {}))
    return call(port, "POST", "/db/neo4j/query/v2", body, **kw)
