"""Round trip of one small read through each door of one `relate serve` process: MCP over
streamable HTTP, Bolt (Neo4j's Python driver) and the HTTP Query API (plain JSON over a kept-alive
connection, and Neo4j's driver in its HTTP mode); and, for the floor, the same statement through
the Python API in this process (`relate.connect(":memory:")` holding the same 100 nodes).

    .venv/bin/python bench/doors.py [--calls 500] [--out bench/results/doors.md]

One server (`--mcp 0 --bolt 0 --http 0`, `:memory:` with 100 `:Item` nodes), one client at a time,
the same statement `MATCH (i:Item {k: $k}) RETURN i.v AS v` with a fresh `$k` each call; the
first 50 calls of each door are a warm-up and not counted.  Figures: median, p95 and mean
milliseconds per call, and calls per second.  Loopback only; the client shares the machine with
the server, so the figures are a round trip's cost, not a throughput limit.
"""
from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))
USER, PASSWORD = "bench", "bench-doors-pw"
AUTH = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
STATEMENT = "MATCH (i:Item {k: $k}) RETURN i.v AS v"
WARM = 50
LINES = {"mcp": r"MCP \(streamable HTTP\) listening on http://[^ ]+:(\d+) ",
         "bolt": r"Bolt listening on bolt://[^ ]+:(\d+) ",
         "http": r"Query API \(HTTP\) listening on http://[^ ]+:(\d+) "}


def start(folder: str):
    log = open(Path(folder) / "serve.log", "w+")
    proc = subprocess.Popen([RELATE, "serve", "--auth", f"{USER}:{PASSWORD}", "--mcp", "0", "--bolt", "0",
                             "--http", "0"], stderr=log, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while True:
        text = Path(log.name).read_text()
        ports = {k: int(m.group(1)) for k, rx in LINES.items() if (m := re.search(rx, text))}
        if len(ports) == 3:
            return proc, ports
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"server did not start: {text}")
        time.sleep(0.05)


def mcp_caller(port: int):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json", "Authorization": AUTH}

    def one(k: int):
        body = {"jsonrpc": "2.0", "id": k, "method": "tools/call",
                "params": {"name": "read_cypher", "arguments": {"statement": STATEMENT, "parameters": {"k": k}}}}
        conn.request("POST", "/mcp", json.dumps(body), headers)
        reply = json.loads(conn.getresponse().read())
        assert reply["result"]["isError"] is False
    return one, conn.close


def query_caller(port: int):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json", "Authorization": AUTH}

    def one(k: int):
        conn.request("POST", "/db/neo4j/query/v2", json.dumps({"statement": STATEMENT, "parameters": {"k": k}}),
                     headers)
        r = conn.getresponse()
        body = json.loads(r.read())
        assert r.status == 202 and body["data"]["values"] == [[k * 10]], body
    return one, conn.close


def driver_caller(url: str, **kw):
    import neo4j
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = neo4j.GraphDatabase.driver(url, auth=(USER, PASSWORD))
    session = d.session(database="neo4j", **kw)

    def one(k: int):
        assert session.run(STATEMENT, k=k).single()["v"] == k * 10

    def close():
        session.close()
        d.close()
    return one, close


def python_caller():
    import relate
    db = relate.connect(":memory:")
    db.execute("UNWIND range(0, 99) AS k CREATE (:Item {k: k, v: k * 10})")

    def one(k: int):
        assert db.execute(STATEMENT, {"k": k}).rows == [(k * 10,)]
    return one, db.close


def measure(one, calls: int) -> list[float]:
    times = []
    for i in range(calls + WARM):
        t = time.perf_counter()
        one(i % 100)
        if i >= WARM:
            times.append((time.perf_counter() - t) * 1000)
    return times


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--out")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, ports = start(folder)
        try:
            one, close = query_caller(ports["http"])
            conn = http.client.HTTPConnection("127.0.0.1", ports["http"])
            conn.request("POST", "/db/neo4j/query/v2", json.dumps(
                {"statement": "UNWIND range(0, 99) AS k CREATE (:Item {k: k, v: k * 10})"}),
                {"Content-Type": "application/json", "Authorization": AUTH})
            assert conn.getresponse().status == 202
            conn.close()
            doors = [("Python API, Database.execute (in process)", python_caller),
                     ("MCP (streamable HTTP), read_cypher", lambda: mcp_caller(ports["mcp"])),
                     ("Bolt, neo4j driver session.run", lambda: driver_caller(f"bolt://127.0.0.1:{ports['bolt']}")),
                     ("Query API, plain JSON (http.client)", lambda: query_caller(ports["http"])),
                     ("Query API, neo4j driver http:// session.run",
                      lambda: driver_caller(f"http://127.0.0.1:{ports['http']}"))]
            rows = []
            for name, make in doors:
                one, close = make()
                try:
                    t = measure(one, args.calls)
                finally:
                    close()
                q = statistics.quantiles(t, n=20)
                rows.append((name, statistics.median(t), q[18], statistics.mean(t), 1000 / statistics.mean(t)))
        finally:
            proc.terminate()
            proc.wait(30)
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = ["# One small read through each door", "",
             f"`bench/doors.py --calls {args.calls}` on CPython {platform.python_version()}, {when}. One "
             "`relate serve --mcp 0 --bolt 0 --http 0` process on 127.0.0.1 (`:memory:`, 100 `:Item` nodes), one "
             f"client at a time, `{STATEMENT}` with a new `$k` each call, {WARM} warm-up calls not counted; "
             f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs when it ended.", "",
             "| door | p50 ms | p95 ms | mean ms | calls/s |", "| --- | ---: | ---: | ---: | ---: |"]
    lines += [f"| {n} | {a:.2f} | {b:.2f} | {c:.2f} | {d:.0f} |" for n, a, b, c, d in rows]
    lines += ["", "The Query API's listener asks the kernel for a quick ACK before each read: the driver's HTTP client "
              "(urllib3) sends a request's header and body in two writes, and without it the second waited for "
              "Linux's delayed ACK, 40 ms a call (48 ms median before the change)."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
