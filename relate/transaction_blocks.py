"""The two ways statements share one transaction on a `Database`: a `with db.transaction():`
block (`TransactionBlock`: begin on entry, commit or roll back on exit) and the inner
transactions `CALL { } IN TRANSACTIONS` commits batch by batch (`InnerTransactions`).  `db` is
the `Database` (not imported: it imports this module).
"""
from __future__ import annotations

import time

from .errors import E
from .storage.graph import Notes

class InnerTransactions:
    """What `CALL { } IN TRANSACTIONS` (`exec/in_transactions.py`) commits its batches with: the
    statement's transaction serves as each inner transaction in turn.  `commit` makes what the
    batch changed durable now (one store commit, as a statement's) and forgets its undo steps, so
    a later failure of the statement rolls back only what came after the batch; `rollback(mark)`
    undoes a failed batch.  Only an implicit (auto-commit) statement gets one: `run` refuses the
    clause inside a `transaction()` block, and a read-only policy refuses it as a write."""

    __slots__ = ("db", "txn", "started")

    def __init__(self, db, txn) -> None:
        self.db = db
        self.txn = txn
        self.started = 0  # inner transactions begun

    def mark(self):
        """Begin the next inner transaction -> the mark `rollback` takes."""
        self.started += 1
        return self.txn.savepoint()

    def rollback(self, mark) -> None:
        self.txn.rollback_to(mark)

    def commit(self) -> None:
        txn = self.txn
        if txn.dirty:
            self.db._commit()
        txn.undo.clear()
        if txn.redo is not None:
            txn.redo.clear()
        notes = txn.notes
        if notes is not None:  # the next batch goes on at the same times, with notes of its own
            txn.notes = Notes(notes.now, notes.valid, notes.provenance)
        txn.dirty = False

    def name(self) -> str:
        """The current inner transaction's id, as REPORT STATUS shows it."""
        return f"relate-transaction-{self.started}"


class TransactionBlock:
    """`with db.transaction():` — begin on entry; commit, or roll back on an exception."""

    def __init__(self, db) -> None:
        self.db = db
        self.txn = None

    def __enter__(self):
        db = self.db
        if db._explicit is not None:
            raise E.Usage.Usage("a transaction is already open on this connection")
        self.txn = db._explicit = db.graph.begin()
        db._explicit_ns = time.time_ns()  # what date.transaction() and friends read in the block
        return db

    def __exit__(self, exc_type, exc, tb) -> bool:
        db, txn = self.db, self.txn
        try:
            if exc_type is not None:
                txn.rollback()
                return False
            if txn.dirty:
                try:
                    db._commit()
                except BaseException:
                    txn.rollback()
                    raise
            return False
        finally:
            db._explicit = None
            db.graph.end()
