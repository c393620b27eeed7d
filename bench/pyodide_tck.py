"""The public TCK's total time inside Pyodide against native, in one run.

    python bench/pyodide_tck.py [--rounds 3] [--out bench/results/pyodide_tck.md]

Each round runs tests/pyodide/verdicts.py over every TCK scenario natively (this interpreter, a
child process) and then inside Pyodide under Node on the site's own wheels (tests/pyodide/run.mjs),
one after the other so neither shares the cores with the other.  The TCK's seconds are measured
inside each interpreter by the same code (verdicts.py's `meta.seconds`); Pyodide's start (loading
the runtime, installing the wheels) is shown apart.  Per side the median over the rounds.  Also
says whether the two sides' verdicts were equal case by case (tests/pyodide/compare.py).  Needs
dist/site built from this working tree (python build/site.py).
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pyodide import targets  # noqa: E402
from tests.pyodide.compare import report  # noqa: E402

ARGS = ["--suite", "tck"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--note", default="", help="a sentence on the run's conditions, kept in the report")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "pyodide_tck.md")
    args = ap.parse_args(argv)
    targets.check_ready()
    native, inside, boot, install, wall = [], [], [], [], []
    agreement = ""
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.rounds):
            a, b = Path(tmp) / f"native{n}.json", Path(tmp) / f"pyodide{n}.json"
            native_doc = targets.finish(targets.start_native(a, ARGS), a)
            t0 = time.perf_counter()
            pyodide_doc = targets.finish(targets.start_pyodide(b, ARGS), b)
            wall.append(time.perf_counter() - t0)
            native.append(native_doc["meta"]["seconds"]["tck"])
            inside.append(pyodide_doc["meta"]["seconds"]["tck"])
            boot.append(pyodide_doc["meta"]["node"]["boot_s"])
            install.append(pyodide_doc["meta"]["node"]["install_s"])
            agreement = report(native_doc, pyodide_doc)[1].splitlines()[-1]
            print(f"round {n + 1}: native {native[-1]:.1f} s, Pyodide {inside[-1]:.1f} s", file=sys.stderr)
    med = statistics.median
    scenarios = agreement.split(" passed")[0]
    lines = [
        "# The TCK inside Pyodide against native", "",
        f"Written by `python bench/pyodide_tck.py --rounds {args.rounds}` on {time.strftime('%Y-%m-%d')}; "
        f"{platform.machine()}, CPython {platform.python_version()} natively, "
        f"Pyodide {pyodide_doc['meta']['python']} under Node.", "",
        f"Every public TCK scenario ({scenarios}), judged strictly, per side the median of "
        f"{args.rounds} rounds (seconds, measured inside the interpreter):", "",
        "| | native | Pyodide (Node) | ratio |", "|---|---:|---:|---:|",
        f"| TCK, all scenarios | {med(native):.2f} | {med(inside):.2f} | {med(inside) / med(native):.2f}x |",
        f"| Pyodide start: runtime | | {med(boot):.2f} | |",
        f"| Pyodide start: install the wheels | | {med(install):.2f} | |",
        f"| Pyodide process, wall clock | | {med(wall):.2f} | |", "",
        f"Verdicts compared case by case: {agreement}.", "",
        "Rounds (native / Pyodide): " + ", ".join(f"{a:.2f} / {b:.2f}" for a, b in zip(native, inside)) + ".",
    ] + (["", args.note] if args.note else [])
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
