"""The corpora -> one plain JSON verdict per case, the same function natively and inside Pyodide.

    python tests/pyodide/verdicts.py OUT.json [--suite tck|neo4j5|golden|unit]... [--sample N]
                                             [--unit PATH]...

Suites: the public TCK (../shared/tck/features, every scenario, judged strictly by
tests/tck/runner.py), the Neo4j-style corpus (tests/neo4j5/features, by tests/neo4j5/runner.py),
the golden parse/plan/error cases (tests/golden/cases.py against tests/golden/data) and the engine's
unit tests (tests/unit under pytest, less what cannot run in a browser: `unit_verdicts`).  A record is

    {"id": "tck:<scenario id>" | "neo4j5:<scenario id>" | "golden:<kind>/<name>" | "unit:<node id>",
     "status": "pass" | "fail" | "error" | "skip", "message": "<why it did not pass, else empty>",
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

SUITES = ("tck", "neo4j5", "golden", "unit")
# pytest's arguments for the unit suite, the same on both sides (no ini file is read inside
# Pyodide, so none is natively: the options are all here)
UNIT_ARGS = ("-qq", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--capture=sys",
             "-o", "addopts=", "-m", "not needs_processes and not needs_native_stack")


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


# test-only packages with CPython extensions (or built on them): no Pyodide wheel in the set, so
# a module importing one is left out on both sides (importing it in Pyodide would stop collection)
_NATIVE_ONLY = ("hypothesis", "bm25s", "numpy", "scipy", "static_model")


def _imports_hypothesis(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    return any(f"import {m}" in text or f"from {m}" in text for m in _NATIVE_ONLY)


def unit_verdicts(not_applicable: list[str], select: list[str] | None = None) -> list[dict]:
    """tests/unit under pytest (in this interpreter), one record per test, pass only when its
    setup, call and teardown all passed.  Left out on both sides alike: tests that start a thread
    or a process (marked `needs_processes`) or build a value nested thousands deep
    (`needs_native_stack`: freeing one overflows Pyodide's stack, see web/index.md), modules that
    import hypothesis (its pinned wheel has a CPython extension, so it cannot load in Pyodide), and
    tests whose `skipif` holds here (named in `not_applicable`; a test that skips while it runs is
    a `skip` verdict, which compare.py counts as a difference)."""
    import pytest
    from _pytest.skipping import evaluate_skip_marks

    tests = Path(__file__).resolve().parents[1]
    records: dict[str, dict] = {}

    def record(nodeid: str) -> dict:
        return records.setdefault(nodeid, {"id": f"unit:{nodeid}", "status": "pass", "message": "",
                                           "columns": [], "rows": [], "error": None, "plan": None})

    class Collect:
        def pytest_ignore_collect(self, collection_path, config):
            if collection_path.suffix == ".py" and collection_path.name.startswith("test_") \
                    and _imports_hypothesis(collection_path):
                where = collection_path.relative_to(tests.parent).as_posix()
                not_applicable.append(f"unit:{where} (a native-only test package)")
                return True
            return None

        def pytest_collection_modifyitems(self, session, config, items):
            keep = []
            for item in items:
                skip = evaluate_skip_marks(item)
                if skip is None:
                    keep.append(item)
                else:
                    not_applicable.append(f"unit:{item.nodeid} ({skip.reason})")
            items[:] = keep

        def pytest_runtest_logreport(self, report):
            rec = record(report.nodeid)
            if report.outcome == "passed" or rec["status"] != "pass":
                return
            crash = getattr(report.longrepr, "reprcrash", None)
            rec["status"] = "skip" if report.skipped else "fail" if report.when == "call" else "error"
            rec["message"] = f"{report.when}: " + (crash.message if crash is not None else str(report.longrepr))

        def pytest_collectreport(self, report):
            if report.failed:
                record(report.nodeid).update(status="error", message=f"collection: {report.longrepr}")

    paths = [str(tests / "unit" / p) for p in select] if select else [str(tests / "unit")]
    pytest.main([*paths, "--rootdir", str(tests.parent), *UNIT_ARGS], plugins=[Collect()])
    return list(records.values())


def collect(suites=SUITES, tck_features: Path | None = None, sample: int | None = None,
            unit_select: list[str] | None = None) -> dict:
    """Every case of `suites` -> {"meta": {...}, "verdicts": [record, ...]}."""
    import platform

    import relate
    from tests.tck.runner import DEFAULT_FEATURES

    verdicts, seconds, not_applicable = [], {}, []
    for suite in suites:
        t0 = time.perf_counter()
        if suite == "tck":
            verdicts += tck_verdicts(tck_features or DEFAULT_FEATURES, sample)
        elif suite == "neo4j5":
            verdicts += neo4j5_verdicts(sample=sample)
        elif suite == "golden":
            verdicts += golden_verdicts()
        elif suite == "unit":
            verdicts += unit_verdicts(not_applicable, unit_select)
        else:
            raise ValueError(f"unknown suite {suite!r}")
        seconds[suite] = round(time.perf_counter() - t0, 3)
    meta = {"python": platform.python_version(), "platform": sys.platform,
            "relate": relate.__file__, "suites": list(suites), "seconds": seconds,
            "not_applicable": not_applicable}
    return {"meta": meta, "verdicts": verdicts}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Write one JSON verdict per case of the corpora.")
    ap.add_argument("out", type=Path)
    ap.add_argument("--suite", action="append", choices=SUITES, help="default: all of them")
    ap.add_argument("--features", type=Path, help="the TCK features directory")
    ap.add_argument("--sample", type=int, help="only about N cases of each scenario corpus")
    ap.add_argument("--unit", action="append", metavar="PATH", help="only these paths under tests/unit")
    args = ap.parse_args(argv)
    doc = collect(args.suite or SUITES, args.features, args.sample, args.unit)
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
