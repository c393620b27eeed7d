"""A benchmark query name -> the bytecodes relate runs per call, by function: a count that load on
the machine does not change (wall-clock ratios do, by more than a per-statement change).

    python bench/opcodes.py Q8_one [--calls 300] [--top 30]
    PYTHONPATH=/path/to/other/tree python bench/opcodes.py Q8_one      # the same for another revision
    valgrind --tool=callgrind python bench/opcodes.py Q8_one --calls N --no-trace   # machine instructions

Loads scale T into relate in memory, warms the statement once, then runs `--calls` calls (Q8_one:
one CREATE each; Q8_unwind: one 100-row UNWIND each; the reads cycle through the benchmark's
parameters) under `sys.settrace` with opcode events.  `--no-trace` only runs them: under callgrind,
the instructions of a run with N calls minus those of a run with 0 calls, over N, is the cost of
one call (run it with PYTHONHASHSEED=0 and `setarch -R` so that two runs differ by well under 1%).
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engines.relate_engine import Engine  # noqa: E402
from graphgen import generate  # noqa: E402
from queries import CREATE_ONE  # noqa: E402


def workload(engine: Engine, graph, query: str, calls: int):
    """The warmed-up statement, as a function running it `calls` times."""
    if query == "Q8_one":
        rows = [{"id": 10**6 + i, "name": f"n{i}", "age": 30, "city": "Oslo"} for i in range(calls)]
        engine.db.execute(CREATE_ONE, {"id": 1, "name": "w", "age": 1, "city": "x"})
        return lambda: engine.write_one(rows)
    if query == "Q8_unwind":
        rows = [{"id": 10**6 + i, "name": f"n{i}", "age": 30, "city": "Oslo"} for i in range(100)]
        engine.write_unwind(rows)
        batches = [[dict(r, id=r["id"] + 1000 * (k + 1)) for r in rows] for k in range(calls)]
        return lambda: [engine.write_unwind(b) for b in batches]
    params = graph.params[query]
    engine.query(query, params[0])
    return lambda: [engine.query(query, params[i % len(params)]) for i in range(calls)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("query")
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--no-trace", action="store_true", help="only run the calls (for callgrind)")
    args = ap.parse_args()
    graph = generate("T")
    engine = Engine(":memory:")
    engine.load(graph)
    run = workload(engine, graph, args.query, args.calls)
    if args.no_trace:
        run()
        return
    ops: collections.Counter = collections.Counter()
    frames: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        key = f"{code.co_filename.split('/relate/')[-1]}:{code.co_firstlineno}:{code.co_name}"
        frames[key] += 1

        def local(frame, event, arg):
            if event == "opcode":
                ops[key] += 1
            return local
        return local

    sys.settrace(tracer)
    run()
    sys.settrace(None)
    n = args.calls
    print(f"{args.query}: {sum(ops.values()) / n:.1f} bytecodes and {sum(frames.values()) / n:.1f} frames per call")
    for key, count in ops.most_common(args.top):
        print(f"{count / n:9.1f} {frames[key] / n:7.2f}  {key}")


if __name__ == "__main__":
    main()
