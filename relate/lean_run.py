"""A cached plan on the common path -> its `Result`, with only the steps that path needs.

The common path: a plan the cache holds (no EXPLAIN, PROFILE, time travel, schema command,
LOAD CSV or IN TRANSACTIONS in it), the connection's own policy with nothing to limit, no
`transaction()` block open, no timeout, token, notifications or provenance asked for, nothing
due in the history, and parameters that are all in range and all JSON's kinds.  `Database.run`
tests each of those on every call and then does what this module does; here the tests come
first, in one place, and anything else returns None before a step is taken, so the caller runs
the general path (which raises the refusals).  What the run does is the same: a transaction
(rolled back when anything fails), the statement clock pinned, the store commit of a write, the
same timings and the same `Result`.
"""
from __future__ import annotations

import gc
import sys
from time import perf_counter_ns

from . import gc_pause
from .errors import E
from .exec.context import ExecContext
from .result import Result, Timings
from .storage.graph import Transaction
from .temporal_run import VALID_NOW
from .values.ints import scan_params


def lean_eligible(prepared) -> bool:
    """Whether nothing in the statement itself keeps its cached plan off `lean_run`."""
    stmt, plan = prepared.statement, prepared.plan
    return not (stmt.explain or stmt.profile or stmt.temporal is not None or plan.schema is not None
                or plan.special)


def plan_rows(plan, ctx, instant: int | None) -> list:
    """The rows `plan` returns (none without RETURN), with the statement clock pinned at `instant`
    (None: now) when a plan reads it: date(), datetime.statement(), ... read one instant per
    statement, and a plan that calls them loaded relate.temporal when it was compiled."""
    clock = sys.modules.get("relate.temporal.clock")
    pipe = plan.pipeline
    if clock is None:
        rows = pipe(ctx) if pipe is not None else list(plan.root.rows(ctx))
    else:
        token = clock.pin(instant)
        try:
            rows = pipe(ctx) if pipe is not None else list(plan.root.rows(ctx))
        finally:
            clock.unpin(token)
    return rows if plan.columns else []  # a statement without RETURN yields no records


def lean_run(db, prepared, parameters, t0: int) -> Result | None:
    """Run `prepared` (a cache entry marked `lean`) with `parameters`, timed from `t0`; None when
    this call needs `Database.run` (nothing has happened yet then)."""
    graph = db.graph
    policy = db.policy
    if db._explicit is not None or not policy.plain or graph.history.due:
        return None
    plan = prepared.plan
    qtype = plan.query_type
    if qtype != "r" and (db.read_only or policy.read_only or graph.constraints):
        return None  # refused, or constraints to check: the general path does both
    if parameters:
        params = dict(parameters)
        if scan_params(params):  # a wide or deep value (refused), or one to convert
            return None
    else:
        params = {}
    if plan.parameters and not params.keys() >= plan.parameter_set:
        return None  # a missing parameter, reported there
    ctx = ExecContext(graph, params)
    ctx.search = (db, policy)
    if qtype == "r":
        # a read logs nothing: the transaction object of the last read serves again (a fresh one
        # after anything was logged in it, which a plan that reads never does)
        txn = db._read_txn
        if txn is None:
            txn = db._read_txn = Transaction(graph.durable)
        graph.txn = txn
    else:
        txn = graph.begin()
    # a write runs with the cyclic collector off, as on `Database.run`'s path (`gc_pause.py`)
    collecting = qtype != "r" and gc.isenabled()
    if collecting:
        gc.disable()
    done = False
    t_gen = None
    try:
        rows = plan_rows(plan, ctx, None)
        if txn.dirty:
            db._read_txn = None
            t_gen = perf_counter_ns()
            if txn.notes is None and not graph.durable:
                graph.history.created(graph, db.clock())  # undated creates in memory
            else:
                db._commit()
        done = True
    except BaseException as e:
        db._read_txn = None
        txn.rollback()  # a failing statement leaves the graph as it found it
        if isinstance(e, RecursionError):
            raise E.Runtime.PipelineTooDeep() from None
        raise
    finally:
        graph.txn = None  # `Graph.end`, without its frame
        if collecting:
            if done:
                gc_pause.after_write(ctx.stats, True)
            gc.enable()
    t_end = perf_counter_ns()
    timings = Timings()
    timings.execute_ms = timings.elapsed_ms = (t_end - t0) / 1e6
    if t_gen is not None:
        timings.result_generation_ms = (t_end - t_gen) / 1e6
    result = Result(prepared.text, plan.columns, rows, ctx.stats, (), prepared.description, timings,
                    prepared.cache, qtype)
    if graph.history.starts:
        result.warnings = (VALID_NOW,)  # values valid later exist: this read shows now
    return result
