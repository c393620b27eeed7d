"""Bulk import against Cypher `UNWIND` loading: the benchmark graph -> seconds to a durable store.

    .venv/bin/python bench/import.py [--scale S] [--rounds 3] [--out bench/results/import.md]

For the scale's graph (bench/graphgen.py) it measures, each round on a fresh directory store:

* UNWIND: the benchmark harness's own load (`engines/relate_engine.py`: two indexes, then
  5,000-row `UNWIND $rows` batches, relationships finding their ends through the index);
* relate import: the same graph as neo4j-admin CSV files (`id:ID(Person)`, typed columns,
  `:START_ID(Person)`/`:END_ID(Post)`, the type from `--relationships=TYPE=FILE`, the two indexes
  in a schema file), read by `transfer.bulk.import_store`, which the CLI's `relate import` calls;
* export: `relate export --format csv` and `--format cypher` of the loaded store.

Each is timed in wall-clock and in this process's CPU seconds.

Files are written before the clock starts (they are the input).  The median round is reported;
both stores are checked to hold the same counts.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import relate  # noqa: E402
from relate.transfer.bulk import Options, Source, import_store  # noqa: E402

from engines.relate_engine import Engine  # noqa: E402
from graphgen import SCALES, generate  # noqa: E402


def write_files(g, folder: str) -> tuple[list[Source], list[Source], Options]:
    def put(name: str, header: str, rows) -> str:
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(header + "\n")
            f.writelines(",".join(str(x) for x in r) + "\n" for r in rows)
        return path

    persons = put("persons.csv", "id:ID(Person),name,age:long,city", g.persons)
    posts = put("posts.csv", "id:ID(Post),title", g.posts)
    knows = put("knows.csv", ":START_ID(Person),:END_ID(Person),since:long", g.knows)
    created = put("created.csv", ":START_ID(Person),:END_ID(Post)", g.created)
    likes = put("likes.csv", ":START_ID(Person),:END_ID(Post)", g.likes)
    schema = os.path.join(folder, "schema.cypher")
    with open(schema, "w", encoding="utf-8") as f:
        f.write("CREATE INDEX person_id FOR (p:Person) ON (p.id);\nCREATE INDEX post_id FOR (p:Post) ON (p.id);\n")
    nodes = [Source((persons,), ("Person",)), Source((posts,), ("Post",))]
    rels = [Source((knows,), type="KNOWS"), Source((created,), type="CREATED"), Source((likes,), type="LIKES")]
    return nodes, rels, Options(id_type="integer", schema=schema)


def counts(path: str) -> tuple:
    db = relate.connect(path, read_only=True)
    try:
        return (db.execute("MATCH (n) RETURN count(n)").rows[0][0],
                db.execute("MATCH ()-[r]->() RETURN count(r)").rows[0][0],
                db.execute("MATCH (p:Person) RETURN sum(p.age)").rows[0][0], len(db.graph.indexes))
    finally:
        db.close()


class Clock:
    """Wall-clock and this process's CPU seconds of a block (CPU time moves much less than
    wall-clock when other work shares the machine)."""

    def __init__(self, out: dict, name: str) -> None:
        self.out, self.name = out, name

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __exit__(self, *exc):
        self.out[self.name] = time.perf_counter() - self.wall
        self.out[self.name + "-cpu"] = time.process_time() - self.cpu


def one_round(g, tmp: str, sources) -> dict:
    out: dict = {}
    unwind = os.path.join(tmp, "unwind")
    with Clock(out, "unwind"):
        e = Engine(unwind)
        e.load(g)
        e.db.close()
    bulk = os.path.join(tmp, "bulk")
    with Clock(out, "import"):
        import_store(bulk, *sources)
    a, b = counts(unwind), counts(bulk)
    assert a == b, (a, b)
    from relate.cli.main import run
    import io
    for fmt in ("csv", "cypher"):
        with Clock(out, f"export-{fmt}"):
            code = run(["export", bulk, "--format", fmt, "--out", os.path.join(tmp, f"out-{fmt}")],
                       stdout=io.StringIO(), stderr=io.StringIO())
        assert code == 0
    out["counts"] = a
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", default="S", choices=sorted(SCALES))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out")
    args = ap.parse_args()
    g = generate(args.scale)
    rounds = []
    with tempfile.TemporaryDirectory(prefix="relate-bench-import-") as base:
        files = os.path.join(base, "files")
        os.mkdir(files)
        sources = write_files(g, files)
        for i in range(args.rounds):
            tmp = os.path.join(base, f"r{i}")
            os.mkdir(tmp)
            r = one_round(g, tmp, sources)
            print(f"round {i + 1}: " + ", ".join(f"{k} {v:.2f}s" for k, v in r.items() if k != "counts"),
                  file=sys.stderr)
            rounds.append(r)
    names = ("unwind", "import", "export-csv", "export-cypher")
    med = {k: statistics.median(r[k] for r in rounds) for n in names for k in (n, n + "-cpu")}
    nodes, rels, _, _ = rounds[0]["counts"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    text = (f"# Bulk import vs UNWIND loading (scale {args.scale})\n\n"
            f"{nodes:,} nodes and {rels:,} relationships (bench/graphgen.py, seed 42) into a new directory "
            f"store, two indexes; median of {args.rounds} rounds, load average {load:.1f} at the end, Python "
            f"{platform.python_version()}.  `python bench/import.py --scale {args.scale}`.  CPU seconds are "
            "this process's (`time.process_time`), which other work on the machine moves far less than "
            "the wall-clock.\n\n"
            "| path | CPU s | wall s | CPU vs UNWIND |\n| --- | ---: | ---: | ---: |\n"
            f"| Cypher `UNWIND $rows` batches (the harness's load) | {med['unwind-cpu']:.2f} | {med['unwind']:.2f} | "
            "1.00x |\n"
            f"| `relate import` (neo4j-admin CSV, bulk) | {med['import-cpu']:.2f} | {med['import']:.2f} | "
            f"{med['unwind-cpu'] / med['import-cpu']:.1f}x faster |\n"
            f"| `relate export --format csv` | {med['export-csv-cpu']:.2f} | {med['export-csv']:.2f} | |\n"
            f"| `relate export --format cypher` | {med['export-cypher-cpu']:.2f} | {med['export-cypher']:.2f} | |\n")
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
