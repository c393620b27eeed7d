"""A path -> an open `Store` of the kind the path names, holding the live `Graph`.

- `:memory:`: nothing on disk (`base.MemoryStore`).
- a path ending in `.rl`: one file, a snapshot plus appended transaction records (`filestore.py`).
- any other path: a directory store, snapshot files plus a WAL folder and a lock file (`dirstore.py`).

The interface every kind offers is `base.Store`; what the two durable kinds share is `durable.py`.
This module imports the kinds, none of them imports it; it imports a durable kind only when a path
names one, so the browser build (`:memory:` only) never loads the file layer.
"""
from __future__ import annotations

from ..errors import E
from ..gc_pause import paused
from .base import MEMORY, MemoryStore, Store
from .graph import Graph

__all__ = ["MEMORY", "Store", "open_store"]


def open_store(path: str, read_only: bool = False, *, live: bool = False, fs=None,
               checkpoint_bytes: int | None = None) -> Store:
    """Open the store at `path`.  `fs` replaces the file layer (tests inject faults through it);
    `checkpoint_bytes` overrides how much WAL (or appended tail) triggers a new snapshot."""
    if live and not read_only:
        raise E.Storage.LiveReadOnly("live mode is a read-only mode")
    if path == MEMORY:
        if live:
            raise E.Storage.LiveReadOnly("live read-only follows a directory store's writer; "
                                         ":memory: has no other writer")
        return MemoryStore(path, read_only, Graph())
    if fs is None:
        from .fs import OS as fs
    if path.endswith(".rl"):
        if live:
            raise E.Storage.LiveReadOnly(f"live read-only follows a directory store's WAL; a .rl file "
                                         f"has none: {path}")
        from .filestore import FileStore
        with paused():
            return FileStore(path, read_only, fs, checkpoint_bytes)
    from .dirstore import DirectoryStore
    # reading a store back makes every entity of the graph (long-lived, little garbage); with the
    # cyclic collector on, its passes walk the growing graph again and again, which made
    # reopening scale M take minutes instead of seconds
    with paused():
        return DirectoryStore(path, read_only, live, fs, checkpoint_bytes)
