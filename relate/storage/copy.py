"""Copying a store: a source path (any kind) -> a new store of the destination's kind, same graph.

The source is opened read-only (no lease, nothing written), so a directory store can be copied
beside its writer and the copy holds one consistent commit.  The destination must not exist; it
appears whole or not at all: a `.rl` file is written under a temporary name and linked into place,
a directory store is built in a temporary folder and renamed into place.  Ids, labels, property
order, indexes: all carried by the snapshot the destination starts from.
"""
from __future__ import annotations

import os

from ..errors import E
from . import frames, snapshot
from .base import MEMORY
from .fs import io_error, write_new
from .graph import Graph
from .store import open_store


def clone_store(src: str, dst: str, fs=None) -> Graph:
    """Copy `src` into the new store `dst`; returns the graph copied."""
    if fs is None:
        from .fs import OS as fs
    if dst != MEMORY and fs.exists(dst):
        raise E.Storage.Exists(where=dst)
    store = open_store(src, read_only=True, fs=fs)
    try:
        write_copy(store.graph, dst, fs)
        return store.graph
    finally:
        store.close()


def write_copy(graph: Graph, dst: str, fs=None) -> None:
    """Write `graph` as the new store `dst` (nothing to write for `:memory:`)."""
    if fs is None:
        from .fs import OS as fs
    if dst == MEMORY:
        return
    if fs.exists(dst):
        raise E.Storage.Exists(where=dst)
    data = snapshot.snapshot_file(graph, 0)
    parent = os.path.dirname(os.path.abspath(dst))
    tmp = os.path.join(parent, f".{os.path.basename(dst)}.clone-{os.getpid()}")
    try:
        if dst.endswith(".rl"):
            write_new(fs, tmp, data)
            from .filestore import forget_record
            forget_record(fs, dst)  # a commit record an earlier file of that name left
            try:
                fs.link(tmp, dst)
            except FileExistsError:
                raise E.Storage.Exists(where=dst) from None
        else:
            from .dirstore import MARKER, WAL, snapshot_name
            fs.mkdir(tmp)
            write_new(fs, os.path.join(tmp, snapshot_name(0)), data)
            fs.mkdir(os.path.join(tmp, WAL))
            write_new(fs, os.path.join(tmp, MARKER), frames.header(frames.DIRECTORY_MAGIC))
            if fs.exists(dst):
                raise E.Storage.Exists(where=dst)
            fs.rename(tmp, dst)
        fs.sync_dir(parent)
    except OSError as e:
        raise io_error("write", dst, e) from None
    finally:
        _remove_tree(fs, tmp)


def _remove_tree(fs, path: str) -> None:
    """Remove what an interrupted clone left under its temporary name (nothing when it succeeded)."""
    if not fs.exists(path):
        return
    if not fs.isdir(path):
        fs.unlink(path)
        return
    for name in fs.listdir(path):
        _remove_tree(fs, os.path.join(path, name))
    fs.rmdir(path)
