"""One command, the whole comparison: `python bench/run.py --scale S` -> bench/results/S.{md,json,png}.

Steps, one process per engine, one after another (so no two engines compete for the 2 cores):
  0. from a fresh clone: the project's set-up (scripts/setup.sh: .venv, npm ci, Chromium) when
     .venv is missing, and the site build (build/site.py) when dist/site is missing;
  1. the peers' venv (bench/.venv-peers) is created from bench/requirements-peers.txt if missing;
  2. the floor runs first; its answers are the reference every later engine is checked against;
  3. relate in memory and on a directory store, then grand-cypher, and Kuzu, LadybugDB and
     graphdblite and kglite each on disk and in memory (bench/worker.py under the right interpreter); a crash
     or a time-out is recorded, not fatal;
  4. relate inside Pyodide in Chromium (bench/browser.py), when the site is built;
  5. memory after loading the next scale up (M for S), for the floor and relate in memory;
  6. bench/report.py writes the Markdown report and the JSON figures, bench/chart.py the PNG, and
     after an M run beside an S.json, bench/growth.py the S-to-M chart (SM-growth.png).
Options: --engines a,b,c to run a subset; --budget seconds of timed samples per query;
--no-browser, --no-memory-scale; --out-dir (default bench/results).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PROJECT_PY = ROOT / ".venv" / "bin" / "python"
PEERS_VENV = HERE / ".venv-peers"
PEERS_PY = PEERS_VENV / "bin" / "python"
REQUIREMENTS = HERE / "requirements-peers.txt"
ORDER = ("floor", "relate-mem", "relate-dir", "grand-cypher", "kuzu", "kuzu-mem", "ladybug",
         "ladybug-mem", "graphdblite", "graphdblite-mem", "kglite", "kglite-mem")
NATIVE = {"floor", "relate-mem", "relate-dir"}
NEXT_SCALE = {"T": "S", "S": "M"}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def native_python() -> str:
    return str(PROJECT_PY) if PROJECT_PY.is_file() else sys.executable


def ensure_project(browser: bool) -> None:
    if not PROJECT_PY.is_file():
        log("no .venv: running scripts/setup.sh (the project's own set-up)")
        subprocess.run(["bash", str(ROOT / "scripts" / "setup.sh")], check=True)
    if browser and not (ROOT / "dist" / "site" / "wheels" / "manifest.json").is_file():
        log("building the site for the browser run (build/site.py)")
        proc = subprocess.run([native_python(), str(ROOT / "build" / "site.py")],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            log(f"  site build failed, the browser run will be skipped: {proc.stderr.strip()[-300:]}")


def ensure_peers() -> None:
    marker = PEERS_VENV / ".installed"
    wanted = REQUIREMENTS.read_text()
    if marker.is_file() and marker.read_text() == wanted:
        return
    log(f"installing the peer engines into {PEERS_VENV}")
    if not PEERS_PY.is_file():
        venv.EnvBuilder(with_pip=True).create(PEERS_VENV)
    subprocess.run([str(PEERS_PY), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)],
                   check=True)
    marker.write_text(wanted)


def run_worker(engine: str, scale: str, tmp: Path, expected: Path | None, budget: float,
               timeout: float, memory_only: bool = False) -> dict:
    python = native_python() if engine in NATIVE else str(PEERS_PY)
    out = tmp / f"{engine}-{scale}{'-mem' if memory_only else ''}.json"
    cmd = [python, str(HERE / "worker.py"), engine, scale, str(out), "--budget", str(budget)]
    if expected is not None:
        cmd += ["--expected", str(expected)]
    if memory_only:
        cmd.append("--memory-only")
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"engine": engine, "failed": f"timed out after {timeout:.0f} s", "times": {},
                "status": {}, "extra": {}}
    if proc.returncode != 0 or not out.is_file():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"engine": engine, "failed": f"exit {proc.returncode}: {' | '.join(tail)}",
                "times": {}, "status": {}, "extra": {}}
    result = json.loads(out.read_text())
    result["wall_s"] = time.perf_counter() - t0
    return result


def run_browser(scale: str, tmp: Path, expected: Path, budget: float, timeout: float) -> dict:
    out = tmp / f"browser-{scale}.json"
    cmd = [native_python(), str(HERE / "browser.py"), scale, str(out), "--expected", str(expected),
           "--budget", str(budget)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"engine": "relate-browser", "failed": f"timed out after {timeout:.0f} s",
                "times": {}, "status": {}, "extra": {}}
    if proc.returncode != 0 or not out.is_file():
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"engine": "relate-browser", "failed": f"exit {proc.returncode}: {' | '.join(tail)}",
                "times": {}, "status": {}, "extra": {}}
    return json.loads(out.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", default="S", choices=("T", "S", "M"))
    ap.add_argument("--engines", default=",".join(ORDER))
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per engine process")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--no-memory-scale", action="store_true")
    ap.add_argument("--out-dir", default=str(HERE / "results"))
    args = ap.parse_args()
    engines = [e for e in ORDER if e in args.engines.split(",")]
    if "floor" not in engines:
        engines.insert(0, "floor")
    ensure_project(not args.no_browser)
    if any(e not in NATIVE for e in engines):
        ensure_peers()
    started = time.time()
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="relate-bench-run-") as tmpname:
        tmp = Path(tmpname)
        expected = tmp / "floor-answers.json"
        for engine in engines:
            log(f"{engine} at scale {args.scale}")
            res = run_worker(engine, args.scale, tmp, None if engine == "floor" else expected,
                             args.budget, args.timeout)
            results[engine] = res
            if engine == "floor":
                if "failed" in res:
                    raise SystemExit(f"the floor failed: {res['failed']}")
                expected.write_text(json.dumps({"answers": res["answers"]}))
            log(f"  {res.get('failed') or 'done'}")
        if not args.no_browser:
            if (ROOT / "dist" / "site" / "wheels" / "manifest.json").is_file():
                log("relate in the browser (Pyodide, Chromium)")
                results["relate-browser"] = run_browser(args.scale, tmp, expected, args.budget,
                                                        args.timeout)
                log(f"  {results['relate-browser'].get('failed') or 'done'}")
            else:
                log("dist/site is not built (python build/site.py): browser run skipped")
        memory = {}
        bigger = NEXT_SCALE.get(args.scale)
        if bigger and not args.no_memory_scale:
            for engine in ("floor", "relate-mem"):
                log(f"{engine}: memory after loading scale {bigger}")
                memory[engine] = run_worker(engine, bigger, tmp, None, args.budget, args.timeout,
                                            memory_only=True)
                log(f"  {memory[engine].get('failed') or 'done'}")
    versions = subprocess.run([native_python(), "-c", "import relate; print(relate.__version__)"],
                              capture_output=True, text=True).stdout.strip()
    meta = {"scale": args.scale, "relate": versions,
            "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started)),
            "duration_s": time.time() - started, "python": platform.python_version(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores", "budget_s": args.budget,
            "memory_scale": bigger if memory else None}
    sys.path.insert(0, str(HERE))
    import report
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = report.write(out_dir, args.scale, results, memory, meta)
    chart = out_dir / f"{args.scale}.png"
    python = str(PEERS_PY) if PEERS_PY.is_file() else native_python()
    proc = subprocess.run([python, str(HERE / "chart.py"), str(paths["json"]), str(chart)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        log(f"chart not drawn: {proc.stderr.strip().splitlines()[-1:]}")
    smaller = {v: k for k, v in NEXT_SCALE.items()}.get(args.scale)
    if smaller and (out_dir / f"{smaller}.json").is_file():
        grown = out_dir / f"{smaller}{args.scale}-growth.png"
        proc = subprocess.run([python, str(HERE / "growth.py"), str(out_dir / f"{smaller}.json"),
                               str(paths["json"]), str(grown)], capture_output=True, text=True)
        log(f"growth chart not drawn: {proc.stderr.strip().splitlines()[-1:]}" if proc.returncode
            else f"wrote {grown}")
    log(f"wrote {', '.join(str(p) for p in paths.values())}, {chart} in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
