"""The temporal common path at a base revision against a head revision, in one run: parse and
render 100k dates (and local date times, components, `+ duration`) with each side's `relate`.

    .venv/bin/python bench/dates.py --base main [--head WORKTREE|REV] [--rounds 5]

-> stdout: per loop, each side's best (least) seconds over rounds and head/base (the least is the
run the other helpers on this machine disturbed least).  Rounds alternate
(base, head, base, ...) in fresh processes whose `relate` comes from that revision's tree
(`compare.tree_for`), so machine load hits both sides alike.  Written for the years change
(issue 15), which moved the calendar arithmetic off `datetime.date`.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare import PROJECT_PY, ROOT, tree_for  # noqa: E402

N = 100_000
REPEAT = 3  # each loop runs this often per process; the least time counts

WORKER = f"""
import json, sys, time
from relate.temporal import build, ops, parse
REPEAT = {REPEAT}
texts = [f"{{1 + i * 37 % 9999:04d}}-{{1 + i % 12:02d}}-{{1 + i % 28:02d}}" for i in range({N})]
ldts = [t + "T12:31:14.645" for t in texts]
d = parse.duration("P1M2DT3H")
out = {{}}
def timed(name, fn):
    best = None
    for _ in range(REPEAT):
        t0 = time.perf_counter(); fn(); took = time.perf_counter() - t0
        best = took if best is None else min(best, took)
    out[name] = best
timed("parse date", lambda: [build.from_text("date", t) for t in texts])
dates = [build.from_text("date", t) for t in texts]
timed("render date", lambda: [str(v) for v in dates])
timed("parse localdatetime", lambda: [build.from_text("localdatetime", t) for t in ldts])
vals = [build.from_text("localdatetime", t) for t in ldts]
timed("render localdatetime", lambda: [str(v) for v in vals])
timed("date.year/.week", lambda: [(ops.component(v, "year"), ops.component(v, "week"))
                                  for v in dates])
timed("date + duration", lambda: [ops.add(v, d) for v in dates[:-1000]])
json.dump(out, sys.stdout)
"""


def one_round(tree: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    py = str(PROJECT_PY if PROJECT_PY.is_file() else sys.executable)
    proc = subprocess.run([py, "-c", WORKER], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"worker failed for {tree}: {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main")
    ap.add_argument("--head", default=str(ROOT))
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        made: list[Path] = []
        trees = []
        for rev in (args.base, args.head):
            path, label = tree_for(rev, Path(scratch))
            if path.is_relative_to(Path(scratch)):
                made.append(path)
            trees.append((path, label))
        try:
            runs: list[list[dict]] = [[], []]
            for _ in range(args.rounds):
                for side, (path, _label) in enumerate(trees):
                    runs[side].append(one_round(path))
        finally:
            for path in made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(path)], check=False)
    print(f"{N} values, best of {args.rounds} rounds: base {trees[0][1]}, head {trees[1][1]}")
    print(f"{'loop':24} {'base s':>8} {'head s':>8} {'head/base':>9}")
    for name in runs[0][0]:
        b = min(r[name] for r in runs[0])
        h = min(r[name] for r in runs[1])
        print(f"{name:24} {b:8.3f} {h:8.3f} {h / b:9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
