"""A query name -> where relate spends its time on it: cProfile over repeated warm calls.

    python bench/profile_query.py Q5 [--scale S] [--calls 200] [--top 25]

Loads the scale into relate in memory (as the benchmark does), warms the query once, then profiles
`--calls` calls cycling through the benchmark's parameter sets and prints the functions with the
most time of their own, and the cumulative view.  Used to write the report's gap analysis.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engines.relate_engine import Engine  # noqa: E402
from graphgen import generate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("query")
    ap.add_argument("--scale", default="S")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    graph = generate(args.scale)
    engine = Engine(":memory:")
    engine.load(graph)
    params = graph.params[args.query]
    engine.query(args.query, params[0])
    prof = cProfile.Profile()
    prof.enable()
    for i in range(args.calls):
        engine.query(args.query, params[i % len(params)])
    prof.disable()
    for order in ("tottime", "cumulative"):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).sort_stats(order).print_stats(args.top)
        print(buf.getvalue())


if __name__ == "__main__":
    main()
