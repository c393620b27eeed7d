"""SIGKILL a writing process at random moments; every reopen must find a prefix of its transactions.

A child process opens the store, continues the numbered sequence of transactions where the store
left off, and reports each one after `execute` returns (acknowledged).  The test kills it at a
random moment (while opening and recovering, mid-commit, mid-checkpoint), then opens the store
read-only: transactions 0..k-1 must be there, whole, with k covering every acknowledged one.  Small
checkpoint thresholds make checkpoints and compactions happen under the kills too.  Kills per store
kind: RELATE_CRASH_KILLS (default 100, so 200 in all).

An interrupted append a kill leaves is never refused (no child's open fails), and its bytes are never
destroyed: every tail seen after a kill ends up in a `torn-` file the next writer set aside, or is
still in the store at the end.

Every counter write is dated (`AT VALID`, transaction i valid from second i after 2000-01-01), so
the history rides the same kills: after each one, reads at past times find the value each
acknowledged transaction dated.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time

import pytest

import relate
from relate.errors import StorageError

KILLS = int(os.environ.get("RELATE_CRASH_KILLS", "100"))

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or os.name != "posix", reason="needs POSIX signals")


def dated(i: int, half: bool = False) -> str:
    """The valid time transaction i gives its counter write (`half`: half a second later)."""
    return f"2000-01-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}{'.5' if half else ''}Z"


def writer(path: str, conn, checkpoint_bytes: int, seed: int) -> None:
    """The child: write transactions forever, reporting each acknowledged one."""
    from relate.storage import dirstore, filestore
    dirstore.CHECKPOINT_MIN_BYTES = checkpoint_bytes
    filestore.COMPACT_MIN_BYTES = checkpoint_bytes
    rng = random.Random(seed)
    try:
        db = relate.connect(path)
    except StorageError as e:
        conn.send_bytes(b"refused: " + e.message.encode())
        return
    rows = db.execute("MATCH (c:Counter) RETURN c.n").rows
    i = rows[0][0] + 1 if rows else 0
    if i == 0:
        db.execute("AT VALID $t CREATE (:Counter {n: 0}), (:T {i: 0, pad: ''})", {"t": dated(0)})
        conn.send_bytes(b"0")
        i = 1
    while True:
        db.execute("AT VALID $t MATCH (c:Counter) SET c.n = $i CREATE (:T {i: $i, pad: $pad})-[:AFTER]->(c)",
                   {"i": i, "t": dated(i), "pad": "x" * rng.randint(0, 300)})
        conn.send_bytes(str(i).encode())
        i += 1


def torn_tail(path: str) -> bytes:
    """The bytes after the last valid record (of the newest WAL segment), b"" when there are none."""
    from .damage_cases import layout
    if not path.endswith(".rl") and not os.listdir(os.path.join(path, "wal")):
        return b""
    lay = layout(path)
    raw = open(lay.file, "rb").read()
    if not any(not f.snapshot for f in lay.frames) and not path.endswith(".rl"):
        return raw  # a segment without one valid record goes aside whole
    return raw[lay.valid_end:]


def kept_tails(path: str) -> list[bytes]:
    folder = os.path.dirname(path) if path.endswith(".rl") else path
    prefix = os.path.basename(path) + ".torn-" if path.endswith(".rl") else "torn-"
    return [open(os.path.join(folder, n), "rb").read() for n in os.listdir(folder) if n.startswith(prefix)]


def check_prefix(path: str, acked: int) -> int:
    """Open read-only; assert a whole prefix 0..k-1 with k >= acked; return k."""
    try:
        db = relate.connect(path, read_only=True)
    except StorageError as e:
        # killed while creating the store: the folder exists, its marker not yet
        assert acked == 0 and e.kind == "NotFound"
        return 0
    try:
        seen = sorted(r[0] for r in db.execute("MATCH (t:T) RETURN t.i").rows)
        k = len(seen)
        assert seen == list(range(k)), "a gap: a transaction is missing or was applied twice"
        counter = db.execute("MATCH (c:Counter) RETURN c.n").rows
        assert counter == ([(k - 1,)] if k else []), "a transaction was applied only in part"
        rels = db.execute("MATCH (:T)-[r:AFTER]->(:Counter) RETURN count(r)").rows[0][0]
        assert rels == max(k - 1, 0), "a transaction was applied only in part"
        for j in sorted({1, k - 1, k // 2, k // 3}):  # the history: what each dated write said
            if 1 <= j < k:
                past = db.execute("AS OF $t MATCH (c:Counter) RETURN c.n", {"t": dated(j, half=True)}).rows
                assert past == [(j,)], f"the history lost transaction {j}'s dated value"
    finally:
        db.close()
    assert k >= acked, f"an acknowledged transaction was lost ({k} present, {acked} acknowledged)"
    return k


@pytest.mark.parametrize("name", ["kill.rl", "killdir"])
def test_sigkill_at_random_moments_keeps_a_prefix(tmp_path, name):
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["relate", "relate.database", "relate.storage.dirstore",
                                "relate.storage.filestore", "tests.storage.test_crash_kill"])
    path = str(tmp_path / name)
    rng = random.Random(6)
    acked = 0      # transactions acknowledged so far, over every child
    present = 0
    kills = 0
    tails: list[bytes] = []  # interrupted appends seen after a kill
    unacked = 0    # children since the last acknowledged commit
    deadline = time.monotonic() + 150
    while kills < KILLS:
        assert time.monotonic() < deadline, f"only {kills} kills in the time budget"
        recv, send = ctx.Pipe(duplex=False)
        child = ctx.Process(target=writer, args=(path, send, rng.choice([1500, 6000, 1 << 20]), kills))
        child.start()
        send.close()
        if rng.random() < 0.2:
            time.sleep(rng.random() * 0.03)  # while it opens and recovers
        else:
            recv.poll(2.0)                   # once it writes
            time.sleep(rng.random() * 0.05)
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        kills += 1
        before = acked
        while True:
            try:
                if not recv.poll(0):
                    break
                got = recv.recv_bytes()
                assert not got.startswith(b"refused"), got.decode()
                acked = max(acked, int(got) + 1)
            except EOFError:
                break
        recv.close()
        if not os.path.exists(path):
            assert acked == 0
            continue
        present = check_prefix(path, acked)
        # each child adds at most one unacknowledged commit (the one in flight when it died)
        unacked = unacked + 1 if acked == before else 1
        assert present <= acked + unacked, "more transactions than were ever sent"
        if present:
            tail = torn_tail(path)
            if tail:
                tails.append(tail)
    assert kills >= KILLS and acked > KILLS, "the kills should land while transactions flow"
    kept = kept_tails(path) + [torn_tail(path)]
    assert all(t in kept for t in tails), "an interrupted append was cut off and kept nowhere"
