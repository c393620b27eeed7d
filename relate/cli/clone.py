"""`relate clone SRC DST`: two store paths -> a copy of SRC at DST, and one line saying what was copied.

Any store kind copies into any other (`:memory:`, a `.rl` file, a directory store); the work is in
`storage/copy.py`.  SRC opens read-only, so cloning beside a running writer is safe.  Exit codes:
0 copied, 1 a store could not be read or written, 2 bad arguments.
"""
from __future__ import annotations

from typing import TextIO

from ..errors import StorageError
from .parsers import build_clone_parser


def clone(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_clone_parser(stdout).parse_args(argv)
    from ..storage.copy import write_copy
    from ..storage.store import open_store
    from .notices import store_notices
    try:
        with store_notices(stderr):
            store = open_store(args.source, read_only=True)
    except StorageError as e:
        stderr.write(f"Error: Failed to open Relate: {e.message}\n")
        return e.exit_code
    graph = store.graph
    try:
        write_copy(graph, args.destination)
    except StorageError as e:
        stderr.write(f"Error: clone failed: {e.message}\n")
        return e.exit_code
    finally:
        store.close()
    stdout.write(f"cloned {args.source} to {args.destination}: {len(graph.nodes)} nodes, "
                 f"{len(graph.rels)} relationships, {len(graph.indexes)} indexes\n")
    return 0
