"""The store interface: what the database holds between statements (a `Graph` and where its
commits go), and the memory store, which keeps nothing anywhere.

`Store.commit()` runs after a statement's transaction succeeded, while `graph.txn` still holds its
redo ops, and before the statement is acknowledged: when it returns, the transaction is on disk.
When it raises, the caller rolls the transaction back and nothing of it is on disk.

A read-only open takes no writer lease and never creates, writes, checkpoints or migrates anything;
a missing store fails with `database not found`.  A live read-only open (directory stores only)
follows the writer's commits: `refresh()`, called before each statement, applies what landed.
"""
from __future__ import annotations

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

    def settle(self) -> None:
        """After the history took the commit `commit` made durable: fold the log into a new
        snapshot when it grew enough (no-op in memory).  Folding inside `commit` would write a
        snapshot whose graph holds the transaction while its history does not yet."""

    def checkpoint(self) -> None:
        """Fold everything committed into one new snapshot (no-op in memory)."""

    def refresh(self) -> None:
        """Bring a live reader up to the writer's latest commit (no-op otherwise)."""

    def close(self) -> None:
        pass


class MemoryStore(Store):
    pass
