"""The single-file store: a `.rl` path -> a graph, kept as one file at rest.

File layout: the header line `RELATE-STORE 2`, one `S` frame (the graph as of transaction s), then
`T` frames s+1, s+2, ... appended by commits (frames.py).

Invariants (each step below keeps them, so a crash at any instant leaves a readable file):
1. The header and the `S` frame are never written in place: a new file is written whole under a
   temporary name and synced, then given its final name (`link` for a new store, so it never
   replaces one; `rename` for compaction), then the folder is synced.  The file at the path is
   therefore always a complete header + snapshot, possibly followed by transaction frames.
2. A commit appends exactly one `T` frame right after the last valid frame and syncs the file,
   then notes its seq in the commit record `.<name>.rl.commit` beside the file (written, not
   synced: durable.py invariants 6 and 7) before it returns.  On open, valid frames that stop short
   of the recorded seq are damage to acknowledged commits and are refused; bytes past the last
   valid frame, when the frames reach the record, are one interrupted append: the writer moves
   them to `<name>.rl.torn-<seq>-<time>` beside the file, cuts them off and reports it; readers
   ignore them.  A damaged frame followed by a valid one is damage, not an interrupted append, and
   is refused.  Creating a store file deletes a commit record left by an earlier file of that name.
3. Only the holder of the writer lease appends or compacts.  The lease is an exclusive `flock` on
   the file itself; the kernel drops it when its process dies.  Because compaction gives the path
   a new inode, a writer checks after locking that the path still names the inode it locked, and
   compaction locks the new file before renaming it into place.
4. Compaction (when the appended frames outweigh the snapshot) writes header + `S` frame of the
   current graph to a temporary file and renames it over the path: the same graph, shorter file.
5. A failed append is cut off again, and again (checked) before the next commit, which then
   proceeds; while that fails, commits are refused.  An unacknowledged transaction never sits
   under an acknowledged one (durable.py, with the commit preamble and the frame reading both
   durable kinds share).
"""
from __future__ import annotations

import os
from typing import Any

from ..errors import E, StorageError
from . import frames, snapshot
from .durable import (DurableStore, check_reach, cut, dropped, ignored, locked, put_record, read_snapshot,
                      recorded_seq, remove_stray_temps, replay, report, set_aside, took_lease)
from .fs import io_error, temp_name, write_whole
from .graph import Graph

COMPACT_MIN_BYTES = 1 << 20


def parse(raw: bytes, where: str) -> tuple[Graph, int, int, frames.Ending, int]:
    """File bytes -> (graph, seq, end of valid data, how the file ends, snapshot frame size)."""
    graph, seq, sc = read_snapshot(raw, where, "the snapshot at the start of the file", alone=False)
    seq = replay(graph, _transactions(sc.frames[1:], where), seq, where)
    return graph, seq, sc.end, sc.ending, sc.frames[0][2]


def _transactions(appended, where: str):
    """The frames after the snapshot, each refused when it is not a transaction (as it comes)."""
    for record in appended:
        if record[0] != frames.TXN:
            raise E.Storage.Corrupt(f"a second snapshot inside the file: {where}")
        yield record


class FileStore(DurableStore):
    kind = "file"

    def __init__(self, path: str, read_only: bool, fs, checkpoint_bytes: int | None) -> None:
        self.fs = fs
        # the open store file, from the `fs` seam (untyped: `OsFile` or a test's stand-in); None only
        # on a read-only open, which never appends or compacts
        self.file: Any = None
        self.broken: StorageError | None = None
        self.compact_min = COMPACT_MIN_BYTES if checkpoint_bytes is None else checkpoint_bytes
        self.record = record_path(path)
        self.record_file: Any = None  # opened by the first commit
        if read_only:
            acked = self._recorded()  # before the file: the record never names a frame not yet there
            try:
                raw = fs.read(path)
            except FileNotFoundError:
                raise E.Storage.NotFound(where=path) from None
            except IsADirectoryError:
                raise E.Storage.Corrupt(
                    f"not a relate store (a folder named like a .rl file): {path}") from None
            except OSError as e:
                raise io_error("read", path, e) from None
            graph, seq, end, _ending, _snap = self._parse(raw, path)
            check_reach(path, seq, end, len(raw), acked, self.record)
            if end < len(raw) and acked is None:
                report(ignored(path, end, len(raw) - end, seq))
            super().__init__(path, True, graph)
            return
        self.file = self._acquire(path)
        took_lease(path, self)
        try:
            acked = self._recorded()
            raw = self.file.read_at(0, self.file.size())
            graph, seq, end, ending, snap = self._parse(raw, path)
            check_reach(path, seq, end, len(raw), acked, self.record)
            super().__init__(path, False, graph)
            self.seq = seq
            self.end = end
            self.snapshot_bytes = snap
            self._remove_stray_copies()
            if snapshot.is_legacy(raw):
                self._compact()  # the first layout: rewrite it in the current format
            elif ending is frames.Ending.TORN:
                self._set_aside_tail(raw, end, seq, acked is not None)
            graph.durable = True
        except BaseException:
            self.file.close()
            self.file = None  # no lease held: a retry in this process is not "already open"
            raise

    def _recorded(self) -> int | None:
        """The last acknowledged seq the commit record names, None without one (invariant 2)."""
        try:
            return recorded_seq(self.fs.read(self.record))
        except OSError:
            return None

    def _set_aside_tail(self, raw: bytes, end: int, seq: int, known: bool) -> None:
        """An interrupted append: keep its bytes beside the store, cut them off, say so."""
        kept = set_aside(self.fs, f"{self.path}.torn-{seq + 1}", raw[end:])
        cut(self.file, end)
        report(dropped(self.path, end, len(raw) - end, seq, os.path.basename(kept), known))

    def _note(self, seq: int) -> None:
        """After a synced commit: the commit record names it (written, not synced)."""
        try:
            if self.record_file is None:
                self.record_file = self.fs.open(self.record, create=True)
            put_record(self.record_file, seq)
        except OSError:
            pass  # the record lags: a later open checks less, never refuses wrongly

    @staticmethod
    def _parse(raw: bytes, path: str):
        if snapshot.is_legacy(raw):
            return snapshot.load_legacy(raw, path), 0, len(raw), frames.Ending.CLEAN, len(raw)
        return parse(raw, path)

    def _acquire(self, path: str):
        fs = self.fs
        for _ in range(100):
            if not fs.exists(path):
                self._create(path)
            try:
                f = fs.open(path)
            except FileNotFoundError:
                continue
            except IsADirectoryError:
                raise E.Storage.Corrupt(
                    f"not a relate store (a folder named like a .rl file): {path}") from None
            except OSError as e:
                raise io_error("open", path, e) from None
            if not fs.lock(f):
                f.close()
                raise locked(path)
            if f.identity() == fs.identity(path):
                return f
            f.close()  # compaction replaced the file between our open and our lock
        raise E.Storage.Io(f"cannot take the writer lease of {path}: the file keeps changing")

    def _remove_stray_copies(self) -> None:
        """Delete temporary files a crashed compaction or creation left beside the store (only the
        lease holder compacts, so none of them is in use)."""
        folder = os.path.dirname(self.path)
        try:
            names = self.fs.listdir(folder or ".")
        except OSError:
            return
        remove_stray_temps(self.fs, folder, names, f".{os.path.basename(self.path)}.tmp-")
        remove_stray_temps(self.fs, folder, names, f".{os.path.basename(self.path)}.torn-")  # of set_aside

    def _create(self, path: str) -> None:
        """Write an empty store under a temporary name, then link it into place (never replacing a
        store another process created meanwhile)."""
        tmp = temp_name(path)
        try:
            f = self.fs.open(tmp, create=True)
            try:
                write_whole(f, snapshot.snapshot_file(Graph(), 0))
            finally:
                f.close()
            forget_record(self.fs, path)
            try:
                self.fs.link(tmp, path)
            except FileExistsError:
                pass
            except OSError:
                # no hard links here (some file systems): a rename may replace a racing creation,
                # whose writer then fails its inode check and retries
                if not self.fs.exists(path):
                    self.fs.rename(tmp, path)
            try:
                self.fs.unlink(tmp)
            except FileNotFoundError:
                pass
            self.fs.sync_dir(os.path.dirname(path))
        except FileNotFoundError as e:
            raise E.Storage.Io(f"cannot create {path}: {e.strerror or e}") from None
        except OSError as e:
            raise io_error("create", path, e) from None

    # ------------------------------------------------------------------ commits
    def commit(self) -> None:
        pending = self._next_frame(self.path)
        if pending is None:
            return
        seq, data = pending
        self._append(self.file, self.end, data)
        self.end += len(data)
        self.seq = seq
        self._note(seq)

    def settle(self) -> None:
        grown = self.end - self.snapshot_bytes
        if grown > self.compact_min and grown > self.snapshot_bytes:
            self._fold_when(grown, self.compact_min, self.snapshot_bytes, self._compact)

    def checkpoint(self) -> None:
        """Compact now: the file becomes one snapshot of the current graph."""
        self._refuse_read_only(self.path)
        self._restore()
        try:
            self._compact()
        except OSError as e:
            raise io_error("compact", self.path, e) from None

    def _compact(self) -> None:
        data = snapshot.snapshot_file(self.graph, self.seq)
        tmp = temp_name(self.path)
        fs = self.fs
        f = fs.open(tmp, create=True)
        try:
            write_whole(f, data)
            if not fs.lock(f):
                raise E.Storage.Io(f"cannot lock the compacted copy of {self.path}")
            fs.rename(tmp, self.path)
        except BaseException:
            f.close()
            try:
                fs.unlink(tmp)
            except OSError:
                pass
            raise
        fs.sync_dir(os.path.dirname(self.path))
        old, self.file = self.file, f
        old.close()
        self.end = len(data)
        self.snapshot_bytes = len(data)

    def holds_lease(self) -> bool:
        return self.file is not None

    def close(self) -> None:
        if self.record_file is not None:
            self.record_file.close()
            self.record_file = None
        if self.file is not None:
            self.file.close()
            self.file = None


def record_path(path: str) -> str:
    """Where a `.rl` file's commit record is: `.<name>.rl.commit` beside it."""
    return os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.commit")


def forget_record(fs, path: str) -> None:
    """A new store file is about to take `path`: a commit record of an earlier file there goes first
    (and durably, so a power cut cannot bring it back beside the new file)."""
    try:
        fs.unlink(record_path(path))
    except FileNotFoundError:
        return
    fs.sync_dir(os.path.dirname(path))
