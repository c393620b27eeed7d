"""Per-engine results of one run -> bench/results/<scale>.json, <scale>-details.json, <scale>.md.

    python bench/report.py S     re-renders results/S.md from results/S-details.json (no new run)

`<scale>.json` has exactly {"engines": {engine: {query: median seconds}}}, only for figures that
were measured on a checked answer.  The details file keeps the rest (each query's status, memory,
disk, reopen time, the run's settings).  The Markdown report gives the medians, the ratios of
relate to every other engine (all from this one run), each target of issue 9 with met / missed
and by how much, and, when `<scale>-analysis.md` exists beside it, that hand-written reading.
"""
from __future__ import annotations

import json
from pathlib import Path

from queries import ALL_QUERIES, MIXED_QUERIES, READ_QUERIES, TITLES, UPDATE_QUERIES

RELATE = "relate-mem"
PEERS = ("kuzu", "kuzu-mem", "ladybug", "ladybug-mem", "graphdblite", "graphdblite-mem",
         "kglite", "kglite-mem", "grand-cypher")
POINT = ("Q1i", "Q2", "Q3", "Q6", "Q7")
SCAN = ("Q1s", "Q4", "Q5")


def fmt_s(v: float | None) -> str:
    if v is None:
        return "—"
    if v < 1e-3:
        return f"{v * 1e6:.1f} µs"
    if v < 1:
        return f"{v * 1e3:.2f} ms"
    return f"{v:.2f} s"


def fmt_bytes(v: int | None) -> str:
    if v is None:
        return "—"
    return f"{v / 2**20:.1f} MiB"


def cell(res: dict, q: str) -> str:
    if "failed" in res:
        return "failed"
    if q in res["times"]:
        return fmt_s(res["times"][q])
    status = res["status"].get(q, "not run")
    if status == "unsupported" or status.startswith("error: NotImplementedError"):
        return "unsupported"
    if status.startswith("wrong"):
        return "wrong answer"
    if status.startswith("error"):
        return "error"
    return status


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def targets(results: dict, memory: dict, scale: str = "S") -> list[tuple[str, str, bool | None, str]]:
    """Issue 9's (target, query, met, detail) rows; met None when it could not be measured."""
    rel = results.get(RELATE, {}).get("times", {})
    rows = []
    for q in POINT:
        peers = {p: results[p]["times"][q] for p in PEERS if q in results.get(p, {}).get("times", {})}
        if not peers:
            rows.append(("faster than the fastest peer", q, None, "no peer answered correctly"))
            continue
        best = min(peers, key=peers.get)
        r = ratio(rel.get(q), peers[best])
        if r is None:
            rows.append(("faster than the fastest peer", q, False,
                         f"relate: {cell(results.get(RELATE, {}), q)}; fastest peer {best} {fmt_s(peers[best])}"))
        else:
            rows.append(("faster than the fastest peer", q, r < 1,
                         f"relate {fmt_s(rel[q])} vs {best} {fmt_s(peers[best])}: {r:.2f}x its time"))
    floor = results.get("floor", {}).get("times", {})
    for q in SCAN:
        r = ratio(rel.get(q), floor.get(q))
        rows.append(("within 3x of the CPython floor", q, None if r is None else r <= 3,
                     "not measured" if r is None else
                     f"relate {fmt_s(rel[q])} vs floor {fmt_s(floor[q])}: {r:.2f}x"))
    for q in ("Q8_one", "Q8_unwind"):
        peers = {p: results[p]["times"][q] for p in PEERS if q in results.get(p, {}).get("times", {})}
        best = min(peers, key=peers.get) if peers else None
        r = ratio(rel.get(q), peers.get(best)) if best else None
        rows.append(("in memory faster than every peer", q, None if r is None else r < 1,
                     "not measured" if r is None else
                     f"relate {fmt_s(rel[q])} vs {best} {fmt_s(peers[best])}: {r:.2f}x its time"))
    load = rel.get("load")
    plan = results.get(RELATE, {}).get("extra", {}).get("load_plan", "")
    if scale != "S":  # issue 9's load and next-scale memory targets are about scale S
        load = None
    seek = "the KNOWS load seeks the id index" if "NodeIndexSeek" in plan else f"KNOWS load plan: {plan}"
    if scale == "S":
        rows.append(("scale loaded in memory within 1.5 s", "load", None if load is None else load <= 1.5,
                     "not measured" if load is None else
                     f"{fmt_s(load)} ({load / 1.5:.2f}x the target); {seek}"))
    gc_times = results.get("grand-cypher", {}).get("times", {})
    for q in READ_QUERIES:
        if q in gc_times:
            r = ratio(gc_times[q], rel.get(q))
            rows.append((">= 20x faster than grand-cypher", q, None if r is None else r >= 20,
                         "not measured" if r is None else
                         f"grand-cypher {fmt_s(gc_times[q])} / relate {fmt_s(rel[q])} = {r:.1f}x"))
    if memory:
        fm = memory.get("floor", {}).get("extra", {}).get("rss_growth_bytes")
        rm = memory.get(RELATE, {}).get("extra", {}).get("rss_growth_bytes")
        r = ratio(rm, fm)
        rows.append(("memory after loading the next scale within 1.5x of the floor's", "memory",
                     None if r is None else r <= 1.5,
                     "not measured" if r is None else f"relate {fmt_bytes(rm)} vs floor {fmt_bytes(fm)}: {r:.2f}x"))
    br = results.get("relate-browser", {}).get("times", {})
    for q in READ_QUERIES + ("Q8_one", "Q8_unwind", "load"):
        if q in rel:
            r = ratio(br.get(q), rel[q])
            rows.append(("browser within 2.5x of native", q, None if r is None else r <= 2.5,
                         "not measured" if r is None else
                         f"browser {fmt_s(br[q])} vs native {fmt_s(rel[q])}: {r:.2f}x"))
    return rows


def targets_22(results: dict, scale: str) -> list[tuple[str, str, bool | None, str]]:
    """Issue 22's rows that bench/run.py can judge at this scale (the rest: M-analysis.md)."""
    rel = results.get(RELATE, {})
    floor = results.get("floor", {})
    rt, ft = rel.get("times", {}), floor.get("times", {})
    rows = []
    for q in MIXED_QUERIES + UPDATE_QUERIES:
        r = ratio(rt.get(q), ft.get(q))
        rows.append(("within 3x of a floor that also writes", q, None if r is None else r <= 3,
                     "not measured" if r is None else
                     f"relate {fmt_s(rt[q])} vs floor {fmt_s(ft[q])}: {r:.2f}x"))
    if scale == "S":
        for q in READ_QUERIES + ("Q8_one", "Q8_unwind"):
            r = ratio(rt.get(q), ft.get(q))
            rows.append(("per-statement cost within 8x of the floor", q, None if r is None else r <= 8,
                         "not measured" if r is None else
                         f"relate {fmt_s(rt[q])} vs floor {fmt_s(ft[q])}: {r:.2f}x"))
    r = ratio(rt.get("load"), ft.get("load"))
    rows.append(("loaded through UNWIND batches within 4x of the floor", "load", None if r is None else r <= 4,
                 "not measured" if r is None else
                 f"relate {fmt_s(rt['load'])} vs floor {fmt_s(ft['load'])}: {r:.2f}x"))
    if scale == "M":
        rm = rel.get("extra", {}).get("rss_growth_bytes")
        fm = floor.get("extra", {}).get("rss_growth_bytes")
        r = ratio(rm, fm)
        rows.append(("memory at M within 1.3x of the floor's (every query run: caches built)", "memory",
                     None if r is None else r <= 1.3,
                     "not measured" if r is None else f"relate {fmt_bytes(rm)} vs floor {fmt_bytes(fm)}: {r:.2f}x"))
    return rows


def growth(out_dir: Path, scale: str, results: dict) -> list[str]:
    """When a smaller scale's JSON sits beside this run: each engine's time at this scale over that one."""
    smaller = {"M": "S", "S": "T"}.get(scale)
    src = out_dir / f"{smaller}.json"
    if smaller is None or not src.is_file():
        return []
    before = json.loads(src.read_text())["engines"]
    names = [n for n in results if n in before]
    lines = ["", f"## Growth from {smaller} to {scale}: each engine's median at {scale} over its median "
             f"at {smaller} (`{smaller}.json`, an earlier run; the graph is ten times larger)", "",
             "| query | " + " | ".join(names) + " |", "| --- | " + " | ".join("---:" for _ in names) + " |"]
    for q in ALL_QUERIES:
        row = []
        for n in names:
            r = ratio(results[n].get("times", {}).get(q), before[n].get(q))
            row.append("—" if r is None else f"{r:.1f}")
        lines.append(f"| {q} | " + " | ".join(row) + " |")
    lines += ["", f"Chart: `{smaller}{scale}-growth.png` (bench/growth.py)."]
    return lines


def write(out_dir: Path, scale: str, results: dict, memory: dict, meta: dict) -> dict:
    figures = {"engines": {name: {q: res["times"][q] for q in ALL_QUERIES if q in res.get("times", {})}
                           for name, res in results.items()}}
    json_path = out_dir / f"{scale}.json"
    json_path.write_text(json.dumps(figures, indent=2) + "\n")
    details = {"meta": meta,
               "engines": {name: {k: v for k, v in res.items() if k != "answers"}
                           for name, res in results.items()},
               "memory_scale": memory}
    details_path = out_dir / f"{scale}-details.json"
    details_path.write_text(json.dumps(details, indent=2) + "\n")
    md_path = out_dir / f"{scale}.md"
    md_path.write_text(markdown(scale, results, memory, meta, out_dir))
    return {"json": json_path, "details": details_path, "md": md_path}


def rerender(out_dir: Path, scale: str) -> Path:
    """Rewrite <scale>.md from <scale>-details.json (after editing <scale>-analysis.md)."""
    details = json.loads((out_dir / f"{scale}-details.json").read_text())
    md_path = out_dir / f"{scale}.md"
    md_path.write_text(markdown(scale, details["engines"], details["memory_scale"], details["meta"],
                                out_dir))
    return md_path


def markdown(scale: str, results: dict, memory: dict, meta: dict, out_dir: Path) -> str:
    names = list(results)
    lines = [f"# Benchmark, scale {scale}", "",
             f"Run of {meta['started']} on {meta['machine']}, Python {meta['python']}, "
             f"relate {meta.get('relate', '?')}, "
             f"{meta['duration_s']:.0f} s in all.  Written by `python bench/run.py --scale {scale}`; "
             "every figure below comes from this one run.", "",
             "Medians of warm runs (0.3 s of untimed calls first, then samples, each a batch of calls "
             f"lasting at least 5 ms, collected for about {meta['budget_s']:g} s per query).  An "
             "engine's answers are "
             "compared with the CPython floor's before its query is timed; a query whose answers "
             "differ is marked *wrong answer* and not timed.  Q8 figures are the wall time of the "
             "whole batch of 1,000 nodes (median of five, after one untimed batch); `load` is the "
             "time to load the graph once.", "",
             "## Medians", "",
             "| query | " + " | ".join(names) + " |",
             "| --- | " + " | ".join("---:" for _ in names) + " |"]
    for q in ALL_QUERIES:
        lines.append(f"| {q} {TITLES[q]} | " + " | ".join(cell(results[n], q) for n in names) + " |")
    rel = results.get(RELATE, {}).get("times", {})
    lines += ["", f"## Ratios: {RELATE}'s time over each engine's (below 1: relate is faster)", "",
              "| query | " + " | ".join(n for n in names if n != RELATE) + " |",
              "| --- | " + " | ".join("---:" for n in names if n != RELATE) + " |"]
    for q in ALL_QUERIES:
        row = []
        for n in names:
            if n == RELATE:
                continue
            r = ratio(rel.get(q), results[n].get("times", {}).get(q))
            row.append("—" if r is None else f"{r:.2f}")
        lines.append(f"| {q} | " + " | ".join(row) + " |")
    lines += ["", "## Targets (issue 9)", "", "| target | query | met | measured |",
              "| --- | --- | --- | --- |"]
    for title, rows in (("", targets(results, memory, scale)),
                        ("## Targets (issue 22) judged by this run", targets_22(results, scale))):
        if title:
            lines += [title, "", "| target | query | met | measured |", "| --- | --- | --- | --- |"]
        for target, q, met, detail in rows:
            mark = "n/a" if met is None else ("yes" if met else "**no**")
            lines.append(f"| {target} | {q} | {mark} | {detail} |")
        met = sum(1 for r in rows if r[2])
        missed = sum(1 for r in rows if r[2] is False)
        lines += ["", f"{met} met, {missed} missed, {len(rows) - met - missed} not measurable.", ""]
    lines += ["## Stores and memory", "",
              "| engine | load | disk after load | reopen + one lookup | RSS growth by the load | peak RSS |",
              "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for n in names:
        ex = results[n].get("extra", {})
        lines.append(f"| {n} | {fmt_s(results[n].get('times', {}).get('load'))} | "
                     f"{fmt_bytes(ex.get('disk_bytes'))} | {fmt_s(ex.get('reopen_s'))} | "
                     f"{fmt_bytes(ex.get('rss_growth_bytes'))} | {fmt_bytes(ex.get('peak_rss_bytes'))} |")
    lines.append("")
    lines.append("RSS growth: resident memory after the load minus before it (the generated input "
                 "rows are alive in both), so it approximates what the loaded graph costs.  The "
                 "browser's memory is not measured.")
    if memory:
        lines += ["", f"Memory after loading scale {meta['memory_scale']} (load only, same measure):", "",
                  "| engine | load | RSS growth | peak RSS |", "| --- | ---: | ---: | ---: |"]
        for n, res in memory.items():
            ex = res.get("extra", {})
            lines.append(f"| {n} | {fmt_s(res.get('times', {}).get('load'))} | "
                         f"{fmt_bytes(ex.get('rss_growth_bytes'))} | {fmt_bytes(ex.get('peak_rss_bytes'))} |")
    notes = []
    for n in names:
        res = results[n]
        if "failed" in res:
            notes.append(f"- {n}: the process failed: {res['failed']}")
        for q, status in res.get("status", {}).items():
            if status not in ("ok", "unsupported") and not status.startswith("error: NotImplementedError"):
                notes.append(f"- {n} {q}: {status}")
            elif status == "unsupported" or status.startswith("error: NotImplementedError"):
                notes.append(f"- {n} {q}: unsupported by the engine")
    if notes:
        lines += ["", "## Queries not timed", ""] + notes
    lines += ["", "## How each engine was run", "",
              "- floor: hand-written CPython over dicts and lists (bench/engines/floor.py); the "
              "reference answers.",
              "- relate-mem / relate-dir: `relate.connect(':memory:')` / a directory store; indexes on "
              ":Person(id) and :Post(id), `UNWIND $rows` batches of 5,000.",
              "- grand-cypher: a networkx DiGraph; literals in the query text (it takes no parameters); "
              "Q3 as `RETURN DISTINCT f.id` counted by rows and Q6 as rows (it has no "
              "`count(DISTINCT ...)`).",
              "- kuzu / ladybug (and their `-mem` in-memory variants): typed tables, `COPY FROM` CSV; Q6 with `TRAIL` "
              "(openCypher's no-repeated-relationship rule), Q7 with `SHORTEST`.",
              "- graphdblite (and `graphdblite-mem`, `Database.open_memory()`): "
              "`batch_create_nodes/edges` and `create_index` in one write transaction.",
              "- kglite (and `kglite-mem`, `KnowledgeGraph()`): `UNWIND $rows` batches of 5,000 and "
              "`create_index(label, 'id')`; on disk `kglite.open(path)` (a `.kgl` file and its "
              "write-ahead log, `durable='full'`), saved after the load.",
              "- relate-browser: the working tree's relate inside Pyodide in headless Chromium, timed by "
              "the same loop (bench/browser.py); V8 compiles the WebAssembly with its optimizing tier "
              "from the start (`--no-liftoff`), and each figure is the lower median of two complete "
              "rounds.",
              "", f"Peer versions: bench/requirements-peers.txt.  Figures as JSON: `{scale}.json`; "
              f"statuses, memory and disk: `{scale}-details.json`; chart: `{scale}.png`."]
    lines += growth(out_dir, scale, results)
    analysis = out_dir / f"{scale}-analysis.md"
    if analysis.is_file():
        lines += ["", analysis.read_text().rstrip()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys
    print(rerender(Path(__file__).resolve().parent / "results", sys.argv[1] if len(sys.argv) > 1 else "S"))
