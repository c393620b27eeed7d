"""The cost of the 2026-07-28 era and the budgets in the MCP core: off, they must cost nothing.

    .venv/bin/python bench/mcp_era.py [--base main] [--rounds 5] [--calls 400] [--out bench/results/mcp_era.md]

Each round runs a fresh process per side, alternating base and head (as `compare.py` does), whose
`relate` comes from that side's tree through PYTHONPATH (a git worktree for `--base`, removed
afterwards).  A process builds a 2,000-node graph and times `McpServer.handle_line` (the sans-I/O
core, no transport) for each legacy call below, `--calls` times, and reports the median per call.
Both sides answer the legacy calls with budgets off, so head/base is the overhead of the new
dispatch when nothing is on.  The head also times the same calls in the new era's shape and with
the budgets and structured content on (a budget large enough to cut nothing, then one that cuts),
to show what turning them on costs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = ROOT / ".venv" / "bin" / "python"

WORKER = r'''
import json, sys, time
import relate
from relate.protocols.mcp import McpServer
calls, variants = int(sys.argv[1]), json.loads(sys.argv[2])
db = relate.connect()
db.execute("UNWIND range(1, 2000) AS i CREATE (:P {i: i, name: 'p' + toString(i)})")
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
def line(method, params=None, modern=False):
    if modern:
        params = {"_meta": META, **(params or {})}
    body = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body)
def read(statement, modern=False):
    return line("tools/call", {"name": "read_cypher", "arguments": {"statement": statement}}, modern)
CASES = {
    "ping": lambda m: line("ping", None, m),
    "tools/list": lambda m: line("tools/list", None, m),
    "read_cypher 1 row": lambda m: read("RETURN 1 AS one", m),
    "read_cypher 1000 rows": lambda m: read("MATCH (p:P) WHERE p.i <= 1000 RETURN p.i AS i, p.name AS name", m),
    "get_schema": lambda m: line("tools/call", {"name": "get_schema", "arguments": {}}, m),
}
out = {}
for variant, (kwargs, modern) in variants.items():
    server = McpServer(db, **kwargs)
    for case, make in CASES.items():
        text = make(modern)
        for _ in range(20):
            server.handle_line(text)
        times = []
        for _ in range(calls):
            t = time.perf_counter_ns()
            server.handle_line(text)
            times.append(time.perf_counter_ns() - t)
        times.sort()
        out[f"{variant} | {case}"] = times[len(times) // 2] / 1000.0
print(json.dumps(out))
'''

OFF = {"legacy, off": [{}, False]}
HEAD_ONLY = {
    "new era, off": [{}, True],
    "legacy, budget 16 MiB + structured": [{"result_budget_bytes": 16 << 20, "structured_content": True}, False],
    "legacy, budget 4 KiB (cuts)": [{"result_budget_bytes": 4096}, False],
}


def tree_for(rev: str, scratch: Path) -> Path:
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", rev], capture_output=True, text=True,
                         check=True).stdout.strip()
    path = scratch / f"base-{sha[:10]}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), sha], check=True)
    return path


def one(tree: Path, calls: int, variants: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.run([str(PY), "-c", WORKER, str(calls), json.dumps(variants)], env=env, cwd=str(tree),
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default="main")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--out", default=str(HERE / "results" / "mcp_era.md"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mcp-era-bench-") as scratch:
        base = tree_for(args.base, Path(scratch))
        try:
            runs: dict[str, list[dict]] = {"base": [], "head": []}
            for r in range(args.rounds):
                runs["base"].append(one(base, args.calls, OFF))
                runs["head"].append(one(ROOT, args.calls, {**OFF, **HEAD_ONLY}))
                print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False)
    med = {side: {k: statistics.median(run[k] for run in runs[side]) for k in runs[side][0]} for side in runs}
    lines = ["# MCP core: the 2026-07-28 era and the budgets", "",
             f"`bench/mcp_era.py --base {args.base} --rounds {args.rounds} --calls {args.calls}`: median µs per "
             "`McpServer.handle_line` call (median over rounds of each process's median), in-process, no "
             "transport, on a 2,000-node graph.  Base and head alternate, a fresh process each.", "",
             "## Budgets off: base against head", "", "| call | base µs | head µs | head/base |", "|---|---|---|---|"]
    for key, b in med["base"].items():
        h = med["head"][key]
        lines.append(f"| {key.split(' | ')[1]} | {b:.1f} | {h:.1f} | {h / b:.3f} |")
    lines += ["", "## Head: the same calls in the new era and with the budgets on", "",
              "| variant | call | µs | / legacy off |", "|---|---|---|---|"]
    for key, v in med["head"].items():
        variant, case = key.split(" | ")
        if variant == "legacy, off":
            continue
        lines.append(f"| {variant} | {case} | {v:.1f} | {v / med['head']['legacy, off | ' + case]:.3f} |")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
