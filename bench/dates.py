"""The temporal common path at a base revision against a head revision, in one process: parse and
render 100k dates (and local date times, components, `+ duration`) with each side's `relate`.

    .venv/bin/python bench/dates.py --base main [--head WORKTREE|REV] [--rounds 7]

-> stdout: per loop, each side's least seconds over rounds and head/base.  The base tree's
package is loaded under another name (`relate_base`) beside the head's, and every round runs each
loop on base and then on head, so a load spike from the other work on this 2-core machine hits
both sides alike; the least time is the round it disturbed least.  (Separate processes per side,
as `compare.py` runs queries, swung by +/-40% between runs here.)  Written for the years change
(issue 15), which moved the calendar arithmetic off `datetime.date`.
"""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare import ROOT, tree_for  # noqa: E402

N = 100_000


def load(tree: Path, name: str):
    """`tree`/relate imported as the package `name` (its imports are relative)."""
    init = tree / "relate" / "__init__.py"
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(init.parent)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def loops(pkg: str) -> dict:
    build = importlib.import_module(pkg + ".temporal.build")
    ops = importlib.import_module(pkg + ".temporal.ops")
    parse = importlib.import_module(pkg + ".temporal.parse")
    texts = [f"{1 + i * 37 % 9998:04d}-{1 + i % 12:02d}-{1 + i % 28:02d}" for i in range(N)]
    ldts = [t + "T12:31:14.645" for t in texts]
    dates = [build.from_text("date", t) for t in texts]
    vals = [build.from_text("localdatetime", t) for t in ldts]
    d = parse.duration("P1M2DT3H")
    return {
        "parse date": lambda: [build.from_text("date", t) for t in texts],
        "render date": lambda: [str(v) for v in dates],
        "parse localdatetime": lambda: [build.from_text("localdatetime", t) for t in ldts],
        "render localdatetime": lambda: [str(v) for v in vals],
        "date.year/.week": lambda: [(ops.component(v, "year"), ops.component(v, "week")) for v in dates],
        "date + duration": lambda: [ops.add(v, d) for v in dates],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main")
    ap.add_argument("--head", default=str(ROOT))
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        (base, base_label), (head, head_label) = (tree_for(r, Path(scratch)) for r in (args.base, args.head))
        try:
            load(base, "relate_base")
            load(head, "relate_head")
            sides = [loops("relate_base"), loops("relate_head")]
            best: list[dict[str, float]] = [{}, {}]
            for _ in range(args.rounds):
                for name in sides[0]:
                    for side in (0, 1):
                        t0 = time.perf_counter()
                        sides[side][name]()
                        took = time.perf_counter() - t0
                        best[side][name] = min(best[side].get(name, took), took)
        finally:
            for path in (base, head):
                if path.is_relative_to(Path(scratch)):
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                                   check=False)
    print(f"{N} values, least of {args.rounds} rounds: base {base_label}, head {head_label}")
    print(f"{'loop':24} {'base s':>8} {'head s':>8} {'head/base':>9}")
    for name in best[0]:
        b, h = best[0][name], best[1][name]
        print(f"{name:24} {b:8.3f} {h:8.3f} {h / b:9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
