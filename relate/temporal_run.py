"""What `Database.run` does for a statement's time: an AT VALID / AS OF prefix or the `at_time`
argument -> the graph the statement reads (the current one, or the history's view of a past
time) and the valid time its writes get.

Rules (the 1.4 tool text): `at_time` means exactly `AS OF '<at_time>'`, needs at least one
top-level MATCH, is not combined with a prefix in the text, and does not date a write; AS OF
reads only.  AT VALID dates every write of the statement; its MATCH and MERGE see the current
graph.  In a `transaction()` block all writes share one valid time.
"""
from __future__ import annotations

from .errors import E
from .result import Notification
from .storage.as_of import view
from .syntax import ast as A
from .syntax.position import position
from .syntax.temporal_prefix import resolve as resolve_ref

VALID_NOW = Notification(
    code="CURRENT_READ_VALID_NOW",
    gql_status="01N00",
    severity="WARNING",
    category="TEMPORAL",
    title="The graph holds values valid later",
    description="some values of the graph become valid at a later time (written with a future AT VALID); "
                "this result shows what is valid now",
    remedy="read at that time with AS OF '<ISO-8601>' to see them",
)


def _top_level_match(stmt: A.Statement) -> bool:
    body = stmt.body
    return isinstance(body, A.Query) and any(
        isinstance(c, A.Match) for part in body.parts for c in part.clauses)


def begin(db, prepared, params: dict, at_time: str | None, policy):
    """-> (the graph to read, the statement's clock reading or None, the valid time of its writes
    or None), after applying what became due by now."""
    graph = db.graph
    history = graph.history
    now = None
    if history.due:
        now = db.now()
        if history.next_due <= now:
            history.apply_due(graph, now)
    if at_time is None and prepared.statement.temporal is None:
        return graph, now, None
    limit = min(db.temporal_read_limit, policy.temporal_read_limit)
    graph, valid = resolve(db, prepared, params, at_time, limit)
    return graph, now, valid


def resolve(db, prepared, params: dict, at_time: str | None, limit: int):
    """-> (the graph to read, the valid time of the writes or None)."""
    stmt = prepared.statement
    prefix = stmt.temporal
    writes = prepared.plan.query_type != "r"
    if at_time is not None:
        if prefix is not None:
            raise E.Temporal.AtTimeWithTemporalPrefix()
        if writes:
            raise E.Temporal.AtTimeWrite()
        if not _top_level_match(stmt):
            raise E.Temporal.AtTimeNeedsMatch()
        from .temporal.instant import parse_ns  # only for `at_time`: loads temporal parsing
        t = parse_ns(at_time) if isinstance(at_time, str) else None
        if t is None:
            raise E.Temporal.InvalidTemporalPrefix(what="atTime", got=repr(at_time))
        if stmt.explain:
            return db.graph, None
        return view(db.graph, t, None, limit), None
    if prefix.kind == "valid":
        if stmt.explain:
            return db.graph, None
        return db.graph, resolve_ref(prefix.time, params, "AT VALID")
    if writes:
        raise E.Temporal.AsOfWrite(position=position(prepared.text, prefix.time.offset))
    t = resolve_ref(prefix.time, params, "AS OF")
    tt = resolve_ref(prefix.recorded, params, "RECORDED") if prefix.recorded is not None else None
    if stmt.explain:
        return db.graph, None
    return view(db.graph, t, tt, limit), None


def date_writes(txn, notes, valid: int | None, explicit: bool) -> None:
    """Give the transaction (`notes`: its history notes) its valid time; a block's statements
    must agree on it."""
    if explicit and txn.dirty and notes.valid != valid:
        raise E.Temporal.MixedValidTimes()
    notes.valid = valid
