"""Damage at random offsets to stores real processes wrote: the generator and the checks shared by
tests/attacks/test_damaged_tails.py and bench/damage.py.

Bases: the CLI (`relate --database P`, statements on stdin, one output line per acknowledged
commit) writes `.rl` and directory stores, some closed cleanly, some folded into a snapshot by the
Python API between two CLI runs, some SIGKILLed mid-stream (their acknowledged commits are the
output lines read before and after the kill).  Cases: each copies a base and damages it once (a bit
flip or a cut in the last record, in a middle record, in the snapshot, in a WAL segment's header,
or an interrupted append of a commit that was never acknowledged), from one seeded generator.

After each damage, every open is checked the same way (`check_open`): a read-only open (Python
API and CLI) writes nothing; a writable open (Python API and CLI, each on its own copy) either
refuses with a storage error or opens; when it opens, every acknowledged commit is present or a
warning names the file its bytes were moved to, and every byte the open removed from the store is
in a file it created beside the store.  On top of that, damage to a record of an acknowledged
commit must be refused, and an interrupted append of an unacknowledged one must open with every
acknowledged commit present.
"""
from __future__ import annotations

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

RELATE = str(Path(sys.executable).with_name("relate"))
QUERY = "MATCH (t:T) RETURN t.i AS i"

DIR_KINDS = ("flip-last", "cut-last", "flip-middle", "cut-middle", "flip-snapshot", "cut-snapshot",
             "flip-wal-header", "append-torn")
RL_KINDS = ("flip-last", "cut-last", "flip-middle", "cut-middle", "flip-snapshot", "cut-snapshot",
            "append-torn")


# ---------------------------------------------------------------------------- bases
@dataclass
class Base:
    name: str
    path: str
    acked: set[int] = field(default_factory=set)
    killed: bool = False

    @property
    def is_rl(self) -> bool:
        return self.path.endswith(".rl")


def _statement(i: int, rng: random.Random) -> str:
    return f"CREATE (:T {{i: {i}, pad: '{'x' * rng.randint(0, 200)}'}});\n"


def cli_write(path: str, first: int, count: int, rng: random.Random, kill_after: int | None = None) -> set[int]:
    """The CLI runs `count` CREATE statements (i = first, first+1, ...) from stdin -> the i of every
    commit it acknowledged (printed its counters line).  `kill_after`: SIGKILL it once that many
    are acknowledged (plus a random moment), as a crash would."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    script = "".join(_statement(first + k, rng) for k in range(count))
    proc = subprocess.Popen([RELATE, "--database", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    acked = 0
    if kill_after is None:
        out, err = proc.communicate(script.encode(), timeout=120)
        assert proc.returncode == 0, err.decode()
        acked = out.count(b'"stats"')
        assert acked == count
    else:
        proc.stdin.write(script.encode())  # the CLI reads all of stdin before it runs a statement
        proc.stdin.close()
        while acked < kill_after:
            line = proc.stdout.readline()
            assert line, proc.stderr.read().decode() if proc.stderr else ""
            acked += b'"stats"' in line
        time.sleep(rng.random() * 0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        rest = proc.stdout.read()
        proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
        acked += rest.count(b'"stats"')  # printed before the kill: acknowledged too
    return set(range(first, first + acked))


def fold(path: str) -> None:
    """Fold the log into a snapshot through the Python API (the CLI has no checkpoint command)."""
    import relate
    db = relate.connect(path)
    db.store.checkpoint()
    db.close()


def build_bases(root: Path, seed: int) -> list[Base]:
    rng = random.Random(seed)
    bases = []
    for suffix in (".rl", ""):
        kind = "rl" if suffix else "dir"
        b = Base(f"{kind}-clean", str(root / f"{kind}-clean{suffix}"))
        b.acked = cli_write(b.path, 0, 14, rng)
        bases.append(b)
        b = Base(f"{kind}-folded", str(root / f"{kind}-folded{suffix}"))
        b.acked = cli_write(b.path, 0, 8, rng)
        fold(b.path)
        b.acked |= cli_write(b.path, 8, 8, rng)
        bases.append(b)
        for n in range(2):
            b = Base(f"{kind}-killed{n}", str(root / f"{kind}-killed{n}{suffix}"), killed=True)
            b.acked = cli_write(b.path, 0, 3000, rng, kill_after=rng.randint(6, 20))
            bases.append(b)
    return bases


# ---------------------------------------------------------------------------- layout
@dataclass
class Frame:
    start: int
    end: int
    seq: int
    snapshot: bool


@dataclass
class Layout:
    file: str            # the file holding the transaction records (.rl file or newest WAL segment)
    frames: list[Frame]  # its valid records (for a .rl the snapshot is frames[0])
    header_end: int
    valid_end: int
    size: int
    snapshot_file: str   # where the snapshot is (the .rl itself, or snapshot-<n>.rl)


def _frames_of(raw: bytes, start: int) -> tuple[list[Frame], int]:
    from relate.storage import frames
    sc = frames.scan(raw, start)
    out, pos = [], start
    for tag, payload, stop in sc.frames:
        out.append(Frame(pos, stop, json.loads(payload)["seq"], tag == frames.SNAPSHOT))
        pos = stop
    return out, sc.end


def layout(path: str) -> Layout:
    if path.endswith(".rl"):
        raw = Path(path).read_bytes()
        head = raw.index(b"\n") + 1
        fr, end = _frames_of(raw, head)
        return Layout(path, fr, head, end, len(raw), path)
    snaps = sorted(n for n in os.listdir(path) if n.startswith("snapshot-"))
    segs = sorted(os.listdir(os.path.join(path, "wal")))
    seg = os.path.join(path, "wal", segs[-1])
    raw = Path(seg).read_bytes()
    head = raw.index(b"\n") + 1
    fr, end = _frames_of(raw, head)
    return Layout(seg, fr, head, end, len(raw), os.path.join(path, snaps[-1]))


# ---------------------------------------------------------------------------- damage
@dataclass
class Damage:
    kind: str
    file: str
    offset: int
    hits_seq: int | None   # the first transaction whose record it damages (0: the snapshot), None: none


def _flip(path: str, offset: int, bit: int) -> None:
    raw = bytearray(Path(path).read_bytes())
    raw[offset] ^= 1 << bit
    Path(path).write_bytes(bytes(raw))


def _cut(path: str, offset: int) -> None:
    with open(path, "r+b") as f:
        f.truncate(offset)


def damage(path: str, kind: str, rng: random.Random) -> Damage | None:
    """Damage the store at `path` in place; None when its shape has no such place."""
    lay = layout(path)
    txns = [f for f in lay.frames if not f.snapshot]
    if kind in ("flip-last", "cut-last"):
        if not txns:
            return None
        f = txns[-1]
        if kind == "flip-last":
            off = rng.randrange(f.start, f.end)
            _flip(lay.file, off, rng.randrange(8))
        else:
            off = rng.randrange(f.start, f.end)  # f.start itself: the whole record gone
            _cut(lay.file, off)
        return Damage(kind, lay.file, off, f.seq)
    if kind in ("flip-middle", "cut-middle"):
        if len(txns) < 2:
            return None
        f = rng.choice(txns[:-1])
        off = rng.randrange(f.start, f.end)
        if kind == "flip-middle":
            _flip(lay.file, off, rng.randrange(8))
        else:
            _cut(lay.file, off)
        return Damage(kind, lay.file, off, f.seq)
    if kind in ("flip-snapshot", "cut-snapshot"):
        raw = Path(lay.snapshot_file).read_bytes()
        snap_end = lay.frames[0].end if path.endswith(".rl") else len(raw)
        off = rng.randrange(0, snap_end)
        if kind == "flip-snapshot":
            _flip(lay.snapshot_file, off, rng.randrange(8))
        else:
            _cut(lay.snapshot_file, off)
        return Damage(kind, lay.snapshot_file, off, 0)
    if kind == "flip-wal-header":
        if path.endswith(".rl"):
            return None
        off = rng.randrange(0, lay.header_end)
        _flip(lay.file, off, rng.randrange(8))
        return Damage(kind, lay.file, off, txns[0].seq if txns else None)
    if kind == "append-torn":
        # the next commit's append, interrupted: a prefix of its record, sometimes with junk after
        from relate.storage import frames
        seq = (lay.frames[-1].seq if lay.frames else 0) + 1
        record = frames.frame(frames.TXN, json.dumps({"seq": seq, "next_node": 10 ** 6, "next_rel": 0,
                                                      "ops": [["cn", 10 ** 6, ["T"], {"i": -1}]]}).encode())
        data = record[:rng.randint(1, len(record) - 1)]
        if rng.random() < 0.3:
            data += bytes(rng.choice((0, rng.getrandbits(8))) for _ in range(rng.randint(1, 64)))
        with open(lay.file, "ab") as fh:
            fh.write(data)
        return Damage(kind, lay.file, lay.size, None)
    raise ValueError(kind)


# ---------------------------------------------------------------------------- checks
def files_of(path: str) -> dict[str, bytes]:
    """Every file of the store (and, for a `.rl`, every file beside it): path -> bytes."""
    root = os.path.dirname(path) if path.endswith(".rl") else path
    out = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            p = os.path.join(dirpath, n)
            out[p] = Path(p).read_bytes()
    return out


def _bookkeeping(path: str) -> bool:
    """The writer's own notes (lease holder, last acknowledged commit), not store data."""
    name = os.path.basename(path)
    return name == "lock" or (name.startswith(".") and name.endswith(".rl.commit"))


@dataclass
class Opened:
    how: str                      # "api" or "cli" or "process"
    read_only: bool
    refused: str | None = None    # the error message
    present: set[int] = field(default_factory=set)
    reports: list[str] = field(default_factory=list)  # warnings / stderr lines


def _api_open(path: str, read_only: bool) -> Opened:
    import relate
    from relate import errors
    from relate.errors import StorageError
    StoreRecoveryWarning = getattr(errors, "StoreRecoveryWarning", Warning)  # noqa: N806 (before the fix: none)
    o = Opened("api", read_only)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            db = relate.connect(path, read_only=read_only)
        except StorageError as e:
            o.refused = e.message
        else:
            try:
                o.present = {r[0] for r in db.execute(QUERY).rows}
            finally:
                db.close()
    o.reports = [str(w.message) for w in caught if issubclass(w.category, StoreRecoveryWarning)]
    return o


def _cli_result(o: Opened, code: int, out: str, err: str) -> Opened:
    lines = err.splitlines()
    if code != 0:
        assert any(line.startswith("Error: Failed to open Relate: storage error: ") for line in lines), err
        o.refused = err
    else:
        o.present = {json.loads(line)["i"] for line in out.splitlines() if line.startswith('{"i"')}
    o.reports = [line for line in lines if line.startswith("warning: ")]
    return o


def _cli_open(path: str, read_only: bool) -> Opened:
    from relate.cli.main import run
    out, err = io.StringIO(), io.StringIO()
    argv = ["--database", path] + (["--read-only"] if read_only else []) + [QUERY]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = run(argv, stdout=out, stderr=err)
    o = _cli_result(Opened("cli", read_only), code, out.getvalue(), err.getvalue())
    assert not caught, f"the CLI let a Python warning through: {caught[0].message}"
    return o


def _process_open(path: str, read_only: bool) -> Opened:
    argv = [RELATE, "--database", path] + (["--read-only"] if read_only else []) + [QUERY]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return _cli_result(Opened("process", read_only), proc.returncode, proc.stdout, proc.stderr)


OPENERS = {"api": _api_open, "cli": _cli_open, "process": _process_open}


def check_open(path: str, how: str, read_only: bool, acked: set[int]) -> tuple[Opened, list[str]]:
    """Open the store one way -> (what happened, the invariants it broke)."""
    before = files_of(path)
    o = OPENERS[how](path, read_only)
    after = files_of(path)
    problems = []
    where = f"{how} {'read-only' if read_only else 'writable'} open"
    if read_only:
        if after != before:
            problems.append(f"{where} changed the files")
    else:
        created = {p: b for p, b in after.items() if p not in before}
        for p, old in before.items():
            new = after.get(p, b"")
            if new == old or _bookkeeping(p):
                continue
            if not old.startswith(new):
                problems.append(f"{where} rewrote {p} (not a cut)")
                continue
            lost = old[len(new):]
            keeper = [c for c, b in created.items() if b == lost or (p not in after and b == old)]
            if not keeper:
                problems.append(f"{where} dropped {len(lost)} bytes of {p} and kept them nowhere")
            elif not any(os.path.basename(k) in r for k in keeper for r in o.reports):
                problems.append(f"{where} kept dropped bytes in {keeper[0]} without saying so")
    if o.refused is None:
        missing = acked - o.present
        if missing and not o.reports:
            problems.append(f"{where}: acknowledged commits {sorted(missing)[:5]} silently gone")
    return o, problems


def goes_on(path: str, present: set[int]) -> list[str]:
    """After a writable open took the store: one more commit, and a reopen sees it all."""
    import relate
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        db = relate.connect(path)
        db.execute("CREATE (:T {i: -7})")
        db.close()
        db = relate.connect(path, read_only=True)
        seen = {r[0] for r in db.execute(QUERY).rows}
        db.close()
    problems = [f"the reopened store warned: {w.message}" for w in caught]
    if seen != present | {-7}:
        problems.append(f"after a commit and a reopen: {sorted(seen ^ (present | {-7}))[:5]} differ")
    return problems


# ---------------------------------------------------------------------------- one case
@dataclass
class Case:
    number: int
    base: str
    store: str       # "rl" or "dir"
    kind: str
    damage: Damage | None
    outcomes: dict[str, str] = field(default_factory=dict)  # "api-ro" -> refused / intact / reported
    problems: list[str] = field(default_factory=list)


def _outcome(o: Opened, acked: set[int]) -> str:
    if o.refused is not None:
        return "refused"
    if o.reports:
        return "reported" if acked <= o.present else "reported-missing"
    return "intact"


def run_case(number: int, base: Base, kind: str, scratch: Path, rng: random.Random, hows=("api", "cli")) -> Case:
    work = scratch / f"case{number}"
    work.mkdir()
    name = os.path.basename(base.path)

    def fresh(tag: str) -> str:
        dst = work / tag
        dst.mkdir()
        target = str(dst / name)
        if base.is_rl:
            shutil.copy2(base.path, target)
            for side in os.listdir(os.path.dirname(base.path)):
                if side.startswith(f".{name}."):
                    shutil.copy2(os.path.join(os.path.dirname(base.path), side), dst / side)
        else:
            shutil.copytree(base.path, target)
        return target

    proto = fresh("proto")
    d = damage(proto, kind, rng) if kind != "none" else None
    case = Case(number, base.name, "rl" if base.is_rl else "dir", kind, d)
    if kind != "none" and d is None:
        return case
    damaged = files_of(proto)

    def copy_damaged(tag: str) -> str:
        dst = work / tag
        dst.mkdir()
        for p, b in damaged.items():
            q = dst / os.path.relpath(p, work / "proto")
            q.parent.mkdir(parents=True, exist_ok=True)
            q.write_bytes(b)
        return str(dst / name)

    # statement i is transaction i + 1 (one commit each, numbered from 1)
    must_refuse = d is not None and d.hits_seq is not None and d.hits_seq <= max(base.acked, default=-1) + 1
    must_open = kind in ("none", "append-torn")
    for how in hows:
        for read_only in (True, False):
            path = proto if read_only else copy_damaged(f"{how}-rw")
            o, problems = check_open(path, how, read_only, base.acked)
            tag = f"{how}-{'ro' if read_only else 'rw'}"
            case.outcomes[tag] = _outcome(o, base.acked)
            case.problems += [f"case {number} ({base.name}, {kind}): {p}" for p in problems]
            if must_refuse and o.refused is None:
                case.problems.append(f"case {number} ({base.name}, {kind} at {d and d.offset}): {tag} did "
                                     f"not refuse damage to acknowledged transaction {d and d.hits_seq}")
            if must_open and (o.refused is not None or not base.acked <= o.present):
                case.problems.append(f"case {number} ({base.name}, {kind}): {tag} lost the store: "
                                     f"{o.refused or sorted(base.acked - o.present)[:5]}")
            if o.refused is not None and d is not None:
                if os.path.basename(d.file) not in o.refused:
                    case.problems.append(f"case {number}: {tag} refusal does not name {d.file}: {o.refused}")
            if how == "api" and not read_only and o.refused is None:
                case.problems += [f"case {number} ({base.name}, {kind}): {p}" for p in goes_on(path, o.present)]
    return case


def plan(bases: list[Base], seed: int, per_kind: int) -> list[tuple[Base, str]]:
    """Which (base, kind) pairs to run: every kind on every base, `per_kind` times, plus 'none' on the
    killed bases (the interrupted append a SIGKILL left, if any)."""
    rng = random.Random(seed)
    out = []
    for b in bases:
        if b.killed:
            out.append((b, "none"))
        for kind in (RL_KINDS if b.is_rl else DIR_KINDS):
            out += [(b, kind)] * per_kind
    rng.shuffle(out)
    return out


def run_all(scratch: Path, seed: int, per_kind: int, process_every: int = 0) -> tuple[list[Base], list[Case]]:
    (scratch / "bases").mkdir()
    bases = build_bases(scratch / "bases", seed)
    rng = random.Random(seed + 1)
    cases = []
    for n, (b, kind) in enumerate(plan(bases, seed, per_kind)):
        hows = ("api", "cli", "process") if process_every and n % process_every == 0 else ("api", "cli")
        cases.append(run_case(n, b, kind, scratch, rng, hows))
    return bases, cases
