"""What the two durable stores (`dirstore.py`, `filestore.py`) share: a store file's bytes -> the
graph of its snapshot, transaction frames -> replayed onto it, and a finished transaction -> one
appended, synced frame.

Invariants both kinds keep (each kind's file adds its own layout and steps):
1. A commit turns the transaction's redo steps into exactly one `T` frame numbered last seq + 1,
   writes it right after the last valid frame and syncs it before returning (`_next_frame`,
   `_append`).  A transaction that changed nothing writes nothing.
2. A failed write of a commit (no space left, the file size limit, an I/O error) is logged to the
   `relate.storage` logger (what failed, the file, the OS's words) and answered with
   `StorageWrite.WriteFailed`; what it left is undone at once (a failed append is cut back to
   where it started, an unfinished WAL segment removed: `_failed`).  The next commit first does
   that undo again and checks it (`_restore`: the file ends where the last acknowledged frame
   ends), so it holds even when the first try failed too; while it fails, every commit is
   refused with the same error.  Then the commit proceeds: an unacknowledged transaction never
   sits under an acknowledged one, and the store takes writes again once the disk does.
3. Folding the log into a new snapshot right after a commit (checkpoint, compaction) is best
   effort: the commit is already durable, and a failed fold is logged and tried again by the
   next commit.
4. Recovery reads a snapshot only from a file that starts with a valid `S` frame, then replays the
   `T` frames after it in seq order (`snapshot.apply_txn` refuses a frame out of order); damage
   with valid data after it is refused, never skipped.
5. A read-only store takes no lease, refuses commits and checkpoints, and writes nothing.
"""
from __future__ import annotations

import logging
import os
from typing import Callable

from ..errors import E, LockedStoreError, StorageError
from . import frames, snapshot
from .base import Store
from .fs import reason, write_failed
from .graph import Graph

log = logging.getLogger("relate.storage")
_NOT_WRITTEN = "nothing was written, reads go on, the next write tries again"


class DurableStore(Store):
    """A store whose commits go to disk.  Subclasses set `fs`, `seq` and `broken` before use."""

    seq: int
    broken: StorageError | None  # the error of the last failed write, until a write succeeds again
    # after a failed write: what puts the files back where the last acknowledged commit left them
    # (what it does, for the log; the call), done again before the next commit
    _repair: tuple[str, Callable[[], None]] | None = None

    def _refuse_read_only(self, where: str) -> None:
        if self.read_only:
            raise E.Storage.ReadOnly(where=where)

    def _next_frame(self, where: str) -> tuple[int, bytes] | None:
        """The commit preamble: the next sequence number and the framed record of the
        just-finished transaction, or None when it changed nothing.  Refuses on a read-only
        store, and while the undo of an earlier failed write keeps failing (`_restore`)."""
        self._refuse_read_only(where)
        txn = self.graph.txn
        if txn is None or not txn.redo:
            return None
        self._restore()
        seq = self.seq + 1
        return seq, frames.frame(frames.TXN, snapshot.txn_payload(seq, self.graph, txn.redo))

    def _append(self, file, offset: int, data: bytes) -> None:
        """Write `data` at `offset` and sync; on failure cut the file back to `offset` (now, and
        again before the next commit) and raise `WriteFailed`."""
        step = "write"
        try:
            file.write_at(offset, data)
            step = "sync"
            file.sync()
        except OSError as e:
            undo = (f"cut {file.path} back to its last transaction ({offset} bytes)",
                    lambda: cut_back(file, offset))
            raise self._failed(f"append a transaction to {file.path}", step, e, undo) from None
        self._resumed(file.path)

    def _failed(self, action: str, step: str, e: OSError, undo: tuple[str, Callable[[], None]]) -> StorageError:
        """A write of a commit failed: say so on the log, try `undo` now (it runs again before the
        next commit) -> the error the commit answers with."""
        log.error("write failed: cannot %s (%s: %s); %s", action, step, reason(e), _NOT_WRITTEN)
        self.broken = write_failed(e)
        self._repair = undo
        try:
            undo[1]()
        except OSError as e2:
            log.error("cannot %s after the failed write: %s; the next write tries again", undo[0], reason(e2))
        return self.broken

    def _restore(self) -> None:
        """Before the first commit after a failed write: undo what it left, again and checked (a
        cut-back that failed then is done now).  While that fails, the commit is refused with the
        same error; nothing is written."""
        if self._repair is None:
            return
        what, undo = self._repair
        try:
            undo()
        except OSError as e:
            log.error("write refused: cannot %s (%s); %s", what, reason(e), _NOT_WRITTEN)
            self.broken = write_failed(e)
            raise self.broken from None
        self._repair = None

    def _resumed(self, path: str) -> None:
        """A commit reached the disk: after a failed one, say that writes resume."""
        if self.broken is not None:
            self.broken = None
            log.warning("writes resume: %s took a transaction again", path)

    def _fold_when(self, grown: int, minimum: int, snapshot_bytes: int, fold) -> None:
        """After a commit: `fold()` once the log outweighs both `minimum` and the snapshot."""
        if grown > max(minimum, snapshot_bytes):
            try:
                fold()
            except (OSError, StorageError) as e:
                # the commit is durable in its frame; the next commit tries again
                what = e.detail if isinstance(e, StorageError) else f"{self.path}: {reason(e)}"
                log.warning("checkpoint failed (%s); the transaction is durable in the log, the next "
                            "commit tries again", what)


def cut(file, end: int) -> None:
    """Drop the bytes after `end` (an interrupted or failed append) and sync."""
    file.truncate(end)
    file.sync()


def cut_back(file, end: int) -> None:
    """After a failed append: make `file` end at `end`, where its last acknowledged frame ends, and
    sync.  A file shorter than that lost acknowledged bytes: refused as damage."""
    size = file.size()
    if size < end:
        raise E.Storage.Corrupt(f"{file.path} ends at {size} bytes, before its last transaction "
                                f"({end} bytes); the store is damaged")
    if size > end:
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
