"""`relate clone SRC DST`: two store paths -> a copy of SRC at DST, and one line saying what was copied.

Any store kind copies into any other (`:memory:`, a `.rl` file, a directory store); the work is in
`storage/copy.py`.  SRC opens read-only, so cloning beside a running writer is safe.  DST must be a
path: a copy into `:memory:` would be gone when the command ends, so it is refused as a usage
error before SRC is opened.  Exit codes: 0 copied, 1 a store could not be read or written, 2 bad
arguments.
"""
from __future__ import annotations

from typing import TextIO

from ..errors import E, StorageError
from .parsers import build_clone_parser


def clone(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_clone_parser(stdout).parse_args(argv)
    if args.destination == ":memory:":
        raise E.Usage.Usage("Error: relate clone: DST cannot be :memory: (the copy would be gone when the "
                            "command ends); give a .rl path or a directory path")
    from ..storage.copy import write_copy
    from .notices import open_for_reading
    store, refused = open_for_reading(args.source, stderr)
    if store is None:
        return refused
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
