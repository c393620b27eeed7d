"""Load test of `relate serve --mcp PORT`: N concurrent clients, mixed reads and writes, loopback only.

    .venv/bin/python bench/mcp_load.py [--clients 32] [--seconds 30] [--write-share 0.5] [--out FILE]
        [--serving [--base REV] [--rounds 3] [--phase-seconds 5] [--latency-calls 2000]]

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

`--serving` first measures the serving figures of issue 22 on a server of their own (a store of 100
`:Item` nodes): one client's small `read_cypher` round trip (`MATCH (n:Item {id: $i}) RETURN n.name`)
on a kept-alive connection, p50/p99 over `--latency-calls` calls, then calls/s of that read with 1,
8 and 32 clients for `--phase-seconds` each.  These clients write prebuilt request bytes on raw
sockets and check each reply's row with a substring test, so the figures are mostly the server's
cost.  With `--base REV` a git worktree of REV is measured too, in alternating rounds (a fresh
server each), its `relate` taken from that tree through PYTHONPATH.
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
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))
ROOT = Path(__file__).resolve().parent.parent
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


def start_server(store: Path, log: Path, tree: Path | None = None) -> tuple[subprocess.Popen, int]:
    f = open(log, "w")
    command, env = relate_command(tree)
    proc = subprocess.Popen(command + ["serve", "--mcp", "0", "--host", "127.0.0.1", "--database", str(store),
                                       "--auth", f"{USER}:{PASSWORD}"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=f, env=env, cwd=str(tree or ROOT))
    deadline = time.monotonic() + 60
    while True:
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+) ", log.read_text())
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"server did not start: {log.read_text()}")
        time.sleep(0.05)


SMALL_READ = "MATCH (n:Item {id: $i}) RETURN n.name AS name"
PHASE_CLIENTS = (1, 8, 32)


def relate_command(tree: Path | None) -> tuple[list[str], dict]:
    if tree is None:
        return [RELATE], dict(os.environ)
    code = "import sys; from relate.cli.main import entry; sys.argv[0] = 'relate'; sys.exit(entry())"
    return [sys.executable, "-c", code], dict(os.environ, PYTHONPATH=str(tree))


def small_requests(port: int) -> list[bytes]:
    auth = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    out = []
    for i in range(1, 101):
        body = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "read_cypher", "arguments": {"statement": SMALL_READ, "parameters": {"i": i}}}})
        out.append((f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                    f"Authorization: Basic {auth}\r\nContent-Length: {len(body)}\r\n\r\n{body}").encode())
    return out


class RawClient:
    """One kept-alive connection sending prebuilt requests; a reply is checked by its row's bytes."""

    def __init__(self, port: int, requests: list[bytes]) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.requests = requests
        self.buf = b""

    def call(self, i: int) -> None:
        self.sock.sendall(self.requests[i % 100])
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end >= 0:
                head = self.buf[:end]
                length = int(head.lower().split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0])
                if len(self.buf) >= end + 4 + length:
                    body = self.buf[end + 4:end + 4 + length]
                    self.buf = self.buf[end + 4 + length:]
                    break
            data = self.sock.recv(65536)
            if not data:
                raise OSError("connection closed")
            self.buf += data
        want = b'\\"rows\\":[{\\"name\\":\\"n%d\\"}]' % (i % 100 + 1)
        if not head.startswith(b"HTTP/1.1 200 ") or want not in body:
            raise AssertionError(f"bad reply {head[:40]!r} {body[:300]!r}")

    def close(self) -> None:
        self.sock.close()


def serving_round(tree: Path | None, args) -> dict:
    """One fresh server: a kept-alive client's p50/p99, then calls/s with 1, 8 and 32 clients."""
    with tempfile.TemporaryDirectory(prefix="relate-serving-") as tmp:
        store = Path(tmp) / "serving.rl"
        proc, port = start_server(store, Path(tmp) / "serve.log", tree)
        try:
            seed = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": {
                "name": "write_cypher", "arguments": {
                    "statement": "UNWIND range(1, 100) AS i CREATE (:Item {id: i, name: 'n' + toString(i)})"}}})
            auth = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
            seed.request("POST", "/mcp", body=body, headers={"Content-Type": "application/json",
                                                               "Authorization": auth})
            assert b'nodes_created\\":100' in seed.getresponse().read()
            seed.close()
            requests = small_requests(port)
            one = RawClient(port, requests)
            for i in range(200):  # warm: plan cache, allocator
                one.call(i)
            times = []
            for i in range(args.latency_calls):
                t0 = time.perf_counter()
                one.call(i)
                times.append((time.perf_counter() - t0) * 1000)
            one.close()
            out = {"p50": pct(times, 50), "p99": pct(times, 99)}
            for n in PHASE_CLIENTS:
                cpu = server_cpu(proc.pid)
                out[f"c{n}"], calls = throughput(port, requests, n, args.phase_seconds)
                out[f"cpu{n}"] = (server_cpu(proc.pid) - cpu) / calls * 1e6 if calls else 0.0
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(120)
    return out


def throughput(port: int, requests: list[bytes], clients: int, seconds: float) -> float:
    counts = [0] * clients
    errors: list[str] = []
    conns = [RawClient(port, requests) for _ in range(clients)]
    start = threading.Barrier(clients + 1)
    until = [0.0]

    def run(k: int) -> None:
        c, i = conns[k], k * 7
        start.wait()
        try:
            while time.monotonic() < until[0]:
                c.call(i)
                i += 1
                counts[k] += 1
        except (OSError, AssertionError) as e:
            errors.append(repr(e))
        c.close()
    threads = [threading.Thread(target=run, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    until[0] = time.monotonic() + seconds
    t0 = time.monotonic()
    start.wait()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    if errors:
        raise SystemExit(f"serving: {len(errors)} clients failed, e.g. {errors[0]}")
    return sum(counts) / wall, sum(counts)


def server_cpu(pid: int) -> float:
    """Seconds of CPU the server process has used (Linux; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serving(args) -> list[str]:
    sides: dict[str, Path | None] = {"head": None}
    scratch = None
    if args.base:
        scratch = tempfile.mkdtemp(prefix="relate-serving-base-")
        sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.base], capture_output=True, text=True,
                             check=True).stdout.strip()
        base_tree = Path(scratch) / f"base-{sha[:10]}"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base_tree), sha],
                       check=True)
        sides = {"base": base_tree, "head": None}
    runs: dict[str, list[dict]] = {side: [] for side in sides}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    try:
        for _ in range(args.rounds):
            for side, tree in sides.items():
                runs[side].append(serving_round(tree, args))
                print(side, runs[side][-1], file=sys.stderr)
    finally:
        if scratch is not None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)], check=False)
    keys = ["p50", "p99"] + [f"c{n}" for n in PHASE_CLIENTS] + [f"cpu{n}" for n in PHASE_CLIENTS]
    med = {side: {k: statistics.median(r[k] for r in rs) for k in keys} for side, rs in runs.items()}
    base_note = f" against `{args.base}`" if args.base else ""
    lines = ["## Serving figures (issue 22)", "",
             f"`--serving{' --base ' + args.base if args.base else ''} --rounds {args.rounds} --phase-seconds "
             f"{args.phase_seconds:g} --latency-calls {args.latency_calls}`{base_note}: a fresh server per round "
             "and side (sides alternate), a `.rl` store of 100 `:Item` nodes, Basic auth; the read is "
             f"`{SMALL_READ}` on `read_cypher`.  Medians over the rounds.", "",
             "| side | one client p50 ms | one client p99 ms | calls/s, 1 client | 8 clients | 32 clients "
             "| server CPU µs/call, 1 / 8 / 32 clients |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for side, m in med.items():
        lines.append(f"| {side} | {m['p50']:.3f} | {m['p99']:.3f} | {m['c1']:.0f} | {m['c8']:.0f} | {m['c32']:.0f} "
                     f"| {m['cpu1']:.0f} / {m['cpu8']:.0f} / {m['cpu32']:.0f} |")
    if "base" in med:
        b, h = med["base"], med["head"]
        lines.append(f"| head/base | {h['p50'] / b['p50']:.2f} | {h['p99'] / b['p99']:.2f} | {h['c1'] / b['c1']:.2f} "
                     f"| {h['c8'] / b['c8']:.2f} | {h['c32'] / b['c32']:.2f} | "
                     + " / ".join(f"{h[f'cpu{n}'] / b[f'cpu{n}']:.2f}" for n in PHASE_CLIENTS) + " |")
    lines += ["", f"Load average when the figures began: {load:.1f} on {os.cpu_count()} CPUs (other work shares "
              "them).  Server CPU is the server process's user + system time over a phase divided by its calls: "
              "the figure least moved by that sharing.  The client threads run in the bench's own process.",
              "", "Each round's figures:", ""]
    for side, rs in runs.items():
        for r in rs:
            lines.append(f"- {side}: p50 {r['p50']:.3f} ms, p99 {r['p99']:.3f} ms, "
                         + ", ".join(f"{n} clients {r[f'c{n}']:.0f}/s ({r[f'cpu{n}']:.0f} µs CPU/call)"
                                     for n in PHASE_CLIENTS))
    return lines + [""]


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
    ap.add_argument("--serving", action="store_true", help="first measure the serving figures (see the docstring)")
    ap.add_argument("--base", help="with --serving: measure this git revision too, in alternating rounds")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--phase-seconds", type=float, default=5.0)
    ap.add_argument("--latency-calls", type=int, default=2000)
    args = ap.parse_args()
    head = serving(args) if args.serving else []

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
        *([*head, "## Mixed reads and writes", ""] if head else []),
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
