"""The corpora -> one plain JSON verdict per case, the same function natively and inside Pyodide.

    python tests/pyodide/verdicts.py OUT.json [--suite tck|neo4j5|golden]... [--sample N]

Suites: the public TCK (../shared/tck/features, every scenario, judged strictly by
tests/tck/runner.py), the Neo4j-style corpus (tests/neo4j5/features, by tests/neo4j5/runner.py) and
the golden parse/plan/error cases (tests/golden/cases.py against tests/golden/data).  A record is

    {"id": "tck:<scenario id>" | "neo4j5:<scenario id>" | "golden:<kind>/<name>",
     "status": "pass" | "fail" | "error", "message": "<why it did not pass, else empty>",
     "columns": [...], "rows": ["| v | v |", ...]  (engine order, values in TCK notation),
     "error": {"kind", "tck_type", "phase", "message", "position"} | null,
     "plan": <the relate.plan/v1 document> | null,
     "output": "<a golden case's rendered text>" (golden only)}

where rows, error and plan describe the scenario's `executing query` step (the last one).  Nothing
here knows where it runs: tests/pyodide/run.mjs calls `main` inside Pyodide on the site's wheels,
tests/pyodide/test_verdicts.py calls it natively and compares the two files case by case
(`compare.py`).  No timings in the records (they differ by nature); the file's `meta` carries the
seconds each suite took, for bench/pyodide_tck.py.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SUITES = ("tck", "neo4j5", "golden")


def _error_record(err) -> dict | None:
    from relate.errors import RelateError

    if err is None:
        return None
    if not isinstance(err, RelateError):
        return {"kind": type(err).__name__, "tck_type": None, "phase": None, "message": str(err),
                "position": None}
    pos = None if err.position is None else [err.position.line, err.position.column]
    return {"kind": err.kind, "tck_type": err.tck_type, "phase": err.phase, "message": str(err),
            "position": pos}


def plan_lines(doc: dict | None) -> list[str] | None:
    """A relate.plan/v1 document -> one line per operator, two spaces deeper per level, each the
    operator's fields as sorted JSON.  Walked without recursion (a long clause chain nests deeper
    than json.dumps may go) and read as a diff when two sides differ."""
    if doc is None:
        return None
    head = {k: v for k, v in doc.items() if k != "root"}
    lines = [json.dumps(head, sort_keys=True)]
    stack = [(doc.get("root"), 0)] if doc.get("root") is not None else []
    while stack:
        node, depth = stack.pop()
        fields = {k: v for k, v in node.items() if k != "children"}
        lines.append("  " * depth + json.dumps(fields, sort_keys=True))
        stack.extend((child, depth + 1) for child in reversed(node.get("children", [])))
    return lines


def _recording(base):
    """`base` (a scenario state class) that also keeps what its `executing query` step answered."""
    from tests.tck.values import show

    class Recording(base):
        def execute(self, text: str, control: bool) -> None:
            super().execute(text, control)
            if control:
                return
            res = self.result
            self.answer = {
                "columns": list(res.columns) if res is not None else [],
                "rows": ["| " + " | ".join(show(v) for v in row) + " |" for row in res.rows]
                if res is not None else [],
                "error": _error_record(self.error),
                "plan": plan_lines(res.plan_json()) if res is not None else None,
            }
    return Recording


def _scenario_record(prefix: str, sid: str, verdict, run) -> dict:
    answer = getattr(run, "answer", None) or {"columns": [], "rows": [], "error": None, "plan": None}
    return {"id": f"{prefix}:{sid}", "status": verdict.status,
            "message": "" if verdict.passed else verdict.message, **answer}


def tck_verdicts(features: Path, sample: int | None = None) -> list[dict]:
    from tests.tck import runner as tck

    scenarios = tck.discover(features)
    if sample:
        scenarios = scenarios[::max(1, len(scenarios) // sample)][:sample]
    cls = _recording(tck._Run)
    out = []
    for scenario in scenarios:
        holder = []

        def factory(sc, any_graph):
            holder.append(cls(sc, any_graph))
            return holder[-1]
        verdict = tck.run_scenario(scenario, run_class=factory)
        out.append(_scenario_record("tck", scenario.id, verdict, holder[0] if holder else None))
    return out


def neo4j5_verdicts(features: Path | None = None, sample: int | None = None) -> list[dict]:
    from tests.neo4j5 import runner as neo
    from tests.tck import runner as tck

    scenarios = neo.discover(features or neo.FEATURES)
    if sample:
        scenarios = scenarios[::max(1, len(scenarios) // sample)][:sample]
    cls = _recording(neo.Neo4jRun)
    out = []
    for scenario in scenarios:
        holder = []

        def factory(sc, any_graph):
            holder.append(cls(sc, any_graph))
            return holder[-1]
        verdict = tck.run_scenario(scenario, run_class=factory, step=neo.neo4j_step)
        out.append(_scenario_record("neo4j5", scenario.id, verdict, holder[0] if holder else None))
    return out


def golden_verdicts() -> list[dict]:
    from tests.golden import cases

    out = []
    for kind, name, path, render in cases.all_cases():
        rec = {"id": f"golden:{kind}/{name}", "status": "pass", "message": "", "columns": [], "rows": [],
               "error": None, "plan": None}
        try:
            text, plan, error = render()
        except Exception as exc:  # a case that crashes is a verdict too, never a skipped case
            rec.update(status="error", message=f"{type(exc).__name__}: {exc}")
            out.append(rec)
            continue
        rec.update(output=text, plan=plan_lines(plan), error=error)
        want = path.read_text(encoding="utf-8") if path.exists() else None
        if text != want:
            rec.update(status="fail", message=f"differs from {path.parent.name}/{path.name}")
        out.append(rec)
    return out


def collect(suites=SUITES, tck_features: Path | None = None, sample: int | None = None) -> dict:
    """Every case of `suites` -> {"meta": {...}, "verdicts": [record, ...]}."""
    import platform

    import relate
    from tests.tck.runner import DEFAULT_FEATURES

    verdicts, seconds = [], {}
    for suite in suites:
        t0 = time.perf_counter()
        if suite == "tck":
            verdicts += tck_verdicts(tck_features or DEFAULT_FEATURES, sample)
        elif suite == "neo4j5":
            verdicts += neo4j5_verdicts(sample=sample)
        elif suite == "golden":
            verdicts += golden_verdicts()
        else:
            raise ValueError(f"unknown suite {suite!r}")
        seconds[suite] = round(time.perf_counter() - t0, 3)
    meta = {"python": platform.python_version(), "platform": sys.platform,
            "relate": relate.__file__, "suites": list(suites), "seconds": seconds}
    return {"meta": meta, "verdicts": verdicts}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Write one JSON verdict per case of the corpora.")
    ap.add_argument("out", type=Path)
    ap.add_argument("--suite", action="append", choices=SUITES, help="default: all three")
    ap.add_argument("--features", type=Path, help="the TCK features directory")
    ap.add_argument("--sample", type=int, help="only about N cases of each scenario corpus")
    args = ap.parse_args(argv)
    doc = collect(args.suite or SUITES, args.features, args.sample)
    args.out.write_text(json.dumps(doc, sort_keys=True) + "\n", encoding="utf-8")
    passed = sum(v["status"] == "pass" for v in doc["verdicts"])
    print(f"{len(doc['verdicts'])} cases, {passed} passed", file=sys.stderr)
    return 0


def inside(argv: list[str]) -> None:
    """`main` inside Pyodide (run.mjs under Node, the page's worker in Chromium), once the test
    tree is at /src/tests: refuses to run unless relate comes from the installed wheel."""
    import relate

    sys.dont_write_bytecode = True  # under Node /src/tests is the real tree: leave no 3.14 bytecode
    if "/site-packages/relate/" not in relate.__file__:
        raise SystemExit(f"relate was imported from {relate.__file__}, not from the installed wheel")
    code = main(argv)
    if code:
        raise SystemExit(code)


if __name__ == "__main__":
    sys.exit(main())
