"""Store kinds behind one interface: a path -> an open `Store` holding the live `Graph`.

- `:memory:`: nothing on disk.
- a path ending in `.rl`: one file, a snapshot plus appended transaction records (`filestore.py`).
- any other path: a directory store, snapshot files plus a WAL folder and a lock file (`dirstore.py`).

`Store.commit()` runs after a statement's transaction succeeded, while `graph.txn` still holds its
redo ops, and before the statement is acknowledged: when it returns, the transaction is on disk.
When it raises, the caller rolls the transaction back and nothing of it is on disk.

A read-only open takes no writer lease and never creates, writes, checkpoints or migrates anything;
a missing store fails with `database not found`.  A live read-only open (directory stores only)
follows the writer's commits: `refresh()`, called before each statement, applies what landed.
"""
from __future__ import annotations

from ..errors import StorageError
from .graph import Graph

MEMORY = ":memory:"


class Store:
    """An open store.  Subclasses decide where commits go."""

    kind = "memory"

    def __init__(self, path: str, read_only: bool, graph: Graph) -> None:
        self.path = path
        self.read_only = read_only
        self.live = False
        self.graph = graph

    def commit(self) -> None:
        """Make the graph's just-finished transaction durable (no-op in memory)."""

    def _next_frame(self, where: str) -> tuple[int, bytes] | None:
        """For a durable store's commit: the next sequence number and the framed record of the
        just-finished transaction, or None when it changed nothing.  Refuses on a read-only
        store and after an earlier failed write (`self.broken`)."""
        from . import frames, snapshot
        if self.read_only:
            raise StorageError("ReadOnly", f"the store is open read-only: {where}")
        if self.broken is not None:
            raise self.broken
        txn = self.graph.txn
        if txn is None or not txn.redo:
            return None
        seq = self.seq + 1
        return seq, frames.frame(frames.TXN, snapshot.txn_payload(seq, self.graph, txn.redo))

    def checkpoint(self) -> None:
        """Fold everything committed into one new snapshot (no-op in memory)."""

    def refresh(self) -> None:
        """Bring a live reader up to the writer's latest commit (no-op otherwise)."""

    def close(self) -> None:
        pass


class MemoryStore(Store):
    pass


def open_store(path: str, read_only: bool = False, *, live: bool = False, fs=None,
               checkpoint_bytes: int | None = None) -> Store:
    """Open the store at `path`.  `fs` replaces the file layer (tests inject faults through it);
    `checkpoint_bytes` overrides how much WAL (or appended tail) triggers a new snapshot."""
    if live and not read_only:
        raise StorageError("LiveReadOnly", "live mode is a read-only mode")
    if path == MEMORY:
        if live:
            raise StorageError("LiveReadOnly", "live read-only follows a directory store's writer; "
                                               ":memory: has no other writer")
        return MemoryStore(path, read_only, Graph())
    if fs is None:
        from .fs import OS as fs
    if path.endswith(".rl"):
        if live:
            raise StorageError("LiveReadOnly", f"live read-only follows a directory store's WAL; a .rl file "
                                               f"has none: {path}")
        from .filestore import FileStore
        return FileStore(path, read_only, fs, checkpoint_bytes)
    from .dirstore import DirectoryStore
    return DirectoryStore(path, read_only, live, fs, checkpoint_bytes)
