"""`CALL { } IN TRANSACTIONS`: the `TransactionsCall` operator (Neo4j's TransactionApply).

The outer rows are read first, all of them, before the first inner transaction commits (what the
batches write cannot change which rows feed them).  They are then taken `OF n ROWS` at a time: the
subquery runs for each row of a batch, and the batch commits on its own through the committer
the database puts in `ctx.txn` (`transaction_blocks.InnerTransactions`: on a durable store each batch is
one transaction on disk when its commit returns).  A batch that fails is rolled back, its
counters with it, and then, by `ON ERROR`:
- FAIL (the default): the statement fails; the batches committed before stay committed;
- CONTINUE: each of the batch's rows goes on once with nulls for the returned columns;
- BREAK: the same, and the batches after it do not run (their rows go on with nulls too).
RETRY retries transient errors; relate has none (one writer, no lock waits), so a failure goes
straight to RETRY's fallback (THEN CONTINUE by default).  CONCURRENT TRANSACTIONS run one after
the other, which Neo4j's concurrent semantics allow.  REPORT STATUS appends each row's status map
(`started`, `committed`, `transactionId`, `errorMessage`).

The rows the call gives are held until every batch has run, so writes of the clauses after it
belong to the statement's own transaction, which commits (or rolls back) when the statement ends.
"""
from __future__ import annotations

from dataclasses import fields

from ..errors import E, InternalError, RelateError, StatementCancelled, StatementTimeout, StorageError
from ..values import type_name
from .subquery_call import CallSubquery

DEFAULT_BATCH = 1000
# what ON ERROR CONTINUE / BREAK recover from: the statement's own faults, not a stop, a bug or
# a store that cannot write
_FATAL = (StatementTimeout, StatementCancelled, InternalError, StorageError)


class TransactionsCall(CallSubquery):
    name = "TransactionApply"

    def __init__(self, child, args, inner, width, batch_fn, on_error: str, report: bool) -> None:
        super().__init__(child, args, inner, width, False)
        self.name = "TransactionApply" if width is not None else "TransactionForeach"
        self.batch_fn = batch_fn  # None: the default batch size
        self.on_error = on_error  # CONTINUE, BREAK or FAIL
        self.report = report

    def _batch_size(self, ctx) -> int:
        if self.batch_fn is None:
            return DEFAULT_BATCH
        n = self.batch_fn((), ctx)
        if isinstance(n, bool) or not isinstance(n, int):
            raise E.Argument.InvalidArgumentValue(
                f"OF ... ROWS expects a positive integer, got {type_name(n)}")
        if n <= 0:
            raise E.Argument.InvalidArgumentValue(f"OF ... ROWS expects a positive integer, got {n}")
        return n

    def rows(self, ctx):
        commits = ctx.txn
        if commits is None:
            raise E.Internal.Internal("CALL { } IN TRANSACTIONS run without an inner transaction committer")
        size = self._batch_size(ctx)
        inputs = list(self.child.rows(ctx))
        out: list = []
        pad = self.pad
        report = self.report
        stopped = False
        for start in range(0, len(inputs), size):
            batch = inputs[start:start + size]
            if stopped:
                status = ({"started": False, "committed": False, "transactionId": None, "errorMessage": None},)
                out.extend(row + pad + (status if report else ()) for row in batch)
                continue
            mark = commits.mark()
            counters = _counters(ctx.stats)
            produced: list = []
            try:
                for row in batch:
                    if ctx.deadline is not None:
                        ctx.check_deadline()
                    produced.extend(self.run(row, ctx))
                commits.commit()
            except _FATAL:
                raise
            except RelateError as e:
                commits.rollback(mark)
                _restore(ctx.stats, counters)
                if self.on_error == "FAIL":
                    raise
                status = ({"started": True, "committed": False, "transactionId": commits.name(),
                           "errorMessage": e.detail},)
                out.extend(row + pad + (status if report else ()) for row in batch)
                stopped = self.on_error == "BREAK"
                continue
            if report:
                status = ({"started": True, "committed": True, "transactionId": commits.name(),
                           "errorMessage": None},)
                produced = [r + status for r in produced]
            out.extend(produced)
        return iter(out)


def _counters(stats) -> tuple:
    return tuple(getattr(stats, f.name) for f in fields(stats))


def _restore(stats, counters: tuple) -> None:
    for f, v in zip(fields(stats), counters):
        setattr(stats, f.name, v)
