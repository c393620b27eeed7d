"""Store kinds behind one interface: a path -> an open `Store` holding the live `Graph`.

- `:memory:`: nothing on disk.
- `*.rl`: one snapshot file, rewritten atomically at every commit (`snapshot.py`).
- any other path: a directory holding `snapshot.rl` (a placeholder for the WAL store of issue 6).

`Store.commit()` runs after a statement's transaction succeeded and before the statement is
acknowledged; when it returns, the write is on disk.  A read-only open never creates or changes
anything and fails on a missing store.
"""
from __future__ import annotations

import os

from ..errors import StorageError
from . import snapshot
from .graph import Graph

MEMORY = ":memory:"


class Store:
    """An open store.  Subclasses decide where commits go."""

    def __init__(self, path: str, read_only: bool, graph: Graph) -> None:
        self.path = path
        self.read_only = read_only
        self.graph = graph

    def commit(self) -> None:
        """Make the graph's committed state durable (no-op in memory)."""

    def close(self) -> None:
        pass


class MemoryStore(Store):
    pass


class SnapshotFileStore(Store):
    """The whole graph in one file, replaced atomically on every commit."""

    def __init__(self, path: str, read_only: bool, file: str) -> None:
        self.file = file
        if os.path.exists(file):
            try:
                with open(file, "rb") as f:
                    raw = f.read()
            except OSError as e:
                raise StorageError("Io", f"cannot read {path}: {e.strerror or e}") from None
            graph = snapshot.load(raw, path)
            super().__init__(path, read_only, graph)
            return
        if read_only:
            raise StorageError("NotFound", f"database not found: {path}")
        if file != path:
            try:
                os.makedirs(path, exist_ok=True)
            except OSError as e:
                raise StorageError("Io", f"cannot create {path}: {e.strerror or e}") from None
        super().__init__(path, read_only, Graph())
        self.commit()

    def commit(self) -> None:
        snapshot.write_atomic(self.file, snapshot.dump(self.graph))


def open_store(path: str, read_only: bool = False) -> Store:
    if path == MEMORY:
        return MemoryStore(path, read_only, Graph())
    if path.endswith(".rl"):
        return SnapshotFileStore(path, read_only, path)
    return SnapshotFileStore(path, read_only, os.path.join(path, "snapshot.rl"))
