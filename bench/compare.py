"""relate at a base revision against relate at a head revision, in one run, on the same harness.

    .venv/bin/python bench/compare.py --base main~1 [--head WORKTREE|REV] [--scale S] [--rounds 3]

-> bench/results/compare-<scale>.md (and .json): for every query, the median over rounds of each
side's warm median, and head/base.  A ratio above 1 + --tolerance (default 5%) is flagged slower.

Why this shape: a change that moves code around (issue 13) must show that no query got slower,
and two runs an hour apart differ by more than the change does on this 2-core machine.  So both
revisions run here, now, alternating (base, head, base, head, ...), each round a fresh
`worker.py relate-mem` process whose `relate` comes from that revision's tree through PYTHONPATH
(a git worktree made for a revision, removed afterwards).  The harness (graph, queries, timing)
is the head tree's, so only the engine differs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PROJECT_PY = ROOT / ".venv" / "bin" / "python"
SKIP = {"load"}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def tree_for(rev: str, scratch: Path) -> tuple[Path, str]:
    """A directory holding `relate/` at `rev` (an existing directory is taken as it is)."""
    if Path(rev).is_dir() and (Path(rev) / "relate").is_dir():
        return Path(rev).resolve(), rev
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], check=True,
                         capture_output=True, text=True).stdout.strip()
    path = scratch / f"tree-{sha}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(path), sha],
                   check=True)
    return path, sha


def one_round(tree: Path, scale: str, budget: float, out: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [str(PROJECT_PY if PROJECT_PY.is_file() else sys.executable), str(HERE / "worker.py"),
           "relate-mem", scale, str(out), "--budget", str(budget)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"worker failed for {tree}: {proc.stderr.strip()[-500:]}")
    return json.loads(out.read_text())["times"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="git revision (or a directory with relate/)")
    ap.add_argument("--head", default=str(ROOT), help="git revision or directory (default: this tree)")
    ap.add_argument("--scale", default="S", choices=("T", "S", "M"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--budget", type=float, default=1.0)
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--out-dir", default=str(HERE / "results"))
    args = ap.parse_args()
    made: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="relate-bench-compare-") as tmpname:
        tmp = Path(tmpname)
        try:
            sides = {}
            for side, rev in (("base", args.base), ("head", args.head)):
                path, label = tree_for(rev, tmp)
                if path.is_relative_to(tmp):
                    made.append(path)
                sides[side] = (path, label)
            times: dict[str, list[dict]] = {"base": [], "head": []}
            for r in range(args.rounds):
                for side in ("base", "head"):
                    log(f"round {r + 1}/{args.rounds}: {side} ({sides[side][1]})")
                    times[side].append(one_round(sides[side][0], args.scale, args.budget,
                                                 tmp / f"{side}-{r}.json"))
        finally:
            for path in made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                               capture_output=True)
    queries = [q for q in times["head"][0] if q not in SKIP]
    rows, slower = [], []
    for q in queries:
        b = statistics.median(t[q] for t in times["base"] if q in t)
        h = statistics.median(t[q] for t in times["head"] if q in t)
        ratio = h / b
        flag = "slower" if ratio > 1 + args.tolerance else ("faster" if ratio < 1 - args.tolerance else "same")
        if flag == "slower":
            slower.append(q)
        rows.append((q, b, h, ratio, flag))
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    lines = [f"# relate {sides['head'][1]} against {sides['base'][1]} (scale {args.scale})", "",
             f"{stamp}; {args.rounds} alternating rounds per side, budget {args.budget} s per query; "
             f"each figure is the median over rounds of the warm median; tolerance "
             f"{args.tolerance:.0%}.", "",
             "| query | base | head | head/base | verdict |", "| --- | ---: | ---: | ---: | --- |"]
    for q, b, h, ratio, flag in rows:
        lines.append(f"| {q} | {_fmt(b)} | {_fmt(h)} | {ratio:.2f}x | {flag} |")
    lines += ["", f"Slower than the tolerance: {', '.join(slower) if slower else 'none'}.", ""]
    md = out_dir / f"compare-{args.scale}.md"
    md.write_text("\n".join(lines))
    (out_dir / f"compare-{args.scale}.json").write_text(json.dumps(
        {"base": sides["base"][1], "head": sides["head"][1], "rounds": times}, indent=1))
    print("\n".join(lines))
    return 1 if slower else 0


def _fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


if __name__ == "__main__":
    sys.exit(main())
