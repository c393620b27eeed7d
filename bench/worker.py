"""One engine in one process: `worker.py ENGINE SCALE OUT.json [--expected FLOOR.json]`.

Generates the graph from its seed, loads and measures the engine (bench/measure.py), adds what
only a real process can measure (resident memory before and after the load, peak memory, and for
durable stores the disk size and the time to reopen the store and answer one lookup), and writes
it all as JSON.  `--memory-only` stops after the load and the scan queries Q1s, Q4 and Q5 (run
twice each, so caches a scan builds are in the figure: the scale-M memory comparison).
The runner starts it with the project's venv for relate and the floor and with the peers' venv for
the others, so Kuzu and LadybugDB never share a process.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
if HERE.parent.joinpath("relate").is_dir():
    sys.path.append(str(HERE.parent))  # this tree's relate where it is not installed (last: never shadows)

from graphgen import generate  # noqa: E402
import measure  # noqa: E402

ENGINES = ("floor", "relate-mem", "relate-dir", "grand-cypher", "kuzu", "kuzu-mem", "ladybug",
           "ladybug-mem", "graphdblite", "graphdblite-mem", "kglite", "kglite-mem")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def disk_bytes(path: str) -> int:
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def make(name: str, scratch: str):
    if name == "floor":
        from engines.floor import Engine
        return Engine()
    if name == "relate-mem":
        from engines.relate_engine import Engine
        return Engine(":memory:")
    if name == "relate-dir":
        from engines.relate_engine import Engine
        return Engine(os.path.join(scratch, "store"))
    if name == "grand-cypher":
        from engines.grandcypher_engine import Engine
        return Engine()
    if name in ("kuzu", "ladybug", "kuzu-mem", "ladybug-mem"):
        from engines.kuzu_engine import Engine
        return Engine(name.removesuffix("-mem"), None if name.endswith("-mem") else scratch)
    if name in ("graphdblite", "graphdblite-mem"):
        from engines.graphdblite_engine import Engine
        return Engine(None if name.endswith("-mem") else scratch)
    if name in ("kglite", "kglite-mem"):
        from engines.kglite_engine import Engine
        return Engine(None if name.endswith("-mem") else scratch)
    raise SystemExit(f"unknown engine {name}")


def reopen_hook(graph):
    """After the load of a durable store: close it, weigh it, reopen it and answer one lookup."""
    def hook(engine, out):
        engine.close()
        out["extra"]["disk_bytes"] = disk_bytes(engine.path)
        t0 = time.perf_counter()
        engine.reopen()
        engine.query("Q1i", graph.params["Q1i"][0])
        out["extra"]["reopen_s"] = time.perf_counter() - t0
    return hook


WARM_QUERIES = ("Q1s", "Q4", "Q5")  # the scans: relate builds its label columns the second time


def warm_caches(engine, graph) -> list[str]:
    """Before memory is weighed after a load: run each scan query twice, so what an engine keeps
    for them (relate's label-column caches) is built and counted, as it is once it serves
    reads -> the queries run."""
    ran = []
    for q in WARM_QUERIES:
        if q in engine.supports:
            for _ in range(2):
                engine.query(q, graph.params[q][0])
            ran.append(q)
    return ran


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", choices=ENGINES)
    ap.add_argument("scale")
    ap.add_argument("out")
    ap.add_argument("--expected")
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--memory-only", action="store_true")
    args = ap.parse_args()
    graph = generate(args.scale)
    expected = json.loads(Path(args.expected).read_text())["answers"] if args.expected else None
    scratch = tempfile.mkdtemp(prefix="relate-bench-")
    try:
        engine = make(args.engine, scratch)
        gc.collect()
        before = rss_bytes()
        if args.memory_only:
            t0 = time.perf_counter()
            engine.load(graph)
            out = {"engine": engine.name, "times": {"load": time.perf_counter() - t0}, "extra": {}}
            out["extra"]["warm_queries"] = warm_caches(engine, graph)
        else:
            hook = reopen_hook(graph) if getattr(engine, "path", None) else None
            out = measure.run(engine, graph, expected, budget=args.budget, after_load=hook)
        if hasattr(engine, "load_plan"):
            out["extra"]["load_plan"] = engine.load_plan()
        gc.collect()
        out["extra"]["rss_growth_bytes"] = rss_bytes() - before
        out["extra"]["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        engine.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    out["engine"] = args.engine
    Path(args.out).write_text(json.dumps(out))


if __name__ == "__main__":
    main()
