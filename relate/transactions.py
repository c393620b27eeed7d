"""Transactions for network sessions: many clients' explicit transactions over one `Database`.

`Transactions(db)` hands out `Tx` handles (`begin`) and runs statements in them (`prepare` +
`execute`), or in a transaction of their own (`tx=None`: auto-commit); `commit` makes a handle's
writes durable, `rollback` forgets them.  Bolt sessions use it (`protocols/bolt_session.py`); the
HTTP Query API and MCP can share the same instance, so all front doors see one set of rules:

* An open transaction sees its own writes; nobody else does until it commits (read committed:
  each statement outside it sees the last commit; a statement inside it sees the last commit
  plus its own writes).
* One writer at a time: the first transaction that writes holds the write role until it ends.
  Another write, in another transaction or auto-commit, is refused at once with
  `Conflict.WriterBusy` (retryable: a retry after the writer has ended can succeed), never queued.
  Reads never wait for the writer.
* A rolled-back or abandoned transaction leaves nothing.

How, on a store that is one graph changed in place with an undo log (`storage/graph.py`): the
graph holds at most one transaction's uncommitted writes at a time, those of the `active` handle.
Before a statement of anyone else runs, the active writer is *parked*: its redo ops are kept and
its undo log replayed, so the graph is the last commit again.  When the writer's own next statement
(or its commit) comes, its redo ops are replayed with fresh undo steps, under the same ids
(`_replay`).  A burst of reads costs one park; alternating costs the writer's changes each time.
Rolling back a parked transaction is dropping its ops.

Not thread-safe: the caller serialises the calls (the net layer's engine lock), one at a time.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .database import Database, Prepared
from .errors import E
from .result import Result
from .storage.graph import Transaction


@dataclass(eq=False)
class Tx:
    """One explicit transaction's handle."""

    id: int
    read_only: bool = False  # begun in read mode: its writes are refused
    started_ns: int = field(default_factory=time.time_ns)
    txn: Transaction = field(default_factory=lambda: Transaction(True))  # redo kept on every store kind
    parked: list | None = None  # redo ops while another statement has the graph
    open: bool = True


class Transactions:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.active: Tx | None = None  # the handle whose writes the graph holds now
        self.writer: Tx | None = None  # the handle holding the write role
        self.commits = 0  # committed writes, for bookmarks
        self._ids = 0

    # ------------------------------------------------------------------ handles
    def begin(self, read_only: bool = False) -> Tx:
        self._ids += 1
        return Tx(self._ids, read_only)

    def bookmark(self) -> str:
        return f"relate:bm:{self.commits}"

    def prepare(self, tx: Tx | None, text: str) -> Prepared:
        """Plan `text` against what `tx` sees (compile errors raise here)."""
        self._enter(tx)
        return self.db.prepare(text)

    def execute(self, tx: Tx | None, prepared: Prepared, parameters: dict | None = None, *,
                read_only: bool = False, notifications: bool = True, cancel=None) -> Result:
        """Run a planned statement in `tx`, or auto-commit (`tx` None; `read_only`: refuse writes;
        `cancel`: a `CancelToken` another thread may cancel to stop the run)."""
        if tx is not None and not tx.open:
            raise E.Request.Invalid("the transaction has ended")
        writes = prepared.plan.query_type != "r" and not prepared.statement.explain
        if writes:
            if read_only or (tx is not None and tx.read_only):
                raise E.Transaction.AccessMode()
            if self.writer is not None and self.writer is not tx:
                raise E.Conflict.WriterBusy()
        self._enter(tx)
        db = self.db
        if tx is None:
            result = db.run(prepared, parameters, notifications=notifications, cancel=cancel)
            if writes and result.stats.contains_updates:
                self.commits += 1
            return result
        graph = db.graph
        db._explicit, db._explicit_ns = tx.txn, tx.started_ns
        graph.txn = tx.txn
        try:
            return db.run(prepared, parameters, notifications=notifications, cancel=cancel)
        finally:
            db._explicit = None
            graph.txn = None
            if tx.txn.undo:
                self.writer = tx

    def commit(self, tx: Tx) -> str:
        """Make `tx`'s writes durable -> the bookmark after it."""
        if not tx.open:
            raise E.Request.Invalid("the transaction has ended")
        self._enter(tx)
        tx.open = False
        db, graph = self.db, self.db.graph
        try:
            if tx.txn.redo:
                graph.txn = tx.txn
                try:
                    db._commit()
                except BaseException:
                    tx.txn.rollback()
                    raise
                self.commits += 1
        finally:
            graph.txn = None
            self._release(tx)
        return self.bookmark()

    def rollback(self, tx: Tx) -> None:
        """Forget `tx`'s writes (a no-op for a handle that has ended)."""
        if not tx.open:
            return
        tx.open = False
        if self.active is tx:
            tx.txn.rollback()
        tx.parked = None
        self._release(tx)

    def outside(self) -> None:
        """Show the last commit to a statement run on the database directly (MCP's calls)."""
        self._enter(None)

    # ------------------------------------------------------------------ the graph's owner
    def _release(self, tx: Tx) -> None:
        if self.active is tx:
            self.active = None
        if self.writer is tx:
            self.writer = None
        self.db.graph.txn = None

    def _enter(self, tx: Tx | None) -> None:
        """Make the graph show what `tx` sees (the last commit when None)."""
        active = self.active
        if active is tx:
            return
        if active is not None:
            self._park(active)
        if tx is not None and tx.parked:
            self._replay(tx)
        self.active = tx

    def _park(self, tx: Tx) -> None:
        txn = tx.txn
        if txn.undo:
            ops = list(txn.redo or ())
            txn.rollback()
            tx.parked = ops
            tx.txn = Transaction(True)
        self.active = None

    def _replay(self, tx: Tx) -> None:
        """Apply a parked handle's redo ops again, logging fresh undo and redo steps."""
        ops, tx.parked = tx.parked or [], None
        graph = self.db.graph
        graph.txn = tx.txn
        try:
            _replay(graph, ops)
        finally:
            graph.txn = None


class AutoCommit:
    """The database as a front door without transactions of its own sees it (MCP's tools): each
    statement auto-commits against the last commit, and a write while an open transaction holds
    the write role is refused with `Conflict.WriterBusy`, as it is for everyone else.  Everything
    but `prepare`, `run` and `schema` is the database's own."""

    def __init__(self, txs: Transactions) -> None:
        self._txs = txs

    def __getattr__(self, name: str):
        return getattr(self._txs.db, name)

    def prepare(self, text: str) -> Prepared:
        return self._txs.prepare(None, text)

    def run(self, prepared: Prepared, parameters: dict | None = None, **kw) -> Result:
        txs = self._txs
        writes = prepared.plan.query_type != "r" and not prepared.statement.explain
        if writes and txs.writer is not None:
            raise E.Conflict.WriterBusy()
        txs._enter(None)
        result = txs.db.run(prepared, parameters, **kw)
        if writes and result.stats.contains_updates:
            txs.commits += 1
        return result

    def schema(self, *args, **kw):
        self._txs._enter(None)
        return self._txs.db.schema(*args, **kw)


def _replay(graph, ops) -> None:
    nodes, rels = graph.nodes, graph.rels
    for op in ops:
        code = op[0]
        if code == "cn":  # under its own id: the ids it was given stay taken (never reused)
            top, graph.next_node_id = graph.next_node_id, op[1]
            try:
                graph.create_node(tuple(op[2]), op[3])
            finally:
                graph.next_node_id = max(top, op[1] + 1)
        elif code == "cr":
            top, graph.next_rel_id = graph.next_rel_id, op[1]
            try:
                graph.create_rel(op[2], nodes[op[3]], nodes[op[4]], op[5])
            finally:
                graph.next_rel_id = max(top, op[1] + 1)
        elif code == "sn":
            graph.set_prop(nodes[op[1]], op[2], op[3])
        elif code == "sr":
            graph.set_prop(rels[op[1]], op[2], op[3])
        elif code == "al":
            graph.add_label(nodes[op[1]], op[2])
        elif code == "rl":
            graph.remove_label(nodes[op[1]], op[2])
        elif code == "dr":
            graph.delete_rel(rels[op[1]])
        elif code == "dn":
            graph.delete_node(nodes[op[1]])
        else:  # schema ops: the loader's replay logs through the same writers
            graph.apply_redo([op])
