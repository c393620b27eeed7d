"""What the history costs: an as-of read over 100 versions per property, memory per version,
and a write's cost with and without history work.

    .venv/bin/python bench/time_travel.py [--nodes 200] [--versions 100] [--rounds 5] [--base-tree DIR]

-> bench/results/time_travel.md.  The graph: NODES nodes `(:P {i, v})`; then VERSIONS statements,
each a dated `SET p.v` on every node (valid times one day apart, recorded one second apart): each
write closes the open version and appends its part before the new date and the new value, so a
property written VERSIONS times holds about 2 x VERSIONS versions (the closed ones are what the
database believed before).  Timed (median of rounds, a fixed clock so runs agree): the valid-now
read, an as-of read the first time (it builds the view of that time) and again (cached), and a
`RECORDED` read halfway through the history.  Memory: tracemalloc's growth of the process while
the versions are written, over the number of versions written.  With `--base-tree` (a checkout
of the revision before, e.g. /work/main), also the bytecodes per statement of the benchmark
queries on both trees (`bench/opcodes.py`, which load on the machine does not change).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import relate  # noqa: E402
from relate.temporal.instant import parse_ns, render_ns  # noqa: E402

DAY = 86_400 * 10**9


class Clock:
    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        self.t += 10**9
        return self.t


def timed(fn, rounds: int) -> float:
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        fn()
        out.append(time.perf_counter_ns() - t0)
    return statistics.median(out) / 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=200)
    ap.add_argument("--versions", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "time_travel.md"))
    ap.add_argument("--base-tree", help="a tree holding relate/ before the change, for bytecode counts")
    a = ap.parse_args()
    start = parse_ns("2020-01-01")
    clock = Clock(parse_ns("2025-01-01"))
    db = relate.connect(":memory:", clock=clock, temporal_read_limit=10**9)
    db.execute("AT VALID $t UNWIND range(1, $n) AS i CREATE (:P {i: i, v: 0})",
               {"t": render_ns(start), "n": a.nodes})
    plain = relate.connect(":memory:")
    plain.execute("UNWIND range(1, $n) AS i CREATE (:P {i: i, v: 0})", {"n": a.nodes})
    plain_ms = timed(lambda: plain.execute("MATCH (p:P) SET p.v = p.v + 1"), a.rounds)
    half = a.versions // 2
    t0 = time.perf_counter_ns()
    for k in range(1, half):  # timed without tracemalloc, which slows every allocation
        db.execute("AT VALID $t MATCH (p:P) SET p.v = $k", {"t": render_ns(start + k * DAY), "k": k})
    write_ms = (time.perf_counter_ns() - t0) / 1e6 / max(1, half - 1)
    counted = sum(len(v) for f in db.graph.history.nodes.values() for v in f.props.values())
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for k in range(half, a.versions):
        db.execute("AT VALID $t MATCH (p:P) SET p.v = $k", {"t": render_ns(start + k * DAY), "k": k})
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    versions = sum(len(v) for f in db.graph.history.nodes.values() for v in f.props.values())
    per_version = grown / max(1, versions - counted)
    now_q = "MATCH (p:P) RETURN sum(p.v) AS s"
    mid = render_ns(start + (a.versions // 2) * DAY + DAY // 2)
    as_of_q = f"AS OF '{mid}' MATCH (p:P) RETURN sum(p.v) AS s"
    recorded_q = f"AS OF '{mid}' RECORDED '{render_ns(parse_ns('2025-01-01') + (a.versions // 4) * 10**9)}' " \
                 "MATCH (p:P) RETURN sum(p.v) AS s"
    assert db.execute(as_of_q).rows == [(a.nodes * (a.versions // 2),)]
    now_ms = timed(lambda: db.execute(now_q), a.rounds)

    def cold():
        db.graph.history.views.clear()
        db.execute(as_of_q)
    cold_ms = timed(cold, a.rounds)
    warm_ms = timed(lambda: db.execute(as_of_q), a.rounds)

    def cold_recorded():
        db.graph.history.views.clear()
        db.execute(recorded_q)
    recorded_ms = timed(cold_recorded, a.rounds)
    one = relate.connect(":memory:")
    create_ms = timed(lambda: one.execute("CREATE (:Q {a: 1, b: 'x'})"), a.rounds * 40)
    dated_ms = timed(lambda: one.execute("AT VALID '2020-01-01' CREATE (:Q {a: 1, b: 'x'})"), a.rounds * 40)
    lines = [
        "# Time travel: costs (bench/time_travel.py)",
        "",
        f"Graph: {a.nodes} nodes `(:P {{i, v}})`, `v` written {a.versions} times per node (dated one day "
        f"apart): {versions} property versions in all. Medians of {a.rounds} rounds, in-memory store, "
        "one process, this machine under whatever load it had (2 cores shared).",
        "",
        "| what | ms |",
        "| --- | ---: |",
        f"| valid-now read `{now_q}` | {now_ms:.2f} |",
        f"| as-of read, first time (builds the view of that time) | {cold_ms:.2f} |",
        f"| as-of read again (the cached view) | {warm_ms:.2f} |",
        f"| as-of read with RECORDED halfway, first time | {recorded_ms:.2f} |",
        f"| one dated SET statement over the {a.nodes} nodes (history work included) | {write_ms:.2f} |",
        f"| one SET statement over {a.nodes} nodes, no prefix (history: each node's first change) | "
        f"{plain_ms:.2f} |",
        f"| one CREATE, no prefix | {create_ms:.3f} |",
        f"| one CREATE under AT VALID (a past date) | {dated_ms:.3f} |",
        "",
        f"Memory per version: {per_version:.0f} bytes (tracemalloc growth while writing the versions, "
        f"{grown / 1e6:.1f} MB, over the versions written; includes each transaction's small record and "
        "the statement's own garbage still alive).",
        "",
    ]
    if a.base_tree:
        lines += bytecodes(a.base_tree)
    Path(a.out).write_text("\n".join(lines))
    print("\n".join(lines))


def _per_call(tree: str, query: str) -> float:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "opcodes.py"), query, "--calls", "10", "--top", "0"],
                         env=env, capture_output=True, text=True, check=True).stdout
    return float(out.split()[1])


def bytecodes(base: str) -> list[str]:
    """Bytecodes per call of each benchmark query, before (`base`) and with history."""
    rows = ["## Per statement: bytecodes per call (bench/opcodes.py, scale T)", "",
            "| query | before | with history | ratio |", "| --- | ---: | ---: | ---: |"]
    for q in ("Q1i", "Q1s", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8_one", "Q8_unwind"):
        b, h = _per_call(base, q), _per_call(str(ROOT), q)
        rows.append(f"| {q} | {b:,.1f} | {h:,.1f} | {h / b:.3f} |")
    return rows + [""]


if __name__ == "__main__":
    main()
