"""`ast.Statement` -> `Plan`: a tree of physical operators with fixed slots, plus what the
statement is (query type, columns, parameters it needs, notifications).

Only statements that passed the checking stage (`semantic/analyze.py`) reach the planner: it
only builds, and a guard of its own that fires is an `InternalError`.  Clauses are planned in
order; each one takes the operator and `Scope` built so far and returns new ones.  Expressions
are compiled to closures here, once per plan.  This file holds the entry and the clause
dispatch; the sections are mixins: MATCH in `matching.py`, CREATE/MERGE/SET in `writing.py`,
pattern and subquery expressions in `subqueries.py`, projections in `projection.py`, procedure
calls in `calls.py`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import E
from ..result import Notification
from ..syntax import ast as A
from ..exec import operators as O
from ..exec import labels as L
from ..exec import writes as W
from ..exec.compile import Compiler, Scope
from . import rules
from .calls import CallPlanner
from .schema_plan import schema_operator
from .load_csv import plan_load_csv
from .matching import MatchPlanner
from .projection import ProjectionPlanner, Shown
from .subqueries import SubqueryPlanner
from .writing import WritePlanner


@dataclass(slots=True)
class Plan:
    root: O.Operator
    columns: tuple[str, ...]
    query_type: str
    parameters: tuple[str, ...]
    notifications: list[Notification] = field(default_factory=list)
    schema: A.Node | None = None  # a schema command (A.SCHEMA_COMMANDS), run by the database
    in_transactions: bool = False  # holds CALL { } IN TRANSACTIONS (its batches commit on their own)
    loads_csv: int | None = None  # the offset of the first LOAD CSV: the run needs the policy's import folder
    # facts `Database.run` reads on every call, worked out once here instead of at each run
    parameter_set: frozenset[str] = field(init=False)  # `parameters`, for one subset test
    writes_rows: bool = field(init=False)  # a write that is not a schema command (constraints apply)
    special: bool = field(init=False)  # LOAD CSV or IN TRANSACTIONS: the run has more to check and set up
    # the operator chain as one generated function (`exec/pipeline.py`), None: run the operators
    pipeline: object = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.parameter_set = frozenset(self.parameters)
        self.writes_rows = self.query_type != "r" and self.schema is None
        self.special = self.in_transactions or self.loads_csv is not None


def _params_in(node) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Parameter):
            if n.name not in out:
                out.append(n.name)
        elif isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
        elif isinstance(n, A.Node):
            for s in reversed(n.__slots__):
                stack.append(getattr(n, s))
    return out


class Planner(MatchPlanner, WritePlanner, SubqueryPlanner, ProjectionPlanner, CallPlanner):
    def __init__(self, graph, procedures=None, disabled_rules=None) -> None:
        """`disabled_rules`: names of access-path rules (`rules.RULES`) to leave out; None reads
        them from the environment (`rules.ENVIRONMENT_VARIABLE`)."""
        self.graph = graph
        self.procedures = procedures
        self.disabled_rules = (rules.disabled_by_environment() if disabled_rules is None
                               else rules.checked(disabled_rules))
        self.implicit_parameters: list[str] = []  # read by CALL without parentheses
        self.compiler = Compiler(pattern_hook=self._pattern_expr, subquery_hook=self._subquery_expr)
        self.notifications: list[Notification] = []
        self.reads = False
        self.writes = False
        self.in_transactions = False
        self.loads_csv: int | None = None

    # ------------------------------------------------------------------ entry
    def plan(self, stmt: A.Statement) -> Plan:
        body = stmt.body
        params = tuple(_params_in(body))
        if isinstance(body, A.SCHEMA_COMMANDS):
            return Plan(schema_operator(body), (), "s", params, [], body)
        parts = []
        columns = None
        for sq in body.parts:
            root, cols = self._single(sq)
            if columns is not None and list(cols) != list(columns):
                raise E.Internal.Internal("planner: UNION parts with different columns")
            columns = cols
            parts.append(root)
        if len(parts) == 1:
            root = parts[0]
        else:
            distinct = not all(body.union_all)
            if any(body.union_all) and not all(body.union_all):
                raise E.Internal.Internal("planner: UNION mixed with UNION ALL")
            root = O.Union(parts, distinct)
            root = O.ProduceResults(root)
            root.details = f"{len(columns)} item(s)"
        qtype = "rw" if self.reads and self.writes else ("w" if self.writes else "r")
        params = params + tuple(p for p in dict.fromkeys(self.implicit_parameters) if p not in params)
        return Plan(root, tuple(columns or ()), qtype, params, self.notifications,
                    in_transactions=self.in_transactions, loads_csv=self.loads_csv)

    # ------------------------------------------------------------------ clauses
    def _single(self, sq: A.SingleQuery):
        op: O.Operator = O.Argument()
        scope = Scope()
        clauses = sq.clauses
        self._standalone = len(clauses) == 1
        returned = None
        for i, c in enumerate(clauses):
            last = i == len(clauses) - 1
            op, scope, returned = self._clause(c, op, scope, last)
        if returned is None:
            return op, ()
        return op, returned

    def _clause(self, c, op, scope, last):
        if isinstance(c, A.Match):
            return (*self._match(c, op, scope), None)
        if isinstance(c, A.Unwind):
            fn = self.compiler.compile(c.expr, scope)
            if scope.has(c.variable):
                raise E.Internal.Internal(f"planner: UNWIND rebinds `{c.variable}`")
            scope, _ = scope.extended(c.variable)
            return O.Unwind(op, fn, c.variable), scope, None
        if isinstance(c, A.LoadCsv):
            return (*plan_load_csv(self, c, op, scope), None)
        if isinstance(c, A.With):
            op, scope, cols = self._projection(c.projection, op, scope, is_return=False, where=c.where)
            return op, scope, None
        if isinstance(c, A.Return):
            op, scope, cols = self._projection(c.projection, op, scope, is_return=True)
            return op, scope, cols
        if isinstance(c, A.Create):
            return (*self._create(c, op, scope), None)
        if isinstance(c, A.Merge):
            return (*self._merge(c, op, scope), None)
        if isinstance(c, A.SetClause):
            self.writes = True
            return O.Eager(W.SetOp(op, [self._set_item(it, scope) for it in c.items])), scope, None
        if isinstance(c, A.Remove):
            self.writes = True
            items = []
            for it in c.items:
                if it.labels or it.dynamic:
                    items.append((self.compiler.compile(it.target, scope), None, self._item_labels(it, scope)))
                elif isinstance(it.target, A.Subscript):  # `REMOVE n[key]`
                    key = L.dynamic_key(self.compiler.compile(it.target.index, scope))
                    items.append((self.compiler.compile(it.target.subject, scope), key, ()))
                else:
                    items.append((self.compiler.compile(it.target.subject, scope), it.target.key, ()))
            return W.RemoveOp(op, items), scope, None
        if isinstance(c, A.Delete):
            self.writes = True
            fns = [self.compiler.compile(e, scope) for e in c.exprs]
            return W.DeleteOp(op, fns, c.detach), scope, None
        if isinstance(c, A.Foreach):
            self.writes = True
            source = self.compiler.compile(c.source, scope)
            arg = O.Argument()
            body, inner = arg, scope.extended(c.variable)[0]
            for sub in c.body:
                body, inner, _ = self._clause(sub, body, inner, False)
            return W.ForeachOp(op, source, arg, body), scope, None
        if isinstance(c, A.SubqueryCall):
            return (*self._subquery_call(c, op, scope), None)
        if isinstance(c, A.Finish):
            return Shown(op, "EmptyResult", ""), scope, None
        if isinstance(c, A.Call):
            standalone = self._standalone
            op, scope, cols = self._call(c, op, scope, standalone)
            if standalone:
                op = O.ProduceResults(O.Narrow(op, [scope.slot(n) for n in cols]))
                op.details = f"{len(cols)} item(s)"
            return op, scope, cols
        raise E.Internal.Internal(f"planner: no rule for {type(c).__name__}")
