"""The directory store: a folder path -> a graph kept as snapshot files plus a write-ahead log.

Layout:

    relate.store                  marker, `RELATE-DIRECTORY 2`: this folder is a store, and its format
    lock                          the writer lease (an exclusive flock), its holder's pid and the commit
                                  record: the last acknowledged seq (durable.py invariant 6)
    torn-<seq>-<time>             bytes recovery set aside: an interrupted append from transaction <seq>
    snapshot-<seq>.rl             the graph as of transaction <seq> (a complete `.rl` file)
    wal/<first>.wal               `RELATE-WAL 2`, then `T` frames first, first+1, ... (frames.py)

Invariants:
1. Snapshot files are written whole (temporary name, sync, rename, sync the folder); the newest
   one holds every transaction up to its seq.  A new store writes `snapshot-0` before the marker,
   so a folder with a marker always has a snapshot.
2. A commit appends one `T` frame to the newest WAL segment and syncs it before returning; a
   segment's first frame goes out with its header, then the file and the `wal` folder are synced.
3. Checkpoint (when the WAL since the snapshot outweighs it): write `snapshot-<seq>`, then retire
   every segment and older snapshot (all their transactions are in the new snapshot); the next
   commit starts segment `<seq+1>`.  A crash in between leaves segments whose frames recovery skips.
4. Recovery: load the newest snapshot, replay the frames after it in seq order.  The frames must
   reach the seq the commit record in `lock` names (written after each synced append, not synced;
   durable.py invariants 6 and 7), or an acknowledged commit is damaged or missing: refused.
   Bytes after the last valid frame of the newest segment, when the frames reach the record, are
   one interrupted append: the writer moves them to `torn-<seq>-<time>`, cuts them off and reports
   it (a segment left without one valid frame is moved there whole); readers ignore them.
   Anything else (a damaged frame with valid data after it, a damaged frame in an older segment,
   a gap in the seqs) is refused as corruption, never skipped.
5. Only the lease holder writes.  Readers take no lease and never create, write or delete a file;
   a reader racing a checkpoint (a file gone, a gap) starts its load again.
6. A live reader keeps the segment it follows open (an unlinked file stays readable) and, between
   statements, applies the frames that landed; when the writer moved past a segment it never saw,
   it reloads from the newest snapshot into the same `Graph` object.
7. A failed append is cut off again (a failed segment creation removes the segment), and again
   (checked) before the next commit, which then proceeds; while that fails, commits are refused
   (durable.py, with the commit preamble and the frame reading both durable kinds share).  A
   failed checkpoint leaves the snapshot before it and the WAL after it, which open as they are.
"""
from __future__ import annotations

import os
import time

from ..errors import E, StorageError
from . import frames, snapshot
from .durable import (DurableStore, check_reach, commit_record, cut, dropped, ignored, locked, put_record,
                      read_snapshot, record_holder, recorded_seq, remove_stray_temps, replay, report, set_aside,
                      took_lease)
from .fs import io_error, write_new, write_whole
from .graph import Graph

MARKER = "relate.store"
LOCK = "lock"
WAL = "wal"
LEGACY = "snapshot.rl"  # the first directory layout: one snapshot file
CHECKPOINT_MIN_BYTES = 4 << 20
_READ_RETRIES = 50


def snapshot_name(seq: int) -> str:
    return f"snapshot-{seq:020d}.rl"


def segment_name(first: int) -> str:
    return f"{first:020d}.wal"


def _numbered(names, prefix: str, suffix: str) -> list[tuple[int, str]]:
    out = []
    for name in names:
        if name.startswith(prefix) and name.endswith(suffix):
            digits = name[len(prefix):len(name) - len(suffix)]
            if digits.isdigit():
                out.append((int(digits), name))
    out.sort()
    return out


class _Retry(Exception):
    """A reader raced the writer's checkpoint: load again."""


class DirectoryStore(DurableStore):
    kind = "directory"

    def __init__(self, path: str, read_only: bool, live: bool, fs, checkpoint_bytes: int | None) -> None:
        self.fs = fs
        self.dir = path
        self.wal_dir = os.path.join(path, WAL)
        self.lock_file = None
        self.segment = None          # the open segment: appended to (writer) or followed (live)
        self.segment_first = 0
        self.segment_end = 0
        self.broken: StorageError | None = None
        self.stale = False           # a live reader whose graph must be reloaded before use
        self.acked: int | None = None  # the writer: the seq the commit record named when it took the lease
        self.checkpoint_min = CHECKPOINT_MIN_BYTES if checkpoint_bytes is None else checkpoint_bytes
        if read_only:
            graph = self._read(keep_segment=live)
            super().__init__(path, True, graph)
            self.live = live
            return
        self._acquire()
        try:
            graph = self._recover()
        except BaseException:
            self.close()
            raise
        super().__init__(path, False, graph)
        graph.durable = True

    # ------------------------------------------------------------------ paths
    def _p(self, name: str) -> str:
        return os.path.join(self.dir, name)

    def _listdir(self, path: str) -> list[str]:
        try:
            return self.fs.listdir(path)
        except FileNotFoundError:
            return []
        except OSError as e:
            raise io_error("list", path, e) from None

    # ------------------------------------------------------------------ loading
    def _load(self, writer: bool, keep_segment: bool, strict: bool = True) -> Graph:
        """Snapshot + WAL -> graph; sets seq and, when asked, keeps the newest segment open.
        Not `strict` (a reader that may retry): a vanished file or a gap raises `_Retry`."""
        strict = strict or writer
        fs = self.fs
        where = self.dir
        # the commit record before anything else: it never names a frame that is not there yet
        acked = self.acked if writer else self._recorded()
        names = self._listdir(self.dir)
        if MARKER not in names:
            if LEGACY in names:
                raw = self._read_file(self._p(LEGACY), strict)
                self.seq, self.snap_seq, self.snapshot_bytes, self.wal_bytes = 0, 0, len(raw), 0
                return snapshot.load_legacy(raw, where)
            raise E.Storage.NotFound(where=where)
        frames.check_header(self._read_file(self._p(MARKER), strict), frames.DIRECTORY_MAGIC, where)
        snaps = _numbered(names, "snapshot-", ".rl")
        if not snaps:
            raise E.Storage.Corrupt(f"the store has no snapshot file: {where}")
        snap_seq, snap_name = snaps[-1]
        raw = self._read_file(self._p(snap_name), strict)
        snapshot_size = len(raw)
        graph, seq, _ = read_snapshot(raw, self._p(snap_name), f"snapshot file {snap_name}", alone=True)
        if seq != snap_seq:
            raise E.Storage.Corrupt(f"snapshot file {snap_name} holds transaction {seq}: {where}")
        self.snap_seq = snap_seq
        self.snapshot_bytes = len(raw)
        self.wal_bytes = 0
        wal_names = self._listdir(self.wal_dir)
        segments = _numbered(wal_names, "", ".wal")
        last_needed = None
        for i, (first, name) in enumerate(segments):
            newest = i == len(segments) - 1
            if first > seq + 1:
                if strict:
                    raise E.Storage.Corrupt(f"WAL records {seq + 1}..{first - 1} are missing: {where}")
                raise _Retry()
            path = os.path.join(self.wal_dir, name)
            try:
                f = fs.open(path, writable=writer)
            except FileNotFoundError:
                if strict:
                    raise E.Storage.Corrupt(f"WAL segment {name} vanished: {where}") from None
                raise _Retry() from None
            except OSError as e:
                raise io_error("open", path, e) from None
            keep = False
            try:
                raw = f.read_at(0, f.size())
                try:
                    start = frames.check_header(raw, frames.WAL_MAGIC, path)
                except StorageError as e:
                    if e.kind != "Corrupt" or not newest or frames.valid_frame_after(raw, -1):
                        raise
                    start = None  # the header of a segment whose creation was cut short
                if start is None:
                    sc = frames.Scan((), 0, frames.Ending.TORN)
                else:
                    frames.check_segment_format(raw, start, path)
                    sc = frames.scan(raw, start)
                if sc.ending is frames.Ending.DAMAGED or (sc.ending is frames.Ending.TORN and not newest):
                    raise E.Storage.Corrupt(f"checksum mismatch in WAL segment {name} at offset {sc.end}; "
                                            f"refusing to skip committed transactions (restore the store "
                                            f"from a backup): {path}")
                seq = replay(graph, sc.frames, seq, where)
                if first > snap_seq:
                    self.wal_bytes += sc.end
                if newest:
                    last_needed = (first, name, sc.end, sc.ending, len(raw), len(sc.frames))
                    if keep_segment:
                        self.segment, self.segment_first, self.segment_end = f, first, sc.end
                        keep = True
            finally:
                if not keep:
                    f.close()
        self.seq = seq
        self._newest = last_needed
        if last_needed is not None:
            tail = (os.path.join(self.wal_dir, last_needed[1]), last_needed[2], last_needed[4])
        else:
            tail = (self._p(snap_name), snapshot_size, snapshot_size)
        if acked is not None and seq < acked and not strict and not self._unchanged(names, wal_names):
            raise _Retry()  # listed mid-checkpoint: not damage
        check_reach(tail[0], seq, tail[1], tail[2], acked, self._p(LOCK))
        if not writer and acked is None and tail[1] < tail[2]:
            report(ignored(tail[0], tail[1], tail[2] - tail[1], seq))
        return graph

    def _unchanged(self, names: list[str], wal_names: list[str]) -> bool:
        """Whether the folder still lists what a load saw (so what it found is not a race)."""
        return (sorted(self._listdir(self.dir)) == sorted(names)
                and sorted(self._listdir(self.wal_dir)) == sorted(wal_names))

    def _recorded(self) -> int | None:
        """The seq the commit record in `lock` names, None without one (a reader's view)."""
        try:
            return recorded_seq(self.fs.read(self._p(LOCK)))
        except OSError:
            return None

    def _read_file(self, path: str, strict: bool) -> bytes:
        try:
            return self.fs.read(path)
        except FileNotFoundError:
            if strict:
                raise E.Storage.Corrupt(f"{os.path.basename(path)} vanished: {self.dir}") from None
            raise _Retry() from None
        except OSError as e:
            raise io_error("read", path, e) from None

    def _read(self, keep_segment: bool) -> Graph:
        if not self.fs.isdir(self.dir):
            if self.fs.exists(self.dir):
                raise E.Storage.Corrupt(f"not a relate store: {self.dir}")
            raise E.Storage.NotFound(where=self.dir)
        for attempt in range(_READ_RETRIES):
            if self.segment is not None:
                self.segment.close()
                self.segment = None
            try:
                # the last attempt reports what it finds: a gap that outlives the retries is damage
                return self._load(writer=False, keep_segment=keep_segment, strict=attempt == _READ_RETRIES - 1)
            except _Retry:
                time.sleep(0.002 * attempt)  # the writer is mid-checkpoint: let it finish
        raise E.Storage.Io(f"the store keeps changing under the reader: {self.dir}")

    # ------------------------------------------------------------------ the writer
    def _acquire(self) -> None:
        fs = self.fs
        d = self.dir
        if fs.exists(d) and not fs.isdir(d):
            raise E.Storage.Corrupt(f"not a relate store: {d}")
        if not fs.exists(d):
            missing = []
            at = os.path.abspath(d)
            while not fs.exists(at):
                missing.append(at)
                at = os.path.dirname(at)
            for folder in reversed(missing):
                try:
                    fs.mkdir(folder)
                except FileExistsError:
                    pass
                except OSError as e:
                    raise io_error("create", d, e) from None
                fs.sync_dir(os.path.dirname(folder))
        names = self._listdir(d)
        if MARKER not in names and LEGACY not in names:
            foreign = [n for n in names if n not in (LOCK, WAL) and not n.startswith(("snapshot-", "."))]
            if foreign:
                raise E.Storage.Corrupt(f"not a relate store (the folder holds other files): {d}")
        try:
            f = fs.open(self._p(LOCK), create=True)
        except OSError as e:
            raise io_error("open", self._p(LOCK), e) from None
        if not fs.lock(f):
            try:
                holder = record_holder(f.read_at(0, 64))
            except OSError:
                holder = ""
            f.close()
            raise locked(d, holder)
        self.lock_file = f
        took_lease(d, self)
        try:
            self.acked = recorded_seq(f.read_at(0, 64))
        except OSError:
            self.acked = None
        try:
            # our pid (a courtesy for the locked-store message), keeping the commit record's seq
            data = commit_record(self.acked) if self.acked is not None else f"{os.getpid()}\n".encode("ascii")
            f.write_at(0, data)
            f.truncate(len(data))
        except OSError:
            pass

    def _recover(self) -> Graph:
        fs = self.fs
        names = self._listdir(self.dir)
        remove_stray_temps(fs, self.dir, names, ".")  # of an interrupted snapshot write
        if MARKER not in names:
            if LEGACY in names:  # the first layout: migrate it
                graph = self._load(writer=True, keep_segment=False)
            else:
                if _numbered(self._listdir(self.wal_dir), "", ".wal"):
                    # WAL segments without a marker: not an interrupted creation, a damaged store
                    raise E.Storage.Corrupt(f"the store's {MARKER} file is missing: {self.dir}")
                graph = Graph()
                self.seq = 0
            self._init_layout(graph)
            if LEGACY in names:
                fs.unlink(self._p(LEGACY))
                fs.sync_dir(self.dir)
            return graph
        if LEGACY in names:
            fs.unlink(self._p(LEGACY))  # a migration that crashed after writing the marker
        graph = self._load(writer=True, keep_segment=True)
        if self.segment is not None:
            first, name, end, ending, size, count = self._newest
            path = os.path.join(self.wal_dir, name)
            start = 0 if count == 0 else end  # a segment without one valid frame goes aside whole
            kept = None
            if start < size:
                kept = set_aside(fs, self._p(f"torn-{self.seq + 1}"), self.segment.read_at(start, size - start))
            if count == 0:
                # a segment whose first append never completed holds nothing: drop it
                self.segment.close()
                self.segment = None
                fs.unlink(path)
                fs.sync_dir(self.wal_dir)
            elif end < size:
                cut(self.segment, end)  # the interrupted append of a crashed writer
            if kept is not None:
                report(dropped(path, start, size - start, self.seq, os.path.basename(kept), self.acked is not None))
        self._retire(everything=False)
        return graph

    def _init_layout(self, graph: Graph) -> None:
        fs = self.fs
        data = snapshot.snapshot_file(graph, self.seq)
        write_new(fs, self._p(snapshot_name(self.seq)), data)
        self.snap_seq = self.seq
        self.snapshot_bytes = len(data)
        self.wal_bytes = 0
        try:
            fs.mkdir(self.wal_dir)
        except FileExistsError:
            pass
        except OSError as e:
            raise io_error("create", self.wal_dir, e) from None
        fs.sync_dir(self.dir)
        write_new(fs, self._p(MARKER), frames.header(frames.DIRECTORY_MAGIC))

    def _retire(self, everything: bool) -> None:
        """Delete the segments the newest snapshot covers (`everything`: all of them, right after a
        checkpoint; otherwise those followed by a segment starting at or before snapshot seq + 1)
        and every snapshot but the newest."""
        fs = self.fs
        removed = False
        segments = _numbered(self._listdir(self.wal_dir), "", ".wal")
        for i, (first, name) in enumerate(segments):
            if self.segment is not None and first == self.segment_first:
                continue
            covered = everything or (i + 1 < len(segments) and segments[i + 1][0] <= self.snap_seq + 1)
            if covered:
                fs.unlink(os.path.join(self.wal_dir, name))
                removed = True
        if removed:
            fs.sync_dir(self.wal_dir)
        snaps = _numbered(self._listdir(self.dir), "snapshot-", ".rl")
        for _seq, name in snaps[:-1]:
            fs.unlink(self._p(name))
        if len(snaps) > 1:
            fs.sync_dir(self.dir)

    def commit(self) -> None:
        pending = self._next_frame(self.dir)
        if pending is None:
            return
        seq, data = pending
        if self.segment is None:
            self._start_segment(seq, data)
        else:
            self._append(self.segment, self.segment_end, data)
        self.segment_end += len(data)
        self.wal_bytes += len(data)
        self.seq = seq
        self._note(seq)

    def settle(self) -> None:
        grown = self.wal_bytes
        if grown > self.checkpoint_min and grown > self.snapshot_bytes:
            self._fold_when(grown, self.checkpoint_min, self.snapshot_bytes, self.checkpoint)

    def _note(self, seq: int) -> None:
        """After a synced commit: the commit record in `lock` names it (written, not synced)."""
        try:
            if self.lock_file is not None:
                put_record(self.lock_file, seq)
        except OSError:
            pass  # the record lags: a later open checks less, never refuses wrongly

    def _start_segment(self, seq: int, data: bytes) -> None:
        """The first commit after open or a checkpoint: a new segment holding the header and the
        frame; on failure it is removed again (now, and before the next commit)."""
        fs = self.fs
        created = os.path.join(self.wal_dir, segment_name(seq))
        head = frames.header(frames.WAL_MAGIC)
        f = None
        step = "create"
        try:
            f = fs.open(created, create=True)
            step = "write"
            write_whole(f, head + data)
            step = "sync its folder"
            fs.sync_dir(self.wal_dir)
        except OSError as e:
            if f is not None:
                f.close()
            undo = (f"remove the unfinished WAL segment {created}", lambda: self._drop_segment(created))
            raise self._failed(f"start the WAL segment {created}", step, e, undo) from None
        self.segment, self.segment_first, self.segment_end = f, seq, len(head)
        self._resumed(created)

    def _drop_segment(self, path: str) -> None:
        try:
            self.fs.unlink(path)
        except FileNotFoundError:
            pass
        self.fs.sync_dir(self.wal_dir)

    def checkpoint(self) -> None:
        """Write the graph as a new snapshot, then retire the WAL it covers."""
        self._refuse_read_only(self.dir)
        self._restore()
        data = snapshot.snapshot_file(self.graph, self.seq)
        write_new(self.fs, self._p(snapshot_name(self.seq)), data)
        self.snap_seq = self.seq
        self.snapshot_bytes = len(data)
        self.wal_bytes = 0
        if self.segment is not None:
            self.segment.close()
            self.segment = None
        self._retire(everything=True)

    # ------------------------------------------------------------------ live readers
    def refresh(self) -> None:
        if not self.live:
            return
        if not self.stale:
            try:
                if self._follow():
                    return
            except (_Retry, FileNotFoundError):
                pass
            except StorageError:
                self.stale = True  # a record failed halfway through: only a full reload is sound
                raise
        fresh = self._read(keep_segment=True)
        self.graph.replace_with(fresh)
        self.stale = False

    def _follow(self) -> bool:
        """Apply the frames that landed since the last call -> False when a reload is needed."""
        fs = self.fs
        while True:
            if self.segment is not None:
                size = self.segment.size()
                if size > self.segment_end:
                    raw = self.segment.read_at(self.segment_end, size - self.segment_end)
                    sc = frames.scan(raw, 0)
                    if sc.ending is frames.Ending.DAMAGED:
                        raise E.Storage.Corrupt(f"WAL segment {segment_name(self.segment_first)} is "
                                                f"damaged: {self.dir}")
                    self.seq = replay(self.graph, sc.frames, self.seq, self.dir)
                    self.segment_end += sc.end
                    if sc.frames:
                        continue
            # the writer may have moved on to a segment that starts after our last transaction
            segments = dict((first, name) for first, name in _numbered(self._listdir(self.wal_dir), "", ".wal"))
            name = segments.get(self.seq + 1)
            if name is not None:
                path = os.path.join(self.wal_dir, name)
                ident = fs.identity(path)
                if self.segment is None or ident != self.segment.identity():
                    f = fs.open(path, writable=False)
                    raw = f.read_at(0, len(frames.header(frames.WAL_MAGIC)))
                    if raw != frames.header(frames.WAL_MAGIC):
                        f.close()
                        return True  # still being created: next time
                    if self.segment is not None:
                        self.segment.close()
                    self.segment, self.segment_first, self.segment_end = f, self.seq + 1, len(raw)
                    continue
            snaps = _numbered(self._listdir(self.dir), "snapshot-", ".rl")
            if snaps and snaps[-1][0] > self.seq:
                return False  # checkpoints retired segments we never read
            return True

    def holds_lease(self) -> bool:
        return self.lock_file is not None

    def close(self) -> None:
        if self.segment is not None:
            self.segment.close()
            self.segment = None
        if self.lock_file is not None:
            self.lock_file.close()
            self.lock_file = None
