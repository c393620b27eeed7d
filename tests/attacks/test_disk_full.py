"""A disk that fills up (or a file over its size limit) under a writing store: the failed write is
named on stderr, the caller gets a typed error saying nothing was written, reads go on, and the
first commit after space is free goes through.  No acknowledged commit is lost, no refused one
appears, and the store always opens.

In-process, on the simulated disk (tests/storage/faultfs.py): ENOSPC at every changing call of a
run of commits, checkpoints and WAL segment rolls; a disk that stays full; a cut-back that fails
too.  As real processes: `relate serve --mcp stdio` and the CLI under a small RLIMIT_FSIZE (SIGXFSZ
ignored, so writes fail with EFBIG), the limit raised from outside with prlimit.

(Issue 14.  Before: the store marked itself broken, every later write answered `Error: internal
error` until a restart, and nothing was logged.)
"""
from __future__ import annotations

import errno
import json
import os
import random
import resource
import select
import signal
import subprocess
import threading
import time

import pytest

import relate
from relate.errors import StorageError
from relate.storage.store import open_store
from tests.net.server import RELATE, rpc, tool_call
from tests.storage.faultfs import FaultFs
from tests.storage.test_fault_injection import random_txn

KINDS = {"file": "/s/g.rl", "directory": "/s/dir"}
STEPS = 14
CHECKPOINT = 400  # small: folds (checkpoints, compactions) and WAL segment rolls happen in the run


def canon(g) -> str:
    """The graph as text, property order aside (a rolled-back REMOVE puts the key back last)."""
    return json.dumps({
        "nodes": sorted([n.id, sorted(n.labels), sorted(n.props.items())] for n in g.nodes.values()),
        "rels": sorted([r.id, r.type, r.start.id, r.end.id, sorted(r.props.items())] for r in g.rels.values()),
        "indexes": sorted([d.name, d.label, d.key] for d in g.indexes.values()),
        "constraints": sorted([c.name, c.kind.value, c.label, list(c.keys)] for c in g.constraints.values()),
    }, default=repr)


def refused(reason: str) -> str:
    return f"storage error: the write failed and nothing was written ({reason}); the next write tries again"


def storage_lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "relate.storage"]


def commit(store, rng: random.Random, i: int) -> StorageError | None:
    """One random transaction -> None when it was acknowledged, else the error of its refusal
    (the graph is then as before it, as `Database` leaves it)."""
    g = store.graph
    before = canon(g)
    txn = g.begin()
    try:
        random_txn(g, rng, i)
        store.commit()
        store.settle()  # as `Database` does: a fold after the commit, whose failure refuses nothing
    except StorageError as e:
        txn.rollback()
        assert canon(g) == before
        return e
    finally:
        g.end()
    return None


def open_on(fs: FaultFs, path: str):
    if "/s" not in fs.live:
        fs.make_durable_dir("/s")
    return open_store(path, fs=fs, checkpoint_bytes=CHECKPOINT)


def reopened(fs: FaultFs, path: str) -> str:
    """What a restart finds: a reader, and a writer (which recovers and cleans up) agree."""
    seen = canon(open_store(path, read_only=True, fs=fs).graph)
    writer = open_store(path, fs=fs, checkpoint_bytes=CHECKPOINT)
    assert canon(writer.graph) == seen
    writer.close()
    return seen


# ---------------------------------------------------------------------------- the simulated disk
@pytest.mark.parametrize("kind", KINDS)
def test_enospc_at_every_write_point(kind, caplog):
    """Each changing call of the run fails once with ENOSPC, in its own case: the commit it hits is
    refused with the typed error (or, in a fold after the commit, the commit stands and the fold is
    retried), every later commit goes through, and a restart (also after a power cut) finds
    exactly the acknowledged commits."""
    path = KINDS[kind]
    clean = FaultFs()
    store = open_on(clean, path)
    start = clean.ops
    rng = random.Random(7)
    for i in range(STEPS):
        assert commit(store, rng, i) is None
    points = clean.ops - start
    assert points > 3 * STEPS
    refusals = folds = rolls = 0
    for k in range(1, points + 1):
        caplog.clear()
        fs = FaultFs(k)
        store = open_on(fs, path)
        fs.fail(k)
        rng = random.Random(7)
        acked = canon(store.graph)
        failed = []
        for i in range(STEPS):
            e = commit(store, rng, i)
            if e is None:
                acked = canon(store.graph)
            else:
                assert e.kind == "WriteFailed" and e.message == refused("No space left on device"), (k, e)
                assert e.internal and e.retryable  # MCP callers see `Error: internal error`
                failed.append(i)
        assert len(failed) <= 1, f"case {k}: commits after the failed one were refused too: {failed}"
        lines = storage_lines(caplog)
        if failed:
            refusals += 1
            assert any(line.startswith("write failed: cannot ") and "No space left on device" in line
                       for line in lines), (k, lines)
            assert any(line.startswith("writes resume: ") for line in lines) or failed == [STEPS - 1], (k, lines)
            rolls += any("start the WAL segment" in line for line in lines)
        folds += any(line.startswith("checkpoint failed (") for line in lines)
        assert canon(store.graph) == acked
        store.close()
        assert reopened(fs, path) == acked, f"case {k}: the restart found another graph"
        assert reopened(fs.crashed(k), path) == acked, f"case {k}: a power cut then lost or added a commit"
    assert refusals and folds, (refusals, folds)
    if kind == "directory":
        assert rolls


@pytest.mark.parametrize("kind", KINDS)
def test_a_full_disk_refuses_every_commit_until_space_is_free(kind, caplog):
    path = KINDS[kind]
    fs = FaultFs(3)
    store = open_on(fs, path)
    rng = random.Random(1)
    for i in range(3):
        assert commit(store, rng, i) is None
    acked = canon(store.graph)
    ends = (store.file.size(), store.end) if kind == "file" else (store.segment.size(), store.segment_end)
    fs.full = True
    for i in range(3, 7):
        e = commit(store, rng, i)
        assert e is not None and e.message == refused("No space left on device")
        assert canon(store.graph) == acked  # reads see the acknowledged graph throughout
        f, end = (store.file, store.end) if kind == "file" else (store.segment, store.segment_end)
        assert f.size() == end == ends[1], "the failed append was not cut back"
    fs.full = False
    assert commit(store, rng, 7) is None
    acked = canon(store.graph)
    lines = storage_lines(caplog)
    assert sum(line.startswith("write failed: ") for line in lines) == 4, lines
    assert sum(line.startswith("writes resume: ") for line in lines) == 1, lines
    store.close()
    assert reopened(fs, path) == acked
    assert reopened(fs.crashed(5), path) == acked


@pytest.mark.parametrize("kind", KINDS)
def test_a_failed_cut_back_is_redone_by_the_next_commit(kind, caplog):
    """The append fails, and so does cutting it back: the garbage stays at the end of the log until
    the next commit, which cuts it first (refused again while that fails too), then appends."""
    path = KINDS[kind]
    for seed in range(40):
        caplog.clear()
        fs = FaultFs(seed)
        store = open_on(fs, path)
        rng = random.Random(seed)
        assert commit(store, rng, 0) is None
        acked = canon(store.graph)
        f, end = (store.file, store.end) if kind == "file" else (store.segment, store.segment_end)
        fs.fail(1)                     # the append's write: a part of the frame lands
        fs.fail(2, errno.EIO)          # and the cut-back's first step fails
        assert commit(store, rng, 1).message == refused("No space left on device")
        if f.size() == end:
            continue  # nothing of the frame landed: try a seed whose write left bytes behind
        assert any(line.startswith("cannot cut ") and "after the failed write" in line
                   for line in storage_lines(caplog))
        # a restart now finds the acknowledged commit (the torn tail is an interrupted append)
        assert canon(open_store(path, read_only=True, fs=fs).graph) == acked
        fs.fail(1, errno.EIO)          # the next commit's cut-back fails too: refused, nothing written
        e = commit(store, rng, 2)
        assert e.message == refused("Input/output error")
        assert any(line.startswith("write refused: cannot cut ") for line in storage_lines(caplog))
        assert f.size() > end
        assert commit(store, rng, 3) is None  # cut back, then appended
        acked = canon(store.graph)
        store.close()
        assert reopened(fs, path) == acked
        assert reopened(fs.crashed(seed), path) == acked
        return
    pytest.fail("no seed left bytes of the failed write behind")


def test_a_failed_segment_roll_keeps_the_store_openable(caplog):
    """After a checkpoint the next commit starts a WAL segment; its write fails and removing the
    unfinished segment fails too.  The store still opens (with the acknowledged commits), and the
    next commit removes the leftover and starts the segment again."""
    path = KINDS["directory"]
    fs = FaultFs(11)
    store = open_on(fs, path)
    rng = random.Random(11)
    assert commit(store, rng, 0) is None
    store.checkpoint()
    assert store.segment is None
    acked = canon(store.graph)
    fs.fail(3)                 # open (create), truncate, then the write of header + frame
    fs.fail(4, errno.EIO)      # the unlink of the unfinished segment
    assert commit(store, rng, 1).message == refused("No space left on device")
    assert len(fs.listdir("/s/dir/wal")) == 1  # the unfinished segment is still there
    assert canon(open_store(path, read_only=True, fs=fs).graph) == acked
    assert any(line.startswith("write failed: cannot start the WAL segment ") for line in storage_lines(caplog))
    assert commit(store, rng, 2) is None
    acked = canon(store.graph)
    store.close()
    assert reopened(fs, path) == acked
    assert reopened(fs.crashed(2), path) == acked


@pytest.mark.parametrize("kind", KINDS)
def test_a_failed_checkpoint_keeps_the_commit_and_the_store(kind, caplog):
    path = KINDS[kind]
    fs = FaultFs(5)
    store = open_on(fs, path)
    rng = random.Random(5)
    fs.full = True
    for i in range(2):
        assert commit(store, rng, i) is not None
    fs.full = False
    assert commit(store, rng, 2) is None
    acked = canon(store.graph)
    # a checkpoint that runs out of space: refused, the store as it was
    fs.full = True
    with pytest.raises(StorageError) as e:
        store.checkpoint()
    assert "No space left on device" in e.value.message
    fs.full = False
    assert reopened(fs, path) == acked
    assert commit(store, rng, 3) is None
    store.checkpoint()
    acked = canon(store.graph)
    store.close()
    assert reopened(fs, path) == acked


# ---------------------------------------------------------------------------- real processes
LIMIT = 48 * 1024
PAD = "x" * 1500


def _limited(limit: int):
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    return preexec


def _env() -> dict:
    return {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}


class StdioServer:
    """`relate serve --mcp stdio` on pipes (a pipe is not subject to the file size limit)."""

    def __init__(self, database: str, limit: int) -> None:
        self.proc = subprocess.Popen([RELATE, "serve", "--mcp", "stdio", "--database", database],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=_limited(limit), env=_env())
        self.err: list[str] = []
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        self.next_id = 0

    def _drain(self) -> None:
        for line in iter(self.proc.stderr.readline, b""):
            self.err.append(line.decode("utf-8", "replace"))

    def call(self, line: bytes) -> dict:
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        assert ready, f"no reply within 60 s; stderr: {''.join(self.err)}"
        reply = self.proc.stdout.readline()
        assert reply, f"the server died; stderr: {''.join(self.err)}"
        return json.loads(reply)

    def tool(self, name: str, statement: str, **params) -> tuple[bool, str]:
        self.next_id += 1
        reply = self.call(tool_call(self.next_id, name, statement=statement, parameters=params))
        assert reply["id"] == self.next_id
        result = reply["result"]
        return result["isError"], result["content"][0]["text"]

    def wait_stderr(self, needle: str) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for line in self.err:
                if needle in line:
                    return line
            time.sleep(0.05)
        raise AssertionError(f"no stderr line with {needle!r}: {''.join(self.err)}")

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(60)
        self._reader.join(10)
        return code


@pytest.mark.parametrize("name", ["s.rl", "s"])
def test_serve_stdio_over_the_file_size_limit_recovers_when_it_is_raised(tmp_path, name):
    database = str(tmp_path / name)
    server = StdioServer(database, LIMIT)
    try:
        assert "result" in server.call(rpc(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                             "clientInfo": {"name": "attack", "version": "1"}}))
        acked, failed = [], []
        write = "CREATE (:N {i: $i, pad: $pad})"
        for i in range(200):
            is_error, text = server.tool("write_cypher", write, i=i, pad=PAD)
            if is_error:
                assert text == "Error: internal error"  # the reference's text for a storage failure
                failed.append(i)
                break
            acked.append(i)
        assert failed and len(acked) > 5, (acked, failed)
        line = server.wait_stderr("write failed: ")
        assert line.startswith("serve: write failed: cannot append a transaction to ")
        assert database in line and "File too large" in line and "nothing was written" in line
        # reads keep working, and see exactly the acknowledged writes
        is_error, text = server.tool("read_cypher", "MATCH (n:N) RETURN count(n) AS c")
        assert not is_error and json.loads(text)["rows"] == [{"c": len(acked)}]
        # still over the limit: refused again, the same way
        is_error, text = server.tool("write_cypher", write, i=1000, pad=PAD)
        assert is_error and text == "Error: internal error"
        failed.append(1000)
        # the operator raises the limit from outside: the next write goes through
        resource.prlimit(server.proc.pid, resource.RLIMIT_FSIZE,
                         (resource.RLIM_INFINITY, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        is_error, text = server.tool("write_cypher", write, i=2000, pad=PAD)
        assert not is_error, text
        acked.append(2000)
        server.wait_stderr("writes resume: ")
        is_error, text = server.tool("read_cypher", "MATCH (n:N) RETURN count(n) AS c")
        assert json.loads(text)["rows"] == [{"c": len(acked)}]
        assert not any("Traceback" in line for line in server.err)
    finally:
        code = server.close()
    assert code == 0
    # after a restart: every acknowledged write, none of the refused ones
    with relate.connect(database, read_only=True) as db:
        assert sorted(v for (v,) in db.execute("MATCH (n:N) RETURN n.i").rows) == acked


@pytest.mark.parametrize("name", ["s.rl", "s"])
def test_cli_over_the_file_size_limit(tmp_path, name):
    database = str(tmp_path / name)
    with relate.connect(database) as db:
        for i in range(3):
            db.execute("CREATE (:N {i: $i, pad: $pad})", {"i": i, "pad": PAD})
    # the largest file is the one the next commit appends to (the .rl file, or the WAL segment)
    size = max(os.path.getsize(os.path.join(root, f)) for root, _, files in os.walk(database) for f in files) \
        if os.path.isdir(database) else os.path.getsize(database)
    argv = [RELATE, "--database", database, "--mode", "jsonl", "CREATE (:N {i: 3, pad: '" + PAD + "'})"]
    proc = subprocess.run(argv, capture_output=True, timeout=60, preexec_fn=_limited(size + 200), env=_env())
    assert proc.returncode == 1, proc.stderr
    err = proc.stderr.decode()
    assert "relate: write failed: cannot append a transaction to " in err and "File too large" in err, err
    assert "Error: " + refused("File too large") in err
    error = json.loads(proc.stdout)["error"]
    assert (error["kind"], error["retryable"]) == ("WriteFailed", True)
    # the same write with room for it goes through; the refused one left nothing
    proc = subprocess.run(argv, capture_output=True, timeout=60, env=_env())
    assert proc.returncode == 0, proc.stderr
    with relate.connect(database, read_only=True) as db:
        assert db.execute("MATCH (n:N) RETURN n.i ORDER BY n.i").rows == [(0,), (1,), (2,), (3,)]
