"""What one statement returns: rows and everything an agent needs beside them.

Engine run -> `Result` (columns, column types, rows as tuples of Cypher values (`Database.execute`
hands Python ones, `values/python.py`, and keeps these in `cypher_rows`), the 11 mutation
counters, notifications, the plan description, timings, plan-cache outcome, query type).  The
renderers in `relate.output` and the protocol cores in `relate.protocols` turn a `Result` into
bytes; they never reach back into the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from .values import type_name

STAT_KEYS = (
    "constraints_added", "constraints_removed", "indexes_added", "indexes_removed",
    "labels_added", "labels_removed", "nodes_created", "nodes_deleted", "properties_set",
    "relationships_created", "relationships_deleted",
)


@dataclass(slots=True)
class Stats:
    """The 11 mutation counters of one statement."""

    nodes_created: int = 0
    nodes_deleted: int = 0
    relationships_created: int = 0
    relationships_deleted: int = 0
    properties_set: int = 0
    labels_added: int = 0
    labels_removed: int = 0
    indexes_added: int = 0
    indexes_removed: int = 0
    constraints_added: int = 0
    constraints_removed: int = 0

    def as_dict(self) -> dict[str, int]:
        """Counters keyed by name, in sorted key order (the order every JSON surface prints)."""
        return {k: getattr(self, k) for k in STAT_KEYS}

    @property
    def contains_updates(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))


TIMING_KEYS = ("elapsed_ms", "execute_ms", "lex_parse_ms", "lower_ms", "parse_ms", "plan_ms",
               "result_generation_ms", "rewrite_ms")


@dataclass(slots=True)
class Timings:
    """Milliseconds spent per phase.  parse = lex_parse + rewrite + lower; execute includes
    result_generation; parse + plan + execute <= elapsed."""

    elapsed_ms: float = 0.0
    parse_ms: float = 0.0
    lex_parse_ms: float = 0.0
    rewrite_ms: float = 0.0
    lower_ms: float = 0.0
    plan_ms: float = 0.0
    execute_ms: float = 0.0
    result_generation_ms: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in TIMING_KEYS}


@dataclass(frozen=True, slots=True)
class Notification:
    """Advice attached to a plan (GQLSTATUS code, severity, remedy)."""

    code: str
    gql_status: str
    severity: str
    category: str
    title: str
    description: str
    remedy: str
    operator_id: int | None = None

    def as_dict(self, *, with_operator: bool = True) -> dict:
        out = {"category": self.category, "code": self.code, "description": self.description,
               "gql_status": self.gql_status}
        if with_operator and self.operator_id is not None:
            out["operator_id"] = self.operator_id
        out.update({"remedy": self.remedy, "severity": self.severity, "title": self.title})
        return out


@dataclass(frozen=True, slots=True)
class PlanDescription:
    """One operator of a rendered plan (`relate.plan/v1`).  Built from the physical plan by
    `relate.plan.explain`; it describes the plan, it is not the plan."""

    operator: str
    details: str
    identifiers: tuple[str, ...] = ()
    warnings: tuple[Notification, ...] = ()
    children: tuple["PlanDescription", ...] = ()
    estimated_rows: float | None = None
    actual: dict | None = None

    def as_dict(self) -> dict:
        # iterative: a statement of hundreds of clauses is a chain of hundreds of operators
        root: dict = {}
        stack: list[tuple[PlanDescription, dict]] = [(self, root)]
        while stack:
            node, out = stack.pop()
            children: list[dict] = [{} for _ in node.children]
            out.update({
                "actual": node.actual,
                "children": children,
                "details": node.details,
                "estimated_rows": node.estimated_rows,
                "identifiers": list(node.identifiers),
                "operator": node.operator,
                "warnings": [w.as_dict(with_operator=False) for w in node.warnings],
            })
            stack.extend(zip(node.children, children))
        return root


def plan_document(statement: str, root: PlanDescription, profiled: bool = False) -> dict:
    return {"profiled": profiled, "root": root.as_dict(), "schema": "relate.plan/v1",
            "statement": statement}


@dataclass(slots=True)
class Result:
    """The outcome of one statement."""

    statement: str
    columns: tuple[str, ...]
    rows: list[tuple]
    stats: Stats = field(default_factory=Stats)
    notifications: tuple[Notification, ...] = ()
    plan: PlanDescription | None = None
    timings: Timings = field(default_factory=Timings)
    plan_cache: str = "miss"
    query_type: str = "r"  # r, w, rw or s (schema)
    explained: bool = False  # EXPLAIN: planned, not run
    profiled: bool = False   # PROFILE: run, and `plan` holds each operator's actual rows and time
    # the engine's rows, when `rows` holds them as Python values (`Database.execute`): temporal
    # values with their nanoseconds and zone rules, as the renderers read them
    cypher_rows: list[tuple] | None = None
    # warnings about the answer itself (CURRENT_READ_VALID_NOW: the graph holds values valid later)
    warnings: tuple[Notification, ...] = ()

    @property
    def column_types(self) -> list[str]:
        """One type per column, from the first row; `ANY` when there are no rows."""
        rows = self.rows if self.cypher_rows is None else self.cypher_rows
        if not rows:
            return ["ANY"] * len(self.columns)
        return [type_name(v) for v in rows[0]]

    def plan_json(self) -> dict | None:
        if self.plan is None:
            return None
        return plan_document(self.statement, self.plan, self.profiled)

    def records(self) -> list[dict]:
        """Rows as dicts keyed by column."""
        cols = self.columns
        return [dict(zip(cols, row)) for row in self.rows]

    def __iter__(self):
        """Iterating a result yields its rows, one tuple per row in column order."""
        return iter(self.rows)

    def fetchall(self) -> list[tuple]:
        """Every row, as a list of tuples (the DB-API spelling of `rows`)."""
        return list(self.rows)

    def to_df(self):
        """The rows as a pandas DataFrame with the result's columns (needs pandas installed)."""
        try:
            import pandas
        except ImportError as exc:  # pandas is optional; say what is missing
            raise ImportError("Result.to_df() needs pandas: pip install pandas") from exc
        return pandas.DataFrame(list(self.rows), columns=list(self.columns))


@dataclass(frozen=True, slots=True)
class Span:
    """When an entity's version is valid (`valid_from`, `valid_to`) and when the database recorded it
    (`txn_from`, `txn_to`): epoch nanoseconds, None for an open end."""

    valid_from: int | None
    valid_to: int | None
    txn_from: int | None
    txn_to: int | None

    def as_dict(self) -> dict:
        """The nanoseconds under snake_case keys, then the same times as ISO-8601 text (`Z`)."""
        from .temporal.instant import render_ns
        return {"valid_from": self.valid_from, "valid_to": self.valid_to, "txn_from": self.txn_from,
                "txn_to": self.txn_to, "validFrom": render_ns(self.valid_from), "validTo": render_ns(self.valid_to),
                "txnFrom": render_ns(self.txn_from), "txnTo": render_ns(self.txn_to)}
