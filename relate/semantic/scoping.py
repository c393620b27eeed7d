"""A parsed statement -> nothing, or the first scoping error it holds (the first pass of
`analyze.py`).

The pass walks the clauses in order with the bound variables and their static types (as
`types.py` infers them), the way the planner will, and refuses what openCypher refuses
before any data is read.  Each rule family has its own module:
- `bindings.py`: pattern variables (`VariableTypeConflict`, `VariableAlreadyBound`,
  `RelationshipUniquenessViolation`, `InvalidParameterUse`);
- `projection.py`: WITH/RETURN (`NoExpressionAlias`, `ColumnNameConflict`,
  `AmbiguousAggregationExpression`, `NonConstantExpression`, SKIP/LIMIT literals);
- `pattern_positions.py`: a pattern used as a value (`UnexpectedSyntax`);
- here: the walk itself, variables in expressions (`UndefinedVariable`), aggregate placement
  (`InvalidAggregation`, `NestedAggregation`), operand kinds of WHERE, SET, REMOVE and DELETE
  (`InvalidArgumentType`, `InvalidDelete`);
- `subquery_calls.py`: CALL { } scopes and the subquery expressions (writes, shadowing, COLLECT's
  one column); `checks/in_transactions.py`: where IN TRANSACTIONS may stand.
`build_order.py` runs after this pass (the planner's own order, for what only that order decides).
Errors carry the position of the offending variable, expression or clause.
"""
from __future__ import annotations

from ..errors import CypherSemanticError, E
from . import types as T
from ..syntax import ast as A
from ..syntax.position import position
from .astwalk import is_aggregate
from .bindings import PatternBinder
from .checks import path_patterns
from .pattern_positions import check_pattern_positions
from .checks import in_transactions
from .projection import ProjectionRules, visible
from .checks import labels as label_checks
from .subquery_calls import SubqueryRules


class Analyzer:
    def __init__(self, text: str = "", procedures=None) -> None:
        self.text = text
        self.procedures = procedures
        self.patterns = PatternBinder(self.fail, self.check_expr, text)
        self.projections = ProjectionRules(self)
        self.subqueries = SubqueryRules(self)
        self._standalone = False

    def fail(self, kind: str, detail: str, pos: int = 0):
        raise CypherSemanticError(kind, detail,
                                  position=position(self.text, pos) if self.text else None)

    def at(self, pos: int):
        return position(self.text, pos) if self.text else None

    # ------------------------------------------------------------ statements
    def statement(self, stmt: A.Statement) -> None:
        body = stmt.body
        if isinstance(body, A.Query):
            in_transactions.placement(body, self.fail)
            for part in body.parts:
                self.single(part, {})

    def single(self, sq: A.SingleQuery, scope: dict) -> dict:
        scope = dict(scope)
        saved = getattr(self, "_standalone", False)
        self._standalone = len(sq.clauses) == 1
        for clause in sq.clauses:
            scope = self.clause(clause, scope)
        self._standalone = saved
        return scope

    # ------------------------------------------------------------ clauses
    def clause(self, c, scope: dict) -> dict:
        method = getattr(self, "_" + type(c).__name__, None)
        if method is None:
            return scope
        return method(c, scope)

    def _Match(self, c: A.Match, scope):
        scope = dict(scope)
        path_patterns.match_pattern(c.pattern, self.at)
        self.patterns.match(c.pattern.parts, scope)
        if c.where is not None:
            self.check_predicate(c.where, scope)
        return scope

    def check_predicate(self, e, scope: dict) -> None:
        """A WHERE expression: bound variables, no aggregates, and a type that can be boolean."""
        self.check_expr(e, scope, where="WHERE")
        t = T.Typer(lambda n: scope.get(n, T.ANY)).of(e)
        if not T.admits(t, T.Kind.BOOLEAN):
            self.fail("InvalidArgumentType",
                      f"Type mismatch: expected Boolean but was {T.describe(t.kinds)}", getattr(e, "pos", 0))

    def _Unwind(self, c: A.Unwind, scope):
        self.check_expr(c.expr, scope, where="UNWIND")
        if c.variable in scope:
            self.fail("VariableAlreadyBound", f"Variable `{c.variable}` already declared", c.pos)
        out = dict(scope)
        out[c.variable] = T.Typer(lambda n: scope.get(n, T.ANY)).of(c.expr).element()
        return out

    def _LoadCsv(self, c: A.LoadCsv, scope):
        self.check_expr(c.source, scope, where="LOAD CSV")
        if c.variable in scope:
            self.fail("VariableAlreadyBound", f"Variable `{c.variable}` already declared", c.pos)
        out = dict(scope)
        out[c.variable] = T.MAP if c.headers else T.list_of(T.STRING)
        return out

    def _With(self, c: A.With, scope):
        return self.projections.check(c.projection, scope, c.where, is_return=False, pos=c.pos)

    def _Return(self, c: A.Return, scope):
        return self.projections.check(c.projection, scope, None, is_return=True, pos=c.pos)

    def _Create(self, c: A.Create, scope):
        scope = dict(scope)
        label_checks.write_clause(c.pattern.parts, "INSERT" if c.insert else "CREATE", c.insert, self.text)
        path_patterns.creating(c.pattern.parts, "CREATE", self.at)
        self.patterns.create(c.pattern.parts, scope, "CREATE")
        return scope

    def _Merge(self, c: A.Merge, scope):
        scope = dict(scope)
        path_patterns.creating((c.part,), "MERGE", self.at)
        self.patterns.create((c.part,), scope, "MERGE")
        for it in c.on_create + c.on_match:
            self._set_item(it, scope)
        return scope

    def _SetClause(self, c: A.SetClause, scope):
        for it in c.items:
            self._set_item(it, scope)
        return scope

    def _set_item(self, it: A.SetItem, scope) -> None:
        self.check_expr(it.target, scope, where="SET")
        self._dynamic_labels(it, scope, "SET")
        if it.value is not None:
            self.check_expr(it.value, scope, where="SET")
            check_pattern_positions(it.value, False, self.fail)
        typer = T.Typer(lambda n: scope.get(n, T.ANY))
        entity = T.Kind.NODE | T.Kind.RELATIONSHIP
        if it.kind is A.SetKind.PROPERTY:
            self._expect(typer, it.target.subject, entity)
        elif it.kind is A.SetKind.LABELS:
            self._expect(typer, it.target, T.Kind.NODE)
        else:
            self._expect(typer, it.target, entity)
            self._expect(typer, it.value, T.Kind.MAP | entity)

    def _dynamic_labels(self, it, scope, where: str) -> None:
        """`SET n:$(expr)` / `REMOVE n:$(expr)`: the expressions, and what a literal says."""
        for d in it.dynamic:
            self.check_expr(d.expr, scope, where=where)
            label_checks.dynamic_literal(d, self.text)

    def _expect(self, typer, e, kinds) -> None:
        """Refuse an operand whose static type can never be one of `kinds` (null always can)."""
        t = typer.of(e)
        if not T.admits(t, kinds):
            self.fail("InvalidArgumentType",
                      f"Type mismatch: expected {T.describe(kinds)} but was {T.describe(t.kinds)}",
                      getattr(e, "pos", 0))

    def _Remove(self, c: A.Remove, scope):
        typer = T.Typer(lambda n: scope.get(n, T.ANY))
        for it in c.items:
            self.check_expr(it.target, scope, where="REMOVE")
            self._dynamic_labels(it, scope, "REMOVE")
            if it.labels or it.dynamic:
                self._expect(typer, it.target, T.Kind.NODE)
            elif isinstance(it.target, (A.Property, A.Subscript)):
                self._expect(typer, it.target.subject, T.Kind.NODE | T.Kind.RELATIONSHIP)
        return scope

    def _Delete(self, c: A.Delete, scope):
        for e in c.exprs:
            if isinstance(e, A.LabelTest):
                self.fail("InvalidDelete", "DELETE takes nodes, relationships or paths, not label "
                          "expressions (use REMOVE to remove labels)", e.pos)
            self.check_expr(e, scope, where="DELETE")
            t = T.Typer(lambda n: scope.get(n, T.ANY)).of(e)
            if not T.admits(t, T.Kind.NODE | T.Kind.RELATIONSHIP | T.Kind.PATH):
                self.fail("InvalidArgumentType",
                          f"Type mismatch: expected Node, Path or Relationship but was {T.describe(t.kinds)}",
                          getattr(e, "pos", c.pos))
        return scope

    def _SubqueryCall(self, c: A.SubqueryCall, scope):
        return self.subqueries.call(c, scope)

    def _Foreach(self, c: A.Foreach, scope):
        self.check_expr(c.source, scope, where="FOREACH")
        if c.variable in scope:
            self.fail("VariableAlreadyBound", f"Variable `{c.variable}` already declared", c.pos)
        inner = dict(scope)
        inner[c.variable] = T.Typer(lambda n: scope.get(n, T.ANY)).of(c.source).element()
        for sub in c.body:
            inner = self.clause(sub, inner)
        return scope

    def _Call(self, c: A.Call, scope):
        if c.args is not None:
            for a in c.args:
                self.check_expr(a, scope, where="CALL")
        if c.yield_star and not self._standalone:
            raise E.Syntax.UnexpectedSyntax(position=position(self.text, c.pos) if self.text else None)
        out = dict(scope)
        proc = self.procedures.get(c.procedure) if self.procedures is not None else None
        if c.yields:
            for y in c.yields:
                name = y.alias or y.name
                if name in out:
                    self.fail("VariableAlreadyBound", f"Variable `{name}` already declared", c.pos)
                out[name] = _field_type(proc, y.name)
        elif proc is not None and self._standalone:
            for f in proc.signature.outputs:
                if f.name in out and c.yield_star:
                    self.fail("VariableAlreadyBound", f"Variable `{f.name}` already declared", c.pos)
                out[f.name] = _field_type(proc, f.name)
        if c.where is not None:
            self.check_expr(c.where, out, where="WHERE")
        return out

    # ------------------------------------------------------------ expressions
    def check_expr(self, e, scope: dict, where: str = "", aggregates: bool = False,
                   in_aggregate: bool = False) -> None:
        """Every variable `e` reads is bound; aggregates appear only where allowed, never nested."""
        if e is None:
            return
        if isinstance(e, A.Variable):
            if e.name not in scope:
                self.fail("UndefinedVariable", f"Variable `{e.name}` not defined", e.pos)
            return
        if isinstance(e, (A.Literal, A.Parameter)):
            return
        if is_aggregate(e):
            if in_aggregate:
                self.fail("NestedAggregation",
                          "Can't use aggregate functions inside of aggregate functions.", e.pos)
            if not aggregates:
                self.fail("InvalidAggregation", f"{_agg_name(e)} is not allowed here", e.pos)
            if isinstance(e, A.FunctionCall):
                for a in e.args:
                    self.check_expr(a, scope, where, aggregates, True)
                    if _calls(a, "rand"):
                        self.fail("NonConstantExpression",
                                  "Can't use non-deterministic (random) functions inside of aggregate functions.",
                                  e.pos)
            return
        if isinstance(e, (A.ListComprehension, A.Quantifier)):
            self.check_expr(e.source, scope, where, aggregates, in_aggregate)
            inner = dict(scope)
            inner[e.variable] = T.Typer(lambda n: scope.get(n, T.ANY)).of(e.source).element()
            for sub in (e.predicate, getattr(e, "projection", None)):
                self.check_expr(sub, inner, where, False, in_aggregate)
            return
        if isinstance(e, A.Reduce):
            self.check_expr(e.init, scope, where, aggregates, in_aggregate)
            self.check_expr(e.source, scope, where, aggregates, in_aggregate)
            inner = dict(scope)
            inner[e.accumulator] = T.ANY
            inner[e.variable] = T.Typer(lambda n: scope.get(n, T.ANY)).of(e.source).element()
            self.check_expr(e.expression, inner, where, False, in_aggregate)
            return
        if isinstance(e, A.PatternPredicate):
            self._pattern_predicate(e, scope)
            return
        if isinstance(e, A.PatternComprehension):
            inner = dict(scope)
            part = A.PatternPart(None, e.element)
            self.patterns.match((part,), inner)
            if e.path_variable:
                if e.path_variable in scope:
                    self.fail("VariableAlreadyBound", f"Variable `{e.path_variable}` already declared", e.pos)
                inner[e.path_variable] = T.PATH
            self.check_expr(e.predicate, inner, where)
            self.check_expr(e.projection, inner, where)
            return
        if isinstance(e, A.SUBQUERY_EXPRS):
            inner = dict(scope)
            if e.query is not None:
                self.subqueries.expression(e, scope)
            else:
                self.patterns.match(e.pattern.parts, inner)
                self.check_expr(e.where, inner, "WHERE")
            return
        if isinstance(e, A.MapProjection):
            self.check_expr(e.subject, scope, where, aggregates, in_aggregate)
            for it in e.items:
                if it.kind is A.MapProjKind.VARIABLE and it.key not in scope:
                    self.fail("UndefinedVariable", f"Variable `{it.key}` not defined", e.pos)
                if it.value is not None:
                    self.check_expr(it.value, scope, where, aggregates, in_aggregate)
            return
        if isinstance(e, A.Node):
            for s in e.__slots__:
                v = getattr(e, s)
                self._check_value(v, scope, where, aggregates, in_aggregate)

    def _check_value(self, v, scope, where, aggregates, in_aggregate) -> None:
        if isinstance(v, A.Node):
            self.check_expr(v, scope, where, aggregates, in_aggregate)
        elif isinstance(v, tuple):
            for x in v:
                self._check_value(x, scope, where, aggregates, in_aggregate)

    def _pattern_predicate(self, e: A.PatternPredicate, scope: dict) -> None:
        el = e.element
        for node in el.nodes:
            if node.variable and node.variable not in scope:
                self.fail("UndefinedVariable", f"Variable `{node.variable}` not defined", node.pos)
        for rel in el.rels:
            if rel.variable and rel.variable not in scope:
                self.fail("UndefinedVariable", f"Variable `{rel.variable}` not defined", rel.pos)
        if not el.rels:
            self.fail("InvalidArgumentType", "Type mismatch: a single node pattern is not a predicate", e.pos)
        inner = dict(scope)
        self.patterns.match((A.PatternPart(None, el),), inner)


_UPDATING = (A.Create, A.Merge, A.SetClause, A.Remove, A.Delete, A.Foreach)


def _calls(e, name: str) -> bool:
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.FunctionCall) and n.name.lower() == name:
            return True
        if isinstance(n, tuple):
            stack.extend(n)
        elif isinstance(n, A.Node):
            stack.extend(getattr(n, s) for s in n.__slots__)
    return False


def _agg_name(e) -> str:
    return "count(*)" if isinstance(e, A.CountStar) else f"aggregation function {e.name}()"


def _field_type(proc, name: str) -> T.SType:
    if proc is None:
        return T.ANY
    for f in proc.signature.outputs:
        if f.name == name:
            return {"INTEGER": T.INTEGER, "FLOAT": T.FLOAT, "STRING": T.STRING,
                    "BOOLEAN": T.BOOLEAN, "MAP": T.MAP}.get(f.type, T.ANY)
    return T.ANY


__all__ = ["Analyzer", "visible"]
