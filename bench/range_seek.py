"""A range index seek against the label scan it replaces, on the benchmark's people.

    .venv/bin/python bench/range_seek.py [--scale S] [--rounds 7] [--out bench/results/range_seek.md]

The :Person nodes of `graphgen.generate(scale)` (id, name, age, city) are loaded into one
in-memory database with range indexes on (:Person {id}) and (:Person {name}).  Each statement
below runs warm with the planner's `index_seek` rule on (the seek) and off (the label scan with
the same tests pushed into it), on the same graph, and both answers are checked equal.  Printed
and, with `--out`, written as Markdown: the median seconds of each side and scan/seek.  A second
table times writes: 2,000 `SET`s of an indexed property before any range seek (the ordered keys are not
kept yet) and after one (each write moves one key), against the same write with no index.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import relate  # noqa: E402
from graphgen import generate  # noqa: E402
from relate.plan import rules  # noqa: E402

STATEMENTS = [
    ("id range, 10 rows", "MATCH (p:Person) WHERE p.id >= $lo AND p.id < $hi RETURN p.name", {"lo": 4321, "hi": 4331}),
    ("id chain, 1% of people", "MATCH (p:Person) WHERE $lo < p.id <= $hi RETURN count(*)", None),
    ("id > high, 5 rows", "MATCH (p:Person) WHERE p.id > $top RETURN p.id", None),
    ("id IN 5 values", "MATCH (p:Person) WHERE p.id IN $ids RETURN p.name", {"ids": [3, 99, 1234, 5000, 77]}),
    ("name STARTS WITH", "MATCH (p:Person) WHERE p.name STARTS WITH $prefix RETURN p.id", {"prefix": "Ada-12"}),
    ("range and a pushed test", "MATCH (p:Person) WHERE p.id < 200 AND p.city = 'Oslo' RETURN p.id", {}),
]


def load(scale: str) -> tuple[relate.Database, int]:
    g = generate(scale)
    db = relate.connect()
    db.execute("CREATE INDEX person_id FOR (p:Person) ON (p.id)")
    db.execute("CREATE INDEX person_name FOR (p:Person) ON (p.name)")
    rows = [{"id": i, "name": n, "age": a, "city": c} for i, n, a, c in g.persons]
    db.execute("UNWIND $rows AS r CREATE (:Person {id: r.id, name: r.name, age: r.age, city: r.city})",
               {"rows": rows})
    return db, len(rows)


def timed(db, text: str, params: dict, rounds: int) -> tuple[float, Counter]:
    answer = Counter(db.execute(text, params).rows)  # warm: the plan is cached, the keys ordered
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        db.execute(text, params)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples), answer


def with_rules_off(off: str, fn):
    before = os.environ.get(rules.ENVIRONMENT_VARIABLE)
    os.environ[rules.ENVIRONMENT_VARIABLE] = off
    try:
        return fn()
    finally:
        if before is None:
            del os.environ[rules.ENVIRONMENT_VARIABLE]
        else:
            os.environ[rules.ENVIRONMENT_VARIABLE] = before


def writes(scale: str, rounds: int) -> list[tuple[str, float]]:
    """Median microseconds per statement of 2,000 one-node SETs of an indexed property, three ways."""
    out = []
    for label, index, seek_first in (("no index", False, False), ("index, no range seek yet", True, False),
                                     ("index, keys ordered by a seek", True, True)):
        db, n = load(scale)
        if not index:
            db.execute("DROP INDEX person_id")
        if seek_first:
            db.execute("MATCH (p:Person) WHERE p.id < 3 RETURN p.id")
        samples = []
        for r in range(rounds):
            t0 = time.perf_counter()
            for k in range(2000):
                db.execute("MATCH (p:Person {name: $name}) SET p.id = $v",
                           {"name": f"Ada-{(k * 20) % n}", "v": n + r * 10_000 + k})
            samples.append((time.perf_counter() - t0) / 2000 * 1e6)
        out.append((label, statistics.median(samples)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", default="S")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out")
    args = ap.parse_args()
    db, n = load(args.scale)
    defaults = {"lo": n // 2, "hi": n // 2 + n // 100, "top": n - 6}
    lines = [f"# Range index seek vs label scan (scale {args.scale}, {n} :Person)", "",
             f"Python {platform.python_version()}, {platform.machine()}; median of {args.rounds} warm runs.", "",
             "| statement | seek (ms) | scan (ms) | scan/seek |", "| --- | ---: | ---: | ---: |"]
    for name, text, params in STATEMENTS:
        p = dict(defaults, **(params or {}))
        seek, a = timed(db, text, p, args.rounds)
        # another text (a trailing space), so the plan cache holds a plan made with the rule off
        scan, b = with_rules_off("index_seek", lambda: timed(db, text + " ", p, args.rounds))
        assert a == b, name
        plan = db.execute("EXPLAIN " + text, p).plan.children
        assert "index seek" in str(plan), name
        lines.append(f"| {name} | {seek * 1e3:.3f} | {scan * 1e3:.3f} | {scan / seek:.1f}x |")
    lines += ["", "Writes: 2,000 statements `MATCH (p:Person {name: $name}) SET p.id = $v` (name indexed), "
              "time per statement:", "", "| person_id index | microseconds |", "| --- | ---: |"]
    for label, us in writes(args.scale, max(3, args.rounds // 2)):
        lines.append(f"| {label} | {us:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
