"""Where a small durable commit's time goes: one-node CREATE statements on `:memory:`, a `.rl` file
and a directory store -> per-commit wall time, the same with the syncs taken out (the in-process
work), the bytes written, and the write/sync calls each commit makes; plus the cost of one fsync and
one fdatasync of a small append on this machine (the floor a durable commit cannot go below).

    .venv/bin/python bench/commit_split.py [--commits 200] [--batches 9] [--tree ../main] [--out FILE]

Each figure is the median over `--batches` batches of `--commits` statements (each batch timed
whole, after 300 untimed statements), so a busy neighbour moves it less than a single timing; the
in-process work is the process's CPU time, which other processes' load moves least.
System calls are counted by wrapping `os.pwrite`, `os.fsync` and `os.fdatasync` for one batch.
`--tree` measures the relate of another checkout (before/after a change, on the same machine state).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

CREATE_ONE = "CREATE (:Person {id: $id, name: $name, age: $age, city: $city})"
KINDS = (":memory:", ".rl file", "directory")


def sync_cost(folder: str, n: int = 300) -> dict:
    """Median ms of a 150-byte append followed by fsync, and by fdatasync (and the append alone)."""
    fd = os.open(os.path.join(folder, "sync-probe"), os.O_RDWR | os.O_CREAT, 0o644)
    out = {}
    try:
        off = 0
        for name, sync in (("fsync", os.fsync), ("fdatasync", getattr(os, "fdatasync", os.fsync)),
                           ("append only", lambda fd: None)):
            times = []
            for _ in range(n):
                t = time.perf_counter()
                os.pwrite(fd, b"x" * 150, off)
                off += 150
                sync(fd)
                times.append(time.perf_counter() - t)
            out[name] = statistics.median(times) * 1000
    finally:
        os.close(fd)
    return out


class Counter:
    """Counts pwrite/fsync/fdatasync calls and the bytes written while active."""

    def __init__(self) -> None:
        self.calls = {"write": 0, "fsync": 0, "fdatasync": 0}
        self.bytes = 0

    def __enter__(self):
        self.saved = (os.pwrite, os.fsync, getattr(os, "fdatasync", None))
        pwrite, fsync, fdatasync = self.saved

        def counted_pwrite(fd, data, offset):
            self.calls["write"] += 1
            self.bytes += len(data)
            return pwrite(fd, data, offset)

        def counted_fsync(fd):
            self.calls["fsync"] += 1
            return fsync(fd)

        def counted_fdatasync(fd):
            self.calls["fdatasync"] += 1
            return fdatasync(fd)

        os.pwrite, os.fsync = counted_pwrite, counted_fsync
        if fdatasync is not None:
            os.fdatasync = counted_fdatasync
        return self

    def __exit__(self, *exc) -> None:
        os.pwrite, os.fsync = self.saved[0], self.saved[1]
        if self.saved[2] is not None:
            os.fdatasync = self.saved[2]


class NoSync:
    """Takes the syncs out (what is left is the commit's in-process work and its write calls)."""

    def __enter__(self):
        self.saved = (os.fsync, getattr(os, "fdatasync", None))
        os.fsync = lambda fd: None
        if self.saved[1] is not None:
            os.fdatasync = lambda fd: None
        return self

    def __exit__(self, *exc) -> None:
        os.fsync = self.saved[0]
        if self.saved[1] is not None:
            os.fdatasync = self.saved[1]


def per_commit(db, start: int, commits: int, batches: int, clock=time.perf_counter) -> tuple[float, int]:
    """Median µs per statement over `batches` timed batches -> (µs, next id)."""
    times = []
    for _ in range(batches):
        rows = [{"id": i, "name": f"new-{i}", "age": 18 + i % 63, "city": "Oslo"}
                for i in range(start, start + commits)]
        start += commits
        execute = db.execute
        t = clock()
        for r in rows:
            execute(CREATE_ONE, r)
        times.append((clock() - t) / commits * 1e6)
    return statistics.median(times), start


def run_kind(relate, path: str, commits: int, batches: int) -> dict:
    db = relate.connect(path)
    for i in range(300):  # warm: plan cached, a WAL segment started
        db.execute(CREATE_ONE, {"id": -1 - i, "name": "w", "age": 1, "city": "x"})
    start = 0
    out = {}
    out["wall_us"], start = per_commit(db, start, commits, batches)
    with NoSync():
        # CPU time (the process's, kernel time of its write calls included): what a busy neighbour
        # moves least
        out["nosync_us"], start = per_commit(db, start, commits, batches, time.process_time)
    with Counter() as c:
        _, start = per_commit(db, start, commits, 1)
    out["writes"] = c.calls["write"] / commits
    out["fsyncs"] = c.calls["fsync"] / commits
    out["fdatasyncs"] = c.calls["fdatasync"] / commits
    out["bytes"] = c.bytes / commits
    db.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commits", type=int, default=200)
    ap.add_argument("--batches", type=int, default=9)
    ap.add_argument("--out", help="write the section here (Markdown)")
    ap.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent),
                    help="the checkout whose relate is measured (default: this one)")
    args = ap.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve()))
    import relate
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="relate-split-", dir=os.environ.get("RELATE_BENCH_DIR")) as tmp:
        syncs = sync_cost(tmp)
        res = {}
        for kind, path in zip(KINDS, (":memory:", os.path.join(tmp, "s.rl"), os.path.join(tmp, "s-dir"))):
            res[kind] = run_kind(relate, path, args.commits, args.batches)
            print(kind, {k: round(v, 2) for k, v in res[kind].items()}, flush=True)
    mem = res[":memory:"]["nosync_us"]
    fsync_us = syncs["fdatasync"] * 1000
    lines = [
        f"`bench/commit_split.py --commits {args.commits} --batches {args.batches}` ({relate.__file__}) on CPython "
        f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{' / '.join(f'{x:.1f}' for x in load)}.  One sync of a 150-byte append: fsync "
        f"{syncs['fsync'] * 1000:.0f} µs, fdatasync {fsync_us:.0f} µs (the append alone "
        f"{syncs['append only'] * 1000:.1f} µs); medians.",
        "",
        "| per commit | :memory: | .rl file | directory |",
        "| --- | ---: | ---: | ---: |",
    ]

    def row(label, fmt):
        lines.append(f"| {label} | " + " | ".join(fmt(res[k]) for k in KINDS) + " |")

    row("wall time (with its sync)", lambda r: f"{r['wall_us']:.1f} µs")
    row("in-process work, CPU time (syncs taken out)", lambda r: f"{r['nosync_us']:.1f} µs")
    row("  ratio to :memory:", lambda r: f"{r['nosync_us'] / mem:.2f}x")
    row("store's own work (minus :memory:)", lambda r: f"{r['nosync_us'] - mem:.1f} µs")
    # the disk's own time moves by 10x within minutes on a shared machine: the bound is read as
    # in-process work <= 2x memory's, plus one fdatasync call and nothing else that waits
    row("waiting on the disk (wall minus in-process work)", lambda r: f"{max(r['wall_us'] - r['nosync_us'], 0):.0f} µs")
    row("bytes written", lambda r: f"{r['bytes']:.0f}")
    row("write calls (pwrite)", lambda r: f"{r['writes']:.2f}")
    row("fdatasync calls", lambda r: f"{r['fdatasyncs']:.2f}")
    row("fsync calls (files and folders)", lambda r: f"{r['fsyncs']:.2f}")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
