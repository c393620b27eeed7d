"""Command: run the openCypher TCK strictly against relate and print per-area figures.

    python tests/tck/run.py --features DIR [--list FILE] [--area PREFIX]... [--exclude-area PREFIX]...
                            [--json REPORT] [--failures] [--any-graph NAME] [--write-manifest FILE]

The last line printed is always `N passed, M failed` (harness errors count as failed).
Exit status: 0 when every selected scenario passes, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.tck.runner import DEFAULT_FEATURES, discover, run_scenario  # noqa: E402


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0][:160] if message.strip() else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Run the openCypher TCK strictly against relate.")
    ap.add_argument("--features", type=Path, default=DEFAULT_FEATURES,
                    help="the TCK features directory")
    ap.add_argument("--list", type=Path, dest="list_file",
                    help="a file naming one feature file per line (absolute or relative to --features)")
    ap.add_argument("--area", action="append", default=[], help="only areas under this prefix")
    ap.add_argument("--exclude-area", action="append", default=[], help="skip areas under this prefix")
    ap.add_argument("--json", type=Path, dest="json_report", help="write a JSON report here")
    ap.add_argument("--failures", action="store_true", help="print each failing scenario and why")
    ap.add_argument("--any-graph", default=None,
                    help="load this named graph for `Given any graph` (default: empty)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per scenario")
    ap.add_argument("--write-manifest", type=Path,
                    help="write the failing scenarios as an expected-failures manifest")
    args = ap.parse_args(argv)

    scenarios = discover(args.features, args.list_file, args.area, args.exclude_area)
    verdicts = [run_scenario(s, any_graph=args.any_graph, timeout=args.timeout) for s in scenarios]

    per_area: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for v in verdicts:
        per_area[v.scenario.area][0 if v.passed else 1] += 1
        if v.status == "error":
            per_area[v.scenario.area][2] += 1
    width = max([len(a) for a in per_area] + [4])
    for area in sorted(per_area):
        p, f, e = per_area[area]
        total = p + f
        extra = f"  ({e} harness errors)" if e else ""
        print(f"{area:<{width}}  {p:5d}/{total:<5d} {100.0 * p / total:6.1f}%{extra}")
    if args.failures:
        for v in verdicts:
            if not v.passed:
                print(f"\n{v.status.upper()} {v.scenario.id}  {v.scenario.name}\n{v.message}")
    passed = sum(v.passed for v in verdicts)
    failed = len(verdicts) - passed
    if verdicts:
        print(f"strict pass rate: {100.0 * passed / len(verdicts):.2f}% of {len(verdicts)}")
    if args.json_report:
        report = {
            "features": str(args.features),
            "passed": passed, "failed": failed, "total": len(verdicts),
            "areas": {a: {"passed": p, "failed": f, "errors": e} for a, (p, f, e) in sorted(per_area.items())},
            "scenarios": [{"id": v.scenario.id, "name": v.scenario.name, "area": v.scenario.area,
                           "status": v.status, "message": v.message, "seconds": round(v.seconds, 4)}
                          for v in verdicts],
        }
        args.json_report.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if args.write_manifest:
        lines = [f"{v.scenario.id} {_first_line(v.message) or v.status}" for v in verdicts if not v.passed]
        args.write_manifest.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
