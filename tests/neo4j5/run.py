"""Command: run the Neo4j 5 corpus (tests/neo4j5/features) strictly against relate.

    python tests/neo4j5/run.py [--features DIR] [--failures] [--no-write] [--json REPORT]

Prints pass/fail per feature and per construct and a total; writes tests/neo4j5/STATUS.md
(counts by feature and construct, one line per failing scenario saying why) and
tests/neo4j5/GAPS.md (per construct: what relate does today and the smallest failing query,
sorted by how many cases each gap fails).  The last line is always `N passed, M failed`.
Exit status 0 always (most cases fail until the constructs are built); `--strict` exits 1 on
any failure.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.neo4j5.gaps import write_gaps  # noqa: E402
from tests.neo4j5.runner import FEATURES, HERE, discover, run_one  # noqa: E402


def _pct(p: int, t: int) -> str:
    return f"{100.0 * p / t:5.1f}%" if t else "  n/a"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Run the Neo4j 5 corpus against relate.")
    ap.add_argument("--features", type=Path, default=FEATURES)
    ap.add_argument("--failures", action="store_true", help="print each failing scenario and why")
    ap.add_argument("--no-write", action="store_true", help="do not rewrite STATUS.md and GAPS.md")
    ap.add_argument("--json", type=Path, dest="json_report")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--strict", action="store_true", help="exit 1 unless every case passes")
    args = ap.parse_args(argv)

    outcomes = [run_one(s, timeout=args.timeout) for s in discover(args.features)]
    by_feature: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_construct: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for o in outcomes:
        by_feature[o.verdict.scenario.feature][0 if o.verdict.passed else 1] += 1
        by_construct[o.construct][0 if o.verdict.passed else 1] += 1
    passed = sum(o.verdict.passed for o in outcomes)
    failed = len(outcomes) - passed

    w = max([len(f) for f in by_feature] + [len(c) for c in by_construct] + [8])
    print("per feature")
    for f in sorted(by_feature):
        p, n = by_feature[f]
        print(f"  {f:<{w}}  {p:4d}/{p + n:<4d} {_pct(p, p + n)}")
    print("per construct")
    for c in sorted(by_construct):
        p, n = by_construct[c]
        print(f"  {c:<{w}}  {p:4d}/{p + n:<4d} {_pct(p, p + n)}")
    if args.failures:
        for o in outcomes:
            if not o.verdict.passed:
                print(f"\n{o.verdict.status.upper()} {o.verdict.scenario.id}  {o.verdict.scenario.name}\n"
                      f"{o.verdict.message}")
    print(f"total: {passed}/{len(outcomes)} ({_pct(passed, len(outcomes)).strip()})")

    if not args.no_write:
        write_status(HERE / "STATUS.md", outcomes, by_feature, by_construct)
        write_gaps(HERE / "GAPS.md", outcomes)
    if args.json_report:
        args.json_report.write_text(json.dumps({
            "passed": passed, "failed": failed, "total": len(outcomes),
            "scenarios": [{"id": o.verdict.scenario.id, "name": o.verdict.scenario.name,
                           "construct": o.construct, "status": o.verdict.status,
                           "category": o.category, "why": o.why} for o in outcomes],
        }, indent=1) + "\n", encoding="utf-8")
    print(f"{passed} passed, {failed} failed")
    return 1 if (args.strict and failed) else 0


def write_status(path: Path, outcomes, by_feature, by_construct) -> None:
    passed = sum(o.verdict.passed for o in outcomes)
    cats = Counter(o.category for o in outcomes if not o.verdict.passed)
    lines = ["# Neo4j 5 corpus: status", "",
             "Written by `python tests/neo4j5/run.py`; do not edit by hand.", "",
             f"Total: **{passed}/{len(outcomes)}** pass ({_pct(passed, len(outcomes)).strip()}).", ""]
    vacuous = sum(o.vacuous for o in outcomes)
    if vacuous:
        lines += [f"{vacuous} of the passes expect an error and pass only because relate cannot parse the "
                  f"statement; without them {passed - vacuous}/{len(outcomes)} "
                  f"({_pct(passed - vacuous, len(outcomes)).strip()}).", ""]
    if cats:
        lines += ["Failures by kind: " + ", ".join(f"{k} {v}" for k, v in cats.most_common()) + ".", ""]
    lines += ["## By feature", "", "| feature | pass | total | rate |", "|---|---:|---:|---:|"]
    for f in sorted(by_feature):
        p, n = by_feature[f]
        lines.append(f"| {f} | {p} | {p + n} | {_pct(p, p + n).strip()} |")
    lines += ["", "## By construct", "", "| construct | pass | total | rate |", "|---|---:|---:|---:|"]
    for c in sorted(by_construct):
        p, n = by_construct[c]
        lines.append(f"| {c} | {p} | {p + n} | {_pct(p, p + n).strip()} |")
    lines += ["", "## Failing scenarios", ""]
    current = None
    for o in outcomes:
        if o.verdict.passed:
            continue
        if o.verdict.scenario.feature != current:
            current = o.verdict.scenario.feature
            lines += ["", f"### {current}", ""]
        why = o.why.replace("|", "\\|").replace("\n", " ")
        lines.append(f"- `{o.verdict.scenario.id}` {o.verdict.scenario.name}: {why}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
