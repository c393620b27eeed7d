"""A runaway statement against `relate serve --mcp PORT`, and what the other clients see meanwhile.

    .venv/bin/python bench/runaway.py [--requests 1000] [--clients 4] [--out FILE]

Starts the installed `relate serve --mcp 0 --database :memory: --auth none` on 127.0.0.1, makes a
small dense graph (6 nodes, every ordered pair joined: 30 relationships) and sends, on one
connection, a `write_cypher` call that would run for hours:

    MATCH p=()-[*1..12]->() WITH count(p) AS paths CREATE (:Mark {paths: paths})

While it runs, `--clients` threads send `--requests` `ping` and `--requests` `tools/list` calls
in all (alternating; one in two on a fresh connection, the others on one kept-alive connection
per thread) and check each answer.  Then:

1. the runaway's connection is closed, and the time until a `write_cypher` on another connection
   is answered is measured (the engine is free again), and no `:Mark` node exists;
2. a second runaway is sent and the server gets SIGTERM: the time until it exits, its exit code,
   and the answer the runaway got;
3. a server started with `--call-timeout-secs 1` gets the runaway as `read_cypher`: the time until
   the timeout tool error arrives.

Loopback only; every loop is bounded in count and time.  Exit status 1 if anything failed.
"""
from __future__ import annotations

import argparse
import json
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))
SEED = ("UNWIND range(1, 6) AS i CREATE (:N {i: i}) WITH count(*) AS made "
        "MATCH (a:N), (b:N) WHERE a <> b CREATE (a)-[:R]->(b)")
RUNAWAY = "MATCH p=()-[*1..12]->() WITH count(p) AS paths CREATE (:Mark {paths: paths})"
RUNAWAY_READ = "MATCH p=()-[*1..12]->() RETURN count(p) AS paths"
TOOLS = ["write_cypher", "read_cypher", "get_schema"]


def body(id_, method: str, params: dict | None = None) -> bytes:
    msg: dict = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        msg["params"] = params
    return json.dumps(msg).encode()


def tool(id_, name: str, statement: str) -> bytes:
    return body(id_, "tools/call", {"name": name, "arguments": {"statement": statement}})


def request(payload: bytes) -> bytes:
    return (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(payload)).encode() + b"\r\n\r\n" + payload)


def read_reply(sock: socket.socket) -> tuple[int, dict, bytes]:
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed without a reply")
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    n = int(headers.get("content-length", "0"))
    while len(rest) < n:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("truncated body")
        rest += chunk
    return int(lines[0].split(" ")[1]), headers, rest[:n]


class Server:
    def __init__(self, tmp: Path, *flags: str) -> None:
        self.log = tmp / f"serve-{time.monotonic_ns()}.log"
        self._f = open(self.log, "w")
        self.proc = subprocess.Popen([RELATE, "serve", "--mcp", "0", "--host", "127.0.0.1", "--database", ":memory:",
                                      "--auth", "none", *flags], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=self._f)
        deadline = time.monotonic() + 60
        while True:
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", self.log.read_text())
            if m:
                self.port = int(m.group(1))
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start: {self.log.read_text()}")
            time.sleep(0.05)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=30)

    def post(self, payload: bytes) -> dict:
        with self.connect() as s:
            s.sendall(request(payload))
            return json.loads(read_reply(s)[2])

    def runaway(self, statement: str = RUNAWAY, name: str = "write_cypher") -> socket.socket:
        s = self.connect()
        s.sendall(request(tool(99, name, statement)))
        time.sleep(0.5)  # it is running
        return s

    def end(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._f.close()


def fire(server: Server, requests: int, clients: int) -> dict:
    """`requests` pings and `requests` tools/list calls from `clients` threads; latencies in ms."""
    lat: dict[str, list[float]] = {"ping": [], "tools/list": []}
    failures: list[str] = []
    lock = threading.Lock()
    per = (2 * requests + clients - 1) // clients
    counter = iter(range(2 * requests))

    def worker(k: int) -> None:
        kept = None
        for _ in range(per):
            with lock:
                i = next(counter, None)
            if i is None:
                break
            method = "ping" if i % 2 == 0 else "tools/list"
            fresh = i % 4 >= 2
            t0 = time.perf_counter()
            try:
                sock = server.connect() if fresh or kept is None else kept
                sock.sendall(request(body(i, method)))
                status, _, raw = read_reply(sock)
                reply = json.loads(raw)
                ms = (time.perf_counter() - t0) * 1000
                ok = status == 200 and reply.get("id") == i and (
                    reply.get("result") == {} if method == "ping"
                    else [t["name"] for t in reply["result"]["tools"]] == TOOLS)
                if fresh:
                    sock.close()
                elif kept is None:
                    kept = sock
            except (OSError, ValueError, KeyError) as e:
                ok, ms = False, (time.perf_counter() - t0) * 1000
                reply = repr(e)
                kept = None
            with lock:
                lat[method].append(ms)
                if not ok and len(failures) < 20:
                    failures.append(f"{method} #{i}: {reply!r}"[:300])
        if kept is not None:
            kept.close()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    return {"latency": lat, "failures": failures, "seconds": time.perf_counter() - t0}


def still_unanswered(sock: socket.socket) -> bool:
    sock.settimeout(0.05)
    try:
        sock.recv(65536)  # an answer, or the end of the connection
        return False
    except TimeoutError:
        return True
    except OSError:
        return False


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=1000, help="pings, and as many tools/list calls")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "runaway.md")
    args = ap.parse_args()
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # 0-1: the engine-free methods during a runaway, then closing its connection
        server = Server(tmp)
        try:
            seeded = server.post(tool(1, "write_cypher", SEED))
            if seeded["result"]["isError"]:
                raise SystemExit(f"seeding failed: {seeded}")
            runaway = server.runaway()
            fired = fire(server, args.requests, args.clients)
            if not still_unanswered(runaway):
                problems.append("the runaway ended by itself while the requests ran")
            t0 = time.perf_counter()
            runaway.close()
            after = server.post(tool(2, "write_cypher", "CREATE (:After)"))
            freed = time.perf_counter() - t0
            marks = json.loads(server.post(tool(3, "read_cypher", "MATCH (m:Mark) RETURN count(m) AS n"))
                               ["result"]["content"][0]["text"])["rows"][0]["n"]
            if after["result"]["isError"]:
                problems.append(f"the write after the close failed: {after}")
            if marks:
                problems.append(f"the runaway wrote {marks} :Mark nodes")
            # 2: SIGTERM during a runaway
            runaway = server.runaway()
            t0 = time.perf_counter()
            server.proc.send_signal(signal.SIGTERM)
            try:
                code = server.proc.wait(30)
            except subprocess.TimeoutExpired:
                code = None
            exit_s = time.perf_counter() - t0
            runaway.settimeout(5)
            try:
                stopped = json.loads(read_reply(runaway)[2])["result"]["content"][0]["text"]
            except (OSError, ValueError, KeyError) as e:
                stopped = f"no answer ({e!r})"
            runaway.close()
            shutdown_line = "serve: SIGTERM received, shutting down" in server.log.read_text()
        finally:
            server.end()
        # 3: the budget flag
        budget = Server(tmp, "--call-timeout-secs", "1")
        try:
            budget.post(tool(1, "write_cypher", SEED))
            t0 = time.perf_counter()
            timed_out = budget.post(tool(2, "read_cypher", RUNAWAY_READ))["result"]["content"][0]["text"]
            budget_s = time.perf_counter() - t0
            budget.proc.send_signal(signal.SIGTERM)
            budget.proc.wait(30)
        finally:
            budget.end()

    lat = fired["latency"]
    sent = {m: len(v) for m, v in lat.items()}
    failed = len(fired["failures"])
    if failed:
        problems.extend(fired["failures"])
    if code != 0 or exit_s >= 2.0:
        problems.append(f"SIGTERM: exit {code} after {exit_s:.2f} s")
    if not stopped.startswith("Error: cancelled: the server is shutting down"):
        problems.append(f"the runaway stopped by SIGTERM answered {stopped!r}")
    if not timed_out.startswith("Error: timeout: the statement ran longer than 1s"):
        problems.append(f"the budget answered {timed_out!r}")

    def row(method: str) -> str:
        v = sorted(lat[method])
        p = (lambda q: v[min(len(v) - 1, int(q * len(v)))]) if v else (lambda q: float("nan"))
        bad = sum(1 for f in fired["failures"] if f.startswith(method + " "))
        return (f"| `{method}` | {sent[method]} | {bad} | {statistics.median(v):.1f} | {p(0.95):.1f} | "
                f"{p(0.99):.1f} | {v[-1]:.1f} |")

    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [
        "# A runaway statement against the MCP HTTP server",
        "",
        f"`bench/runaway.py --requests {args.requests} --clients {args.clients}` on CPython "
        f"{platform.python_version()}, {_cpus()} CPUs, {stamp}. One server process on 127.0.0.1 (`:memory:`, "
        "no auth); 6 nodes with every ordered pair joined (30 relationships); the runaway is "
        f"`{RUNAWAY}` on `write_cypher` (hours of work), sent on its own connection.",
        "",
        "## `ping` and `tools/list` while the runaway holds the engine",
        "",
        f"{sum(sent.values())} requests from {args.clients} client threads in {fired['seconds']:.1f} s "
        f"(one in two on a fresh connection), {failed} failed.",
        "",
        "| method | sent | failed | p50 ms | p95 ms | p99 ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        row("ping"),
        row("tools/list"),
        "",
        "## Stopping it",
        "",
        "| how | result |",
        "| --- | --- |",
        f"| the runaway's client closes its connection | the next `write_cypher` on another connection answered "
        f"after {freed * 1000:.0f} ms; `:Mark` nodes written: {marks} |",
        f"| SIGTERM while it runs | exit code {code} after {exit_s:.2f} s; the shutdown line printed: "
        f"{'yes' if shutdown_line else 'no'}; the runaway was answered `{stopped}` |",
        f"| `--call-timeout-secs 1`, the runaway on `read_cypher` | answered after {budget_s:.2f} s: `{timed_out}` |",
        "",
        "The latencies are those of a 2-core machine where the runaway's thread keeps one core busy and "
        "the client threads share the other with the server's connection threads: an engine-free answer "
        "waits for the interpreter lock, which the statement's thread hands over every few milliseconds.",
        "",
    ]
    if problems:
        lines += ["## Problems", ""] + [f"- {p}" for p in problems] + [""]
    text = "\n".join(lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(text)
    return 1 if problems else 0


def _cpus() -> int:
    import os
    return os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
