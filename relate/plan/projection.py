"""WITH / RETURN -> operators: projection, aggregation, DISTINCT, ORDER BY, SKIP/LIMIT and the
WHERE of WITH.

Shapes (rows flow bottom to top):
- plain:       Extend(new columns) -> Sort -> Skip -> Limit -> Filter(WHERE) -> Narrow.  Sorting
  and WHERE run on the wide row, so they see the variables from before the projection too.
- DISTINCT:    Extend -> Narrow -> Distinct -> Sort -> Skip -> Limit -> Filter.
- aggregating: Aggregate(keys, aggregates) -> Extend(items over them) -> Narrow -> [Distinct] ->
  Sort -> Skip -> Limit -> Filter.
After DISTINCT or aggregation, ORDER BY and WHERE see only the columns; an expression equal to a
projected one is read from its column (`semantic.projection.projected_rewrite`).  The semantic
pass has already refused what cannot be planned, so this module only builds.
"""
from __future__ import annotations

from ..exec import operators as O
from ..exec.aggregates import AggSpec
from ..exec.count_trails import CountTrails
from ..exec.distinct_ends import DistinctEnds
from ..exec.grouped_count import GroupedCount
from ..exec import scan_filter as SF
from ..exec.compile import Scope
from ..semantic.astwalk import aggregates_in, is_aggregate, key, replace
from ..semantic.projection import (aggregate_rewrite, grouping_key_swap, is_simple_key, item_names,
                                   projected_rewrite, visible)
from ..syntax import ast as A
from .conjuncts import match_conjunct
from .explain import count_text
from .match_spec import CountSpec, Counting


class Shown(O.Operator):
    """A visible stand-in in EXPLAIN for a projection built of several folded operators."""

    def __init__(self, child, name, details) -> None:
        super().__init__(child)
        self.name = name
        self.details = details

    def rows(self, ctx):
        return self.child.rows(ctx)


class ProjectionPlanner:
    """Mixed into the planner: `self.compiler` compiles expressions."""

    def _projection(self, p: A.Projection, op, scope: Scope, is_return: bool, where=None):
        comp = self.compiler
        items = item_names(p, visible(scope.slots))
        names = [n for n, _ in items]
        aggregating = any(aggregates_in(e) for _, e in items)
        tail_done = False
        if aggregating:
            op = self._aggregate(items, op, scope)
            new_scope = Scope({n: i for i, n in enumerate(names)})
            if p.distinct:
                op = O.Distinct(op)
            late = new_scope
        elif p.distinct:
            fns = [comp.compile(e, scope) for _, e in items]
            op = O.Narrow(O.Extend(op, fns), list(range(len(scope), len(scope) + len(fns))))
            op.child.shown = False
            new_scope = Scope({n: i for i, n in enumerate(names)})
            op = O.Distinct(op)
            late = new_scope
        else:
            fns = [comp.compile(e, scope) for _, e in items]
            wide = Scope(scope.slots)
            base = len(scope)
            for k, (n, _) in enumerate(items):
                wide.slots[n] = base + k
            # a column reusing an old name shadows it here; the old value keeps its slot
            op = O.Extend(op, fns)
            op.shown = False
            op = self._order_limit_where(op, p, items, wide, where, aggregating=False)
            tail_done = True
            op = O.Narrow(op, [base + k for k in range(len(items))])
            new_scope = Scope({n: i for i, n in enumerate(names)})
        if not tail_done:
            op = self._order_limit_where(op, p, items, late, where, aggregating)
        return self._finish_projection(op, p, names, new_scope, is_return)

    def _order_limit_where(self, op, p, items, scope, where, aggregating):
        comp = self.compiler
        if p.order:
            keys = []
            for s in p.order:
                e = s.expr
                e = aggregate_rewrite(e, items) if aggregating and aggregates_in(e) else projected_rewrite(e, items)
                keys.append((comp.compile(e, scope), s.descending))
            op = O.Sort(op, keys)
        if p.skip is not None:
            op = O.Skip(op, comp.compile(p.skip, Scope()))
        if p.limit is not None:
            op = O.Limit(op, comp.compile(p.limit, Scope()))
            op.drain = self.writes
        if where is not None:
            op = O.Filter(op, comp.compile(projected_rewrite(where, items), scope), "")
            op.shown = False
        return op

    def _finish_projection(self, op, p, names, new_scope, is_return):
        details = f"{len(names)} item(s)"
        if p.distinct:
            details += ", distinct"
        if p.order:
            details += ", ordered"
        if p.skip is not None:
            details += ", skipped"
        if p.limit is not None:
            details += ", limited"
        if is_return:
            op = O.ProduceResults(op)
            op.details = details
            return op, new_scope, tuple(names)
        return Shown(op, "Projection", details), new_scope, tuple(names)

    def _aggregate(self, items, op, scope: Scope):
        """Group by the non-aggregating items, fold the aggregates, then compute each item from
        the keys and aggregate values; rows come out in item order."""
        comp = self.compiler
        key_fns = []
        key_of: dict = {}   # structural form of a simple key expression -> key index
        aggs: list[AggSpec] = []
        calls: list = []  # the aggregate calls as written, in the order of `aggs`
        post = []
        for name, expr in items:
            if not aggregates_in(expr):
                key_fns.append(comp.compile(expr, scope))
                if is_simple_key(expr):
                    key_of.setdefault(key(expr), len(key_fns) - 1)
                post.append(("key", len(key_fns) - 1))
            else:
                post.append(("expr", self._extract_aggs(expr, scope, aggs, calls)))
        agg = O.Aggregate(op, key_fns, aggs)
        agg.details = ", ".join(n for n, _ in items)
        agg.scan, shown = self._grouped_count(op, [e for _, e in items if not aggregates_in(e)], aggs, calls,
                                              key_fns)
        agg.details += shown
        inner = Scope()
        for k in range(len(key_fns)):
            inner.slots[f" key{k}"] = k
        for k in range(len(aggs)):
            inner.slots[f" agg{k}"] = len(key_fns) + k

        to_key = grouping_key_swap(key_of)
        fns = []
        for kind, val in post:
            if kind == "key":
                fns.append(lambda row, ctx, i=val: row[i])
            else:
                fns.append(comp.compile(replace(val, to_key), inner))
        ext = O.Extend(agg, fns)
        width = len(key_fns) + len(aggs)
        out = O.Narrow(ext, list(range(width, width + len(fns))))
        out.child.shown = False
        return out

    def _grouped_count(self, op, keys, aggs, calls, key_fns):
        """What stands in for the Aggregate's loop when the rules say the match's nodes, trails or
        distinct ends are only counted (`rules/grouped_count.py`, `count_trails.py`,
        `distinct_ends.py`), or None; and the words it adds to the details."""
        match, optional, filtered = None, False, False
        if isinstance(op, O.Match):
            optional, filtered = op.optional, op.predicate is not None
            if len(op.parts) == 1:
                match = op.parts[0].spec  # None for a shortest path
        arguments = tuple(None if isinstance(c, A.CountStar) else (c.args[0] if c.args else None) for c in calls)
        spec = self._optimize(CountSpec(match, optional, filtered, tuple(keys), tuple(a.name for a in aggs),
                                        arguments=arguments, distinct=tuple(a.distinct for a in aggs)))
        if spec.counting is Counting.ROWS:
            return None, ""
        if spec.counting in (Counting.TRAILS, Counting.ENDS):
            part = op.parts[0]
            flt = self._end_filter(spec, part.scope)
            if spec.counting is Counting.TRAILS:
                op.name = "VarLengthExpand(Count)"
                return CountTrails(op.child, part, len(aggs), flt, len(part.scope), tuple(key_fns)), count_text(spec)
            op.name = "Expand(DistinctEnds)"
            return DistinctEnds(op.child, part, flt), count_text(spec)
        label = spec.match.whole_label if spec.counting is Counting.COLUMNS else None
        return GroupedCount(op.child, op.parts[0], spec.key_names, len(aggs), label), count_text(spec)

    def _end_filter(self, spec: CountSpec, scope: Scope) -> SF.ScanFilter | None:
        """The WHERE left after the match, all simple tests on the walk's end (the rules checked),
        as one scan filter over end nodes."""
        m = spec.match
        if not spec.filtered:
            return None
        end = m.names[-1] if m.anchor == 0 else m.names[0]
        tests = []
        for c in m.where:
            key, op, value = match_conjunct(c, end, m.outer)
            tests.append(SF.Test(key, op, None if value is None else self.compiler.compile(value, scope)))
        return SF.ScanFilter(tests)

    def _extract_aggs(self, e, scope, aggs, calls):
        """`e` with each aggregate call replaced by a variable reading its slot."""
        comp = self.compiler

        def swap(n):
            if not is_aggregate(n):
                return None
            calls.append(n)
            if isinstance(n, A.CountStar):
                aggs.append(AggSpec("count*", None, False))
            else:
                arg = comp.compile(n.args[0], scope) if n.args else None
                extra = comp.compile(n.args[1], scope) if len(n.args) > 1 else None
                aggs.append(AggSpec(n.name.lower(), arg, n.distinct, extra))
            return A.Variable(f" agg{len(aggs) - 1}")
        return replace(e, swap)
