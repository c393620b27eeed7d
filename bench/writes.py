"""Writes between reads (issue 22): the floor and relate in memory in one process, alternating,
-> a Markdown table of the scans alone and after each kind of single-node write, with relate's
time over the floor's.

    python bench/writes.py [--scale S] [--rounds 5] [--budget 0.5]

Each round times every query once on each side (`measure.time_query`, the harness's own warm
median); a figure is the median over rounds.  Both engines sit in one process and take turns, so
a busy machine slows both alike and the ratio holds better than two runs an hour apart.  The
queries are the harness's (`queries.MIXED_QUERIES`, `UPDATE_QUERIES`): `_w` writes a node of
another label before each read, `_wu` sets one :Person's age (the scanned label) to its value.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if HERE.parent.joinpath("relate").is_dir():
    sys.path.append(str(HERE.parent))

import measure  # noqa: E402
from engines.floor import Engine as Floor  # noqa: E402
from engines.relate_engine import Engine as Relate  # noqa: E402
from graphgen import generate  # noqa: E402
from queries import MIXED_QUERIES, UPDATE_QUERIES, canonical, mixed_base  # noqa: E402

READS = ("Q1s", "Q4", "Q5")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", default="S")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.5)
    args = ap.parse_args()
    graph = generate(args.scale)
    sides = {"floor": Floor(), "relate": Relate(":memory:")}
    for engine in sides.values():
        engine.load(graph)
    queries = READS + MIXED_QUERIES + UPDATE_QUERIES
    runners = {}
    for name, engine in sides.items():
        for q in queries:
            if q in READS:
                runners[name, q] = engine
            else:
                mixed = measure._Mixed(engine, graph, q)
                read, _ = mixed_base(q)
                want = [canonical(read, sides["floor"].query(read, p)) for p in graph.params[read]]
                got = [canonical(read, mixed.query(q, p)) for p in graph.params[read]]
                if got != want:
                    raise SystemExit(f"{name} {q}: answers differ from the floor's plain read")
                runners[name, q] = mixed
    times: dict = {key: [] for key in runners}
    for _ in range(args.rounds):
        for q in queries:
            for name in sides:
                params = graph.params[q if q in READS else mixed_base(q)[0]]
                times[name, q].append(measure.time_query(runners[name, q], params, q, args.budget))
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"<!-- python bench/writes.py --scale {args.scale} --rounds {args.rounds} --budget {args.budget}, {stamp} -->")
    print("| query | floor | relate | relate/floor |")
    print("| --- | ---: | ---: | ---: |")
    for q in queries:
        f = statistics.median(times["floor", q])
        r = statistics.median(times["relate", q])
        print(f"| {q} | {f * 1e6:.1f} µs | {r * 1e6:.1f} µs | {r / f:.2f}x |")


if __name__ == "__main__":
    main()
