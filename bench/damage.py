"""Damage to stores the CLI wrote, at random offsets: what every open did, by store kind and damage kind.

    .venv/bin/python bench/damage.py [--seed 14] [--per-kind 4] [--process-every 12] [--out FILE]

The cases and checks are the attack test's (tests/storage/damage_cases.py, run by
tests/attacks/test_damaged_tails.py with the same defaults): bases written by `relate` processes
(clean, folded into a snapshot, SIGKILLed mid-stream), each case one bit flip, cut or interrupted
append; after it a read-only and a writable open through the Python API and the CLI (in process,
and as a separate process for every `--process-every`-th case).  Outcomes per open: `refused` (a
storage error naming the file and offset), `reported` (opened; an interrupted write was set aside
beside the store and reported), `intact` (opened, nothing to report).  `violations` counts broken
invariants (an acknowledged commit gone without a report, dropped bytes kept nowhere, a read-only
open that wrote, damage to an acknowledged commit not refused): it must be 0.

Writes bench/results/damage.md (or --out).
"""
from __future__ import annotations

import argparse
import collections
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.storage.damage_cases import run_all  # noqa: E402

OPENS = ("api-ro", "api-rw", "cli-ro", "cli-rw", "process-ro", "process-rw")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--per-kind", type=int, default=4)
    ap.add_argument("--process-every", type=int, default=12)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "damage.md"))
    args = ap.parse_args()
    import warnings
    warnings.simplefilter("ignore")  # the cases capture the warnings they check
    import logging
    logging.getLogger("relate.storage").propagate = False
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="relate-damage-") as tmp:
        bases, cases = run_all(Path(tmp), args.seed, args.per_kind, args.process_every)
    took = time.monotonic() - t0
    tried = [c for c in cases if c.outcomes]
    problems = [p for c in cases for p in c.problems]
    rows = collections.defaultdict(collections.Counter)
    for c in tried:
        for how, outcome in c.outcomes.items():
            rows[(c.store, c.kind)][(how, outcome)] += 1
        rows[(c.store, c.kind)]["cases"] += 1
    opens = sum(len(c.outcomes) for c in tried)
    lines = [
        "# Damaged logs and snapshots: what each open did",
        "",
        f"`bench/damage.py --seed {args.seed} --per-kind {args.per_kind} --process-every {args.process_every}` "
        f"on CPython {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{took:.0f} s.  The same generator and checks as `tests/attacks/test_damaged_tails.py`.",
        "",
        f"- bases written by `relate` processes: {len(bases)} "
        f"({', '.join(f'{b.name}: {len(b.acked)} acknowledged' for b in bases)})",
        f"- damage cases tried: **{len(tried)}** ({sum(c.store == 'rl' for c in tried)} on `.rl` files, "
        f"{sum(c.store == 'dir' for c in tried)} on directory stores); opens checked: {opens}",
        f"- acknowledged commits silently lost, dropped bytes not kept, read-only opens that wrote, damage to "
        f"an acknowledged commit not refused: **{len(problems)}**",
        "",
        "Damage kinds: `flip-*` one bit, `cut-*` the file truncated there, in the last transaction record, "
        "one before it (`middle`), the snapshot (the `.rl` file's header and `S` record, or the directory "
        "store's snapshot file), a WAL segment's header line; `append-torn` a prefix of the next record "
        "(a commit never acknowledged, sometimes with junk after it); `none` a SIGKILLed base as it was left.",
        "",
        "| store | damage | cases | " + " | ".join(OPENS) + " |",
        "| --- | --- | ---: | " + " | ".join("---" for _ in OPENS) + " |",
    ]
    for (store, kind), counter in sorted(rows.items()):
        cells = []
        for how in OPENS:
            parts = [f"{counter[(how, o)]} {o}" for o in ("refused", "reported", "intact", "reported-missing")
                     if counter[(how, o)]]
            cells.append(", ".join(parts) or "-")
        lines.append(f"| {store} | {kind} | {counter['cases']} | " + " | ".join(cells) + " |")
    lines += ["", "`process-*` opens run for a sample of the cases (a separate `relate` process each).", ""]
    if problems:
        lines += ["## Violations", ""] + [f"- {p}" for p in problems[:50]] + [""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
