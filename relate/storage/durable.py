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
6. The commit record.  Bytes after the last valid frame are either an interrupted append (the
   writer died before the commit was acknowledged) or damage to a commit that was acknowledged
   (a bit flip, a cut): the bytes alone cannot tell, a truncated acknowledged frame is byte for byte
   a torn append of it.  So after each successful append + sync, and before the commit returns,
   the writer overwrites a one-line record, `<pid> <seq> <crc32>` (`commit_record`): the last
   acknowledged seq.  It is written, not synced (no extra fsync per commit), and after the first
   commit through a shared memory mapping of the file's first bytes (`put_record`, the file
   layer's `put_head`), so a commit makes one write call, its frame's: after a process crash
   (SIGKILL included) the page cache keeps it exact; after a power cut it may hold an older seq, or
   be torn (its checksum then fails and it counts as absent), but never a newer one, because the
   frame it names was synced first.  So the record is a lower bound of what was acknowledged and
   an upper bound of nothing: `recorded seq <= every durable frame`.  A directory store keeps it in
   its `lock` file, a `.rl` file in the hidden `.<name>.rl.commit` beside it.
7. Recovery with a record: the valid frames must reach its seq.  If they do, whatever follows them
   cannot be an acknowledged commit (an acknowledged commit's record was written after its frame
   was synced): a writer sets those bytes aside (`set_aside`, a file beside the store, never
   deleted), cuts them off and reports it (`report`: the `relate.storage` logger and a
   `StoreRecoveryWarning`); a reader ignores them silently (they may be an append in progress).
   If the valid frames end before the record's seq, an acknowledged commit is damaged or missing:
   both refuse (`check_reach`), naming the file, the offset and how to proceed; nothing is cut.
   The one case this cannot catch is damage to the last acknowledged frame after a power cut lost
   that commit's record update (two faults); it is then dropped as above, reported and kept.
   Without a record (a store written by an older relate, a `.rl` copied without its record, a
   record torn by a power cut) the tail is handled as an interrupted append, as before, but
   reported and kept by writers and readers alike.
"""
from __future__ import annotations

import logging
import os
import time
import warnings
import weakref
import zlib
from typing import Callable

from ..errors import E, LockedStoreError, StorageError, StoreRecoveryWarning
from . import frames, snapshot
from .base import Store
from .fs import reason, write_failed, write_new
from .graph import Graph

log = logging.getLogger("relate.storage")
# the Python API reports through `StoreRecoveryWarning`; a front door adds a handler of its own (the
# CLI prints `warning: ...` on stderr), so Python's last-resort handler never prints it twice
log.addHandler(logging.NullHandler())
_NOT_WRITTEN = "nothing was written, reads go on, the next write tries again"


class DurableStore(Store):
    """A store whose commits go to disk.  Subclasses set `fs`, `seq` and `broken` before use."""

    seq: int
    broken: StorageError | None  # the error of the last failed write, until a write succeeds again
    # after a failed write: what puts the files back where the last acknowledged commit left them
    # (what it does, for the log; the call), done again before the next commit
    _repair: tuple[str, Callable[[], None]] | None = None

    def holds_lease(self) -> bool:
        """Whether this store is a writer that has not closed."""
        raise NotImplementedError

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
        if self._repair is not None:
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
        if self.broken is not None:
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
        """After a commit: `fold()` once the log outweighs both `minimum` and the snapshot (callers
        test that first: this runs on every commit)."""
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


# the stores whose writer lease this process holds, by real path: a second open of one of them in
# this process fails its flock as another process's would, and should say where the holder is
_LEASES: "weakref.WeakValueDictionary[str, DurableStore]" = weakref.WeakValueDictionary()


def took_lease(path: str, store: DurableStore) -> None:
    """`store` now holds the writer lease of the store at `path` (until it closes)."""
    _LEASES[os.path.realpath(path)] = store


def locked(path: str, holder: str = "") -> LockedStoreError:
    """The writer lease is taken: by an open store of this process (AlreadyOpen), or by another
    process (`holder`: its pid, when it wrote one)."""
    mine = _LEASES.get(os.path.realpath(path))
    if mine is not None and mine.holds_lease():
        return E.Locked.AlreadyOpen(where=path)
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


# ---------------------------------------------------------------------------- recovery of the tail
RECORD_SIZE = 41  # `<pid, 10 wide> <seq, 20 digits> <crc32, 8 hex>\n`: fixed, so it is overwritten in place


def commit_record(seq: int) -> bytes:
    """The commit record naming `seq` as the last acknowledged transaction (invariant 6)."""
    pid = os.getpid()
    if _RECORD_HEAD[0] != pid:
        head = f"{pid:<10d} ".encode("ascii")
        _RECORD_HEAD[:] = [pid, head, zlib.crc32(head)]
    _, head, crc = _RECORD_HEAD
    digits = b"%020d" % seq
    return b"%s%s %08x\n" % (head, digits, zlib.crc32(digits, crc))


_RECORD_HEAD: list = [None, b"", 0]  # this process's pid, the record's first 11 bytes and their crc


def put_record(file, seq: int) -> None:
    """Overwrite the commit record at the start of `file` (unsynced; through a mapping where the
    file layer has one, so a commit makes one write call: its frame's)."""
    data = commit_record(seq)
    put = getattr(file, "put_head", None)
    if put is None:
        file.write_at(0, data)
    else:
        put(data)


def recorded_seq(raw: bytes) -> int | None:
    """A commit record's bytes -> its seq, or None when there is none (empty, an older relate's
    bare pid, torn: the checksum fails)."""
    line = raw[:RECORD_SIZE]
    if len(line) != RECORD_SIZE or line[-1:] != b"\n":
        return None
    body, _, crc = line[:-1].rpartition(b" ")
    try:
        if int(crc, 16) != zlib.crc32(body):
            return None
        return int(body.split()[1])
    except (ValueError, IndexError):
        return None


def record_holder(raw: bytes) -> str:
    """The pid at the start of a lock file (an older relate wrote it alone), or ""."""
    words = raw[:64].decode("ascii", "replace").split()
    return words[0] if words else ""


def check_reach(file: str, seq: int, end: int, size: int, acked: int | None, record: str) -> None:
    """Refuse when the valid data of `file` (frames up to `seq`, ending at offset `end` of `size`
    bytes) stops before `acked`, the last acknowledged transaction the commit record names."""
    if acked is None or seq >= acked:
        return
    if end < size:
        raise E.Storage.Corrupt(
            f"{file}: the {size - end} bytes from offset {end} do not form a valid transaction record, and "
            f"transactions up to {acked} were acknowledged while the readable ones end at {seq}: this is "
            f"damage to committed data, not an interrupted write, so relate will not drop it. Restore the "
            f"store from a backup; or, to give up transactions {seq + 1}..{acked}, keep a copy of the store, "
            f"cut the file at offset {end} (truncate -s {end} {file}) and delete {record}")
    raise E.Storage.Corrupt(
        f"{file} ends at offset {end} after transaction {seq}, but transactions up to {acked} were "
        f"acknowledged: the file was cut short or replaced by an older copy. Restore it from a backup; "
        f"if you replaced it on purpose, delete {record}")


def set_aside(fs, stem: str, data: bytes) -> str:
    """Keep dropped bytes in a new file `<stem>-<UTC time>` (a suffix when that exists) -> its path."""
    base = f"{stem}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    path, n = base, 1
    while fs.exists(path):
        n += 1
        path = f"{base}-{n}"
    write_new(fs, path, data)
    return path


def dropped(file: str, end: int, n: int, seq: int, kept: str, known: bool) -> str:
    """The report of a writer that set an interrupted write aside."""
    why = ("an interrupted write, not an acknowledged transaction (the store holds every acknowledged "
           f"one, up to {seq})" if known else
           "they do not form a valid transaction record, and this store keeps no record of its last "
           "acknowledged transaction, so they are taken for an interrupted write (the store holds "
           f"transactions up to {seq})")
    return f"{file}: set aside {n} bytes from offset {end}: {why}; they are kept in {kept}"


def ignored(file: str, end: int, n: int, seq: int) -> str:
    """The report of a reader that skips a tail it cannot vouch for."""
    return (f"{file}: ignoring {n} bytes from offset {end} that do not form a valid transaction record "
            f"(this store keeps no record of its last acknowledged transaction; the readable ones end at "
            f"{seq}); a writable open sets them aside")


def report(message: str) -> None:
    """Say what recovery did: the `relate.storage` logger and a `StoreRecoveryWarning`."""
    log.warning(message)
    warnings.warn(message, StoreRecoveryWarning, stacklevel=2)
