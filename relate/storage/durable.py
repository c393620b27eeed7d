"""What the two durable stores (`dirstore.py`, `filestore.py`) share: a store file's bytes -> the
graph of its snapshot, transaction frames -> replayed onto it, and a finished transaction -> one
appended, synced frame.

Invariants both kinds keep (each kind's file adds its own layout and steps):
1. A commit turns the transaction's redo steps into exactly one `T` frame numbered last seq + 1,
   writes it right after the last valid frame and syncs it before returning (`_next_frame`,
   `_append`).  A transaction that changed nothing writes nothing.
2. A failed append is cut back to where it started, and the store refuses every later commit
   (`broken`) until it is reopened, so an unacknowledged transaction never sits under an
   acknowledged one.
3. Folding the log into a new snapshot right after a commit (checkpoint, compaction) is best
   effort: the commit is already durable, and a failed fold is tried again by the next commit.
4. Recovery reads a snapshot only from a file that starts with a valid `S` frame, then replays the
   `T` frames after it in seq order (`snapshot.apply_txn` refuses a frame out of order); damage
   with valid data after it is refused, never skipped.
5. A read-only store takes no lease, refuses commits and checkpoints, and writes nothing.
"""
from __future__ import annotations

import os

from ..errors import E, LockedStoreError, StorageError
from . import frames, snapshot
from .base import Store
from .fs import io_error
from .graph import Graph


class DurableStore(Store):
    """A store whose commits go to disk.  Subclasses set `fs`, `seq` and `broken` before use."""

    seq: int
    broken: StorageError | None

    def _refuse_read_only(self, where: str) -> None:
        if self.read_only:
            raise E.Storage.ReadOnly(where=where)

    def _next_frame(self, where: str) -> tuple[int, bytes] | None:
        """The commit preamble: the next sequence number and the framed record of the
        just-finished transaction, or None when it changed nothing.  Refuses on a read-only
        store and after an earlier failed write (`self.broken`)."""
        self._refuse_read_only(where)
        if self.broken is not None:
            raise self.broken
        txn = self.graph.txn
        if txn is None or not txn.redo:
            return None
        seq = self.seq + 1
        return seq, frames.frame(frames.TXN, snapshot.txn_payload(seq, self.graph, txn.redo))

    def _append(self, file, offset: int, data: bytes, where: str) -> None:
        """Write `data` at `offset` and sync; on failure cut the file back to `offset`, mark the
        store broken and raise."""
        try:
            file.write_at(offset, data)
            file.sync()
        except OSError as e:
            self.broken = io_error("write", where, e)
            try:
                cut(file, offset)
            except OSError:
                pass
            raise self.broken from None

    @staticmethod
    def _fold_when(grown: int, minimum: int, snapshot_bytes: int, fold) -> None:
        """After a commit: `fold()` once the log outweighs both `minimum` and the snapshot."""
        if grown > max(minimum, snapshot_bytes):
            try:
                fold()
            except (OSError, StorageError):
                pass  # the commit is durable in its frame; the next commit tries again


def cut(file, end: int) -> None:
    """Drop the bytes after `end` (an interrupted or failed append) and sync."""
    file.truncate(end)
    file.sync()


def read_snapshot(raw: bytes, where: str, damaged: str, *, alone: bool) -> tuple[Graph, int, frames.Scan]:
    """A store file's bytes -> (the graph of its `S` frame, that frame's seq, the scan of all its
    frames).  The file must start with a valid `S` frame, and when `alone` hold nothing else;
    otherwise it is refused as damaged, naming `damaged` (which file or part)."""
    sc = frames.scan(raw, frames.check_header(raw, frames.STORE_MAGIC, where))
    if (not sc.frames or sc.frames[0][0] != frames.SNAPSHOT
            or alone and (len(sc.frames) != 1 or sc.ending is not frames.Ending.CLEAN)):
        raise E.Storage.Corrupt(f"checksum mismatch in {damaged}, the store is damaged: {where}")
    if sc.ending is frames.Ending.DAMAGED:
        raise E.Storage.Corrupt(f"checksum mismatch in a transaction record in the middle of the "
                                f"file (offset {sc.end}); refusing to skip it: {where}")
    graph, seq = snapshot.load_payload(sc.frames[0][1], where)
    return graph, seq, sc


def replay(graph: Graph, txn_frames, seq: int, where: str) -> int:
    """Apply `T` frames numbered seq+1, seq+2, ... to `graph` -> the last seq applied."""
    for _tag, payload, _ in txn_frames:
        seq = snapshot.apply_txn(graph, payload, seq + 1, where)
    return seq


def locked(path: str, holder: str = "") -> LockedStoreError:
    """Another process holds the writer lease (`holder`: its pid, when it wrote one)."""
    who = f" (pid {holder})" if holder.isdigit() else ""
    return E.Locked.Locked(who=who, where=path)


def remove_stray_temps(fs, folder: str, names, prefix: str) -> None:
    """Delete the temporary files (`.<name>.tmp-<pid>`, starting with `prefix`) an interrupted
    write left in `folder`; only the lease holder writes them, so none of them is in use."""
    for name in names:
        if name.startswith(prefix) and ".tmp-" in name:
            try:
                fs.unlink(os.path.join(folder, name))
            except OSError:
                pass
