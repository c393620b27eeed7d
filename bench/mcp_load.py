"""Load test of `relate serve --mcp PORT`: N concurrent clients, mixed reads and writes, loopback only.

    .venv/bin/python bench/mcp_load.py [--clients 32] [--seconds 30] [--write-share 0.5] [--out FILE]

Starts the installed `relate serve --mcp 0` on 127.0.0.1 over a fresh `.rl` store with Basic auth,
then runs `--clients` threads for `--seconds`, each on its own kept-alive HTTP/1.1 connection.
A client alternates at random between

* a write: `CREATE (:Load {client: $c, seq: $i})` on `write_cypher` (the write is *acknowledged*
  once its reply says `nodes_created: 1`), and
* a read: `MATCH (n:Load {client: $c}) RETURN count(n) AS n` on `read_cypher`, which must equal the
  number of this client's acknowledged writes (its writes are sequential, so the count is exact),
  or, one time in eight, `get_schema`, whose `Load` count must be at least the writes acknowledged
  to all clients before the call was sent.

Then the server is stopped with SIGTERM (it must exit 0) and the store is opened again: every
acknowledged write must be there, and nothing else.  Any wrong answer, transport error or missing
write makes the exit status 1.  Figures (calls, throughput, latency percentiles) are printed and,
with `--out`, written as Markdown.
"""
from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))
USER, PASSWORD = "load", "load-test-pw"


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {"write": [], "read": [], "schema": []}
        self.failures: list[str] = []
        self.acked: dict[int, list[int]] = {}
        self.acked_total = 0

    def fail(self, text: str) -> None:
        with self.lock:
            if len(self.failures) < 50:
                self.failures.append(text)


def start_server(store: Path, log: Path) -> tuple[subprocess.Popen, int]:
    f = open(log, "w")
    proc = subprocess.Popen([RELATE, "serve", "--mcp", "0", "--host", "127.0.0.1", "--database", str(store),
                             "--auth", f"{USER}:{PASSWORD}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=f)
    deadline = time.monotonic() + 60
    while True:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", log.read_text())
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"server did not start: {log.read_text()}")
        time.sleep(0.05)


def client(n: int, port: int, until: float, write_share: float, stats: Stats) -> None:
    rng = random.Random(n)
    auth = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    headers = {"Content-Type": "application/json", "Authorization": auth}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    mine: list[int] = []
    seq = 0
    rid = 0

    def call(name: str, arguments: dict) -> dict | None:
        nonlocal rid
        rid += 1
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                           "params": {"name": name, "arguments": arguments}})
        try:
            conn.request("POST", "/mcp", body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException) as e:
            stats.fail(f"client {n}: transport error {e!r}")
            conn.close()
            return None
        if resp.status != 200:
            stats.fail(f"client {n}: HTTP {resp.status} {data[:200]!r}")
            return None
        reply = json.loads(data)
        if reply.get("id") != rid or "result" not in reply:
            stats.fail(f"client {n}: bad reply {data[:200]!r}")
            return None
        result = reply["result"]
        if result["isError"]:
            stats.fail(f"client {n}: tool error {result['content'][0]['text'][:200]}")
            return None
        return json.loads(result["content"][0]["text"])

    while time.monotonic() < until:
        t0 = time.perf_counter()
        roll = rng.random()
        if roll < write_share:
            seq += 1
            env = call("write_cypher", {"statement": "CREATE (:Load {client: $c, seq: $i})",
                                        "parameters": {"c": n, "i": seq}})
            kind = "write"
            if env is not None:
                if env["stats"]["nodes_created"] != 1:
                    stats.fail(f"client {n}: write {seq} created {env['stats']['nodes_created']} nodes")
                else:
                    mine.append(seq)
                    with stats.lock:
                        stats.acked_total += 1
        elif roll < write_share + (1 - write_share) / 8:
            with stats.lock:
                floor = stats.acked_total
            env = call("get_schema", {"sample_size": 10})
            kind = "schema"
            if env is not None and env.get("Load", {}).get("count", 0) < floor:
                stats.fail(f"client {n}: schema counts {env.get('Load', {}).get('count')} < {floor} acknowledged")
        else:
            env = call("read_cypher", {"statement": "MATCH (n:Load {client: $c}) RETURN count(n) AS n",
                                       "parameters": {"c": n}})
            kind = "read"
            if env is not None and env["rows"] != [{"n": len(mine)}]:
                stats.fail(f"client {n}: read {env['rows']} after {len(mine)} acknowledged writes")
        elapsed = (time.perf_counter() - t0) * 1000
        with stats.lock:
            stats.latency[kind].append(elapsed)
    conn.close()
    with stats.lock:
        stats.acked[n] = mine


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def verify_store(store: Path, acked: dict[int, list[int]]) -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import relate
    db = relate.connect(str(store), read_only=True)
    try:
        rows = db.execute("MATCH (n:Load) RETURN n.client AS c, n.seq AS s").rows
    finally:
        db.close()
    found = {(c, s) for c, s in rows}
    want = {(c, s) for c, seqs in acked.items() for s in seqs}
    problems = []
    if len(rows) != len(found):
        problems.append(f"{len(rows) - len(found)} duplicate writes in the store")
    missing = want - found
    extra = found - want
    if missing:
        problems.append(f"{len(missing)} acknowledged writes missing, e.g. {sorted(missing)[:5]}")
    if extra:
        problems.append(f"{len(extra)} writes present that were never acknowledged, e.g. {sorted(extra)[:5]}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--write-share", type=float, default=0.5)
    ap.add_argument("--out", help="write the figures as Markdown to this file")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="relate-load-") as tmp:
        store = Path(tmp) / "load.rl"
        proc, port = start_server(store, Path(tmp) / "serve.log")
        stats = Stats()
        try:
            started = time.monotonic()
            until = started + args.seconds
            threads = [threading.Thread(target=client, args=(n, port, until, args.write_share, stats))
                       for n in range(args.clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.monotonic() - started
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(120)
        if code != 0:
            stats.fail(f"server exited {code}: {(Path(tmp) / 'serve.log').read_text()[-500:]}")
        stats.failures.extend(verify_store(store, stats.acked))

    calls = sum(len(v) for v in stats.latency.values())
    lines = [
        "# MCP over streamable HTTP: load test",
        "",
        f"`bench/mcp_load.py --clients {args.clients} --seconds {args.seconds:g} --write-share {args.write_share:g}`"
        f" on {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. One server process on 127.0.0.1, a `.rl` store, "
        "Basic auth, each client on one kept-alive connection.",
        "",
        f"- calls answered: {calls} in {wall:.1f} s ({calls / wall:.0f} calls/s)",
        f"- acknowledged writes: {sum(len(v) for v in stats.acked.values())}, all present after the restart: "
        f"{'yes' if not any('missing' in f for f in stats.failures) else 'NO'}",
        f"- failures: {len(stats.failures)}",
        "",
        "| call | count | p50 ms | p95 ms | p99 ms | max ms | mean ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for kind, values in stats.latency.items():
        if values:
            lines.append(f"| {kind} | {len(values)} | {pct(values, 50):.1f} | {pct(values, 95):.1f} | "
                         f"{pct(values, 99):.1f} | {max(values):.1f} | {statistics.fmean(values):.1f} |")
    lines += ["", "The engine runs one call at a time (one lock around the protocol core), so with many clients "
              "a call's latency is mostly its wait in that queue; the client threads share the machine's cores "
              "with the server. The read counts one client's nodes by scanning the `Load` label, so it slows "
              "as the store grows during the run."]
    if stats.failures:
        lines += ["", "Failures (first 50):", ""] + [f"- {f}" for f in stats.failures]
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        Path(args.out).write_text(report)
    return 1 if stats.failures else 0


if __name__ == "__main__":
    sys.exit(main())
