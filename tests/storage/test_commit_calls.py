"""What one small commit asks of the OS on a durable store: one write call (the frame; the commit
record goes through a shared mapping of its file) and one fdatasync, no folder sync; and the
record it leaves is the one recovery reads, also after the writer dies without closing."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import relate
from relate.storage.durable import recorded_seq
from relate.storage.filestore import record_path

CREATE = "CREATE (:E {i: $i})"


def _counting(monkeypatch):
    calls = {"pwrite": 0, "fsync": 0, "fdatasync": 0}
    pwrite, fsync, fdatasync = os.pwrite, os.fsync, getattr(os, "fdatasync", None)

    def counted(name, fn):
        def call(*a):
            calls[name] += 1
            return fn(*a)
        return call
    monkeypatch.setattr(os, "pwrite", counted("pwrite", pwrite))
    monkeypatch.setattr(os, "fsync", counted("fsync", fsync))
    if fdatasync is not None:
        monkeypatch.setattr(os, "fdatasync", counted("fdatasync", fdatasync))
    return calls


def _record(path: str) -> int | None:
    where = os.path.join(path, "lock") if os.path.isdir(path) else record_path(path)
    with open(where, "rb") as f:
        return recorded_seq(f.read())


@pytest.mark.skipif(not hasattr(os, "fdatasync"), reason="fdatasync is a Linux call")
@pytest.mark.parametrize("kind", ["file", "dir"])
def test_a_small_commit_makes_one_write_call_and_one_fdatasync(tmp_path, monkeypatch, kind):
    path = str(tmp_path / ("s.rl" if kind == "file" else "s"))
    db = relate.connect(path)
    for i in range(3):  # the plan is cached, the segment and the record file exist
        db.execute(CREATE, {"i": i})
    calls = _counting(monkeypatch)
    for i in range(20):
        db.execute(CREATE, {"i": 100 + i})
    assert calls == {"pwrite": 20, "fsync": 0, "fdatasync": 20}
    assert _record(path) == db.store.seq
    db.close()
    monkeypatch.undo()
    again = relate.connect(path)
    assert again.execute("MATCH (e:E) RETURN count(*)").rows == [(23,)]
    again.close()


@pytest.mark.parametrize("kind", ["file", "dir"])
def test_the_record_a_killed_writer_leaves_names_its_last_commit(tmp_path, kind):
    path = str(tmp_path / ("s.rl" if kind == "file" else "s"))
    code = (f"import os, relate\ndb = relate.connect({path!r})\n"
            f"for i in range(30):\n    db.execute({CREATE!r}, {{'i': i}})\n"
            "print(db.store.seq, flush=True)\nos.kill(os.getpid(), 9)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    seq = int(out.stdout.split()[0])
    assert _record(path) == seq
    db = relate.connect(path)
    assert db.execute("MATCH (e:E) RETURN count(*)").rows == [(30,)]
    db.execute(CREATE, {"i": 99})
    db.close()
