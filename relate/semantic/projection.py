"""WITH / RETURN -> the scope after them, and the rules of a projection.

- Column names: an unaliased item is named by its text; WITH needs an alias for anything but a
  variable (`NoExpressionAlias`); two columns may not share a name (`ColumnNameConflict`).
- Aggregation: when any item aggregates, the other items are grouping keys, and an aggregating
  item may read variables outside its aggregate calls only through an expression that is itself
  a grouping key (`AmbiguousAggregationExpression`).
- ORDER BY and the WHERE of WITH see the new columns and, for a plain projection, the variables
  from before it too.  After DISTINCT or aggregation they see only the columns, but an expression
  equal to a projected one stands for that column (`projected_rewrite`).
- SKIP and LIMIT read no variables (`NonConstantExpression`); a literal must be a non-negative
  integer.
"""
from __future__ import annotations

from . import types as T
from ..syntax import ast as A
from .pattern_positions import check_pattern_positions
from .astwalk import aggregates_in, is_aggregate, key, replace, variables_in


def visible(scope: dict) -> list[str]:
    """The names `*` expands to, in column order."""
    return sorted(n for n in scope if not n.startswith(" "))


def item_names(p: A.Projection, scope_names) -> list[tuple[str, A.Expr]]:
    items = []
    if p.star:
        items = [(n, A.Variable(n)) for n in scope_names]
    for it in p.items:
        items.append((it.alias if it.alias is not None else it.text, it.expr))
    return items


def projected_rewrite(e, items: list[tuple[str, A.Expr]], only_aggregates: bool = False):
    """`e` with each subexpression equal to a projected item's expression replaced by that
    item's column (a `Variable` named like the column)."""
    table = {}
    for name, expr in items:
        if only_aggregates and not aggregates_in(expr):
            continue
        if isinstance(expr, A.Variable) and expr.name == name:
            continue
        table.setdefault(key(expr), name)
    return _to_columns(e, table)


def _to_columns(e, table: dict):
    """`e` with each subexpression whose `key` is in `table` replaced by that column's variable."""
    if not table:
        return e

    def swap(n):
        if isinstance(n, A.Expr) and not isinstance(n, (A.Literal, A.Parameter)):
            name = table.get(key(n))
            if name is not None:
                return A.Variable(name, getattr(n, "pos", 0))
        return None
    return replace(e, swap)


def is_simple_key(e) -> bool:
    """A grouping key an aggregating expression may reuse: `v` or `v.key`."""
    return isinstance(e, A.Variable) or (isinstance(e, A.Property) and isinstance(e.subject, A.Variable))


def grouping_key_swap(key_of: dict):
    """A `replace` callback: an expression structurally equal to a grouping key (`key_of`: key
    form -> key index) becomes the hidden variable ` key<i>` the aggregation's row holds it in,
    so what an aggregating projection computes after grouping reads the key, not the node."""
    def to_key(n):
        if isinstance(n, A.Expr) and not isinstance(n, (A.Literal, A.Parameter)):
            k = key_of.get(key(n))
            if k is not None:
                return A.Variable(f" key{k}")
        return None
    return to_key


def aggregate_rewrite(e, items: list[tuple[str, A.Expr]]):
    """For an expression holding aggregates: projected aggregating items and simple projected
    keys become their columns; anything else stays as written."""
    table = {}
    for name, expr in items:
        if aggregates_in(expr) or is_simple_key(expr):
            if not (isinstance(expr, A.Variable) and expr.name == name):
                table.setdefault(key(expr), name)
    return _to_columns(e, table)


class ProjectionRules:
    def __init__(self, analyzer) -> None:
        self.an = analyzer

    def check(self, p: A.Projection, scope: dict, where, is_return: bool, pos: int) -> dict:
        an = self.an
        if is_return and p.star and not visible(scope) and not p.items:
            an.fail("NoVariablesInScope",
                    f"{'RETURN' if is_return else 'WITH'} * is not allowed when there are no variables in scope",
                    pos)
        items = item_names(p, visible(scope))
        seen = set()
        for it in p.items:
            name = it.alias if it.alias is not None else it.text
            if not is_return and it.alias is None and not isinstance(it.expr, A.Variable):
                an.fail("NoExpressionAlias", "Expression in WITH must be aliased (use AS)", it.pos)
        for name, _ in items:
            if name in seen:
                an.fail("ColumnNameConflict",
                        f"Multiple result columns with the same name `{name}` are not supported", pos)
            seen.add(name)
        for _, expr in items:
            an.check_expr(expr, scope, where="RETURN" if is_return else "WITH", aggregates=True)
            check_pattern_positions(expr, False, an.fail)
        aggregating = any(aggregates_in(e) for _, e in items)
        if aggregating:
            self._grouping(items, scope)
        typer = T.Typer(lambda n: scope.get(n, T.ANY))
        new = {name: (typer.of(expr) if not aggregates_in(expr) else T.ANY) for name, expr in items}
        # ORDER BY / WHERE scope
        if aggregating or p.distinct:
            late_scope = dict(new)
        else:
            late_scope = dict(scope)
            late_scope.update(new)
        for s in p.order:
            if aggregating and aggregates_in(s.expr):
                self._order_aggregate(s.expr, items, late_scope)
            else:
                an.check_expr(projected_rewrite(s.expr, items), late_scope, where="ORDER BY")
        for what, e in (("SKIP", p.skip), ("LIMIT", p.limit)):
            if e is not None:
                self._count(what, e)
        if where is not None:
            an.check_expr(projected_rewrite(where, items), late_scope, where="WHERE")
        return new

    def _grouping(self, items, scope) -> None:
        """Aggregating items may read variables only inside aggregates or through simple
        grouping keys (a variable or a property of one)."""
        simple = {key(e) for _, e in items if not aggregates_in(e) and is_simple_key(e)}

        def swap(n):
            if is_aggregate(n) or (isinstance(n, A.Expr) and key(n) in simple):
                return A.Literal(None)
            return None
        for _, expr in items:
            if not aggregates_in(expr):
                continue
            for v in variables_in(replace(expr, swap)):
                self.an.fail("AmbiguousAggregationExpression",
                             "Aggregation column contains implicit grouping expressions: "
                             f"`{v.name}` is neither a grouping key nor inside an aggregate", v.pos)

    def _order_aggregate(self, e, items, late_scope) -> None:
        """An ORDER BY item mixing aggregates with other parts, after an aggregating projection:
        its aggregates must be projected ones, the rest may read columns or simple keys."""
        original = e
        e = aggregate_rewrite(e, items)
        for agg in aggregates_in(e):
            inner = agg.args if isinstance(agg, A.FunctionCall) else ()
            for v in variables_in(A.ListLiteral(tuple(inner))):
                if v.name not in late_scope:
                    self.an.fail("UndefinedVariable", f"Variable `{v.name}` not defined", v.pos)
        missing = [v for v in variables_in(e) if v.name not in late_scope]
        if missing:
            # reading a projected expression that is more than a variable or a property of one
            # is ambiguous; reading something not projected at all is undefined
            if not [v for v in variables_in(projected_rewrite(original, items)) if v.name not in late_scope]:
                self.an.fail("AmbiguousAggregationExpression",
                             "an expression mixing aggregates with other projected expressions may only "
                             "reuse projected variables or their properties", missing[0].pos)
            self.an.fail("UndefinedVariable", f"Variable `{missing[0].name}` not defined", missing[0].pos)
        self.an.check_expr(e, late_scope, where="ORDER BY", aggregates=True)

    def _count(self, what: str, e) -> None:
        an = self.an
        free = variables_in(e)
        if free or aggregates_in(e):
            pos = free[0].pos if free else getattr(e, "pos", 0)
            an.fail("NonConstantExpression",
                    f"It is not allowed to refer to variables in {what}", pos)
        value = _literal_value(e)
        if value is _UNKNOWN:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            if value is None:
                return
            an.fail("InvalidArgumentType",
                    f"{what} expects a non-negative integer, got {T.describe(T.of_value(value).kinds)}",
                    getattr(e, "pos", 0))
        if value < 0:
            an.fail("NegativeIntegerArgument", f"{what} expects a non-negative integer, got {value}",
                    getattr(e, "pos", 0))


_UNKNOWN = object()


def _literal_value(e):
    if isinstance(e, A.Literal):
        return e.value
    if isinstance(e, A.Unary) and e.op is A.UnOp.NEG and isinstance(e.operand, A.Literal) \
            and isinstance(e.operand.value, (int, float)) and not isinstance(e.operand.value, bool):
        return -e.operand.value
    return _UNKNOWN
