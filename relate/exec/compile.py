"""Expression AST -> Python closure `f(row, ctx) -> value`, built once per plan.

`row` is the slot tuple of the operator the expression runs in; `Scope` maps each visible variable
to its slot.  No AST is walked per row: every branch below returns a closure that only calls other
closures.  Aggregate calls never reach here; the planner replaces them with slots first.

Only expressions that passed the checking stage reach the compiler (`semantic/expr_order.py`
refused unbound names, unknown functions, wrong arities and operands whose static type can never
fit); what only the values can decide is checked by the closures at run time.  A guard here that
fires is an `InternalError`.
"""
from __future__ import annotations

from operator import itemgetter

from ..errors import E, InternalError
from ..syntax import ast as A
from ..values import Node, Relationship, type_name
from . import arith
from ..values.compare import equals
from ..values.depth import check_member, check_members
from .functions import lookup, lookup_within
from .operand_ops import (cmp_fn as _cmp_fn, concat as _concat, deleted as _deleted, in_list as _in, prop as _prop,
                          regex as _regex, string_pred as _string_pred, subscript as _subscript, truth as _truth)
from .load_csv import FUNCTIONS as CSV_FUNCTIONS, csv_function
from .scope import Scope  # noqa: F401  (planner and matcher import Scope from here)

AGGREGATES = {"count", "sum", "avg", "min", "max", "collect", "stdev", "stdevp",
              "percentiledisc", "percentilecont"}


_NESTING = frozenset((list, dict))  # the member kinds a built map's depth check looks into


def _internal(what: str) -> InternalError:
    return E.Internal.Internal("expression compiler: " + what)


_ARITH = {A.BinOp.ADD: arith.add, A.BinOp.SUB: arith.sub, A.BinOp.MUL: arith.mul,
          A.BinOp.DIV: arith.div, A.BinOp.MOD: arith.mod, A.BinOp.POW: arith.power}


class Compiler:
    """Compiles expressions of one plan.  `pattern_hook(element, scope)` builds the closure for a
    pattern predicate (given by the planner, which owns pattern matching)."""

    def __init__(self, pattern_hook=None, subquery_hook=None) -> None:
        self.pattern_hook = pattern_hook
        self.subquery_hook = subquery_hook

    def compile(self, e: A.Expr, scope: Scope):
        method = getattr(self, "_" + type(e).__name__)
        return method(e, scope)

    # leaves
    def _Literal(self, e, scope):
        v = e.value
        if isinstance(v, (list, dict)):
            return lambda row, ctx: v.copy()
        return lambda row, ctx: v

    def _Parameter(self, e, scope):
        name = e.name
        return lambda row, ctx: ctx.params[name]

    def _Variable(self, e, scope):
        if not scope.has(e.name):
            raise _internal(f"`{e.name}` is not bound")
        i = scope.slot(e.name)
        f = lambda row, ctx: row[i]  # noqa: E731
        f.slot = i  # type: ignore[attr-defined]  # what a fused pipeline reads inline
        return f

    def _Property(self, e, scope):
        subj = self.compile(e.subject, scope)
        key = e.key
        if isinstance(e.subject, A.Variable):
            i = scope.slot(e.subject.name)

            def fast(row, ctx):
                s = row[i]
                t = type(s)
                if t is Node or t is Relationship:
                    if s.deleted:
                        _deleted(s, key)
                    return s.props.get(key)
                if t is dict:
                    return s.get(key)
                return _prop(s, key)
            fast.slot_key = (i, key)  # type: ignore[attr-defined]  # what a fused pipeline reads inline
            return fast
        return lambda row, ctx: _prop(subj(row, ctx), key)

    def _Subscript(self, e, scope):
        s, i = self.compile(e.subject, scope), self.compile(e.index, scope)
        return lambda row, ctx: _subscript(s(row, ctx), i(row, ctx))

    def _Slice(self, e, scope):
        s = self.compile(e.subject, scope)
        lo = self.compile(e.start, scope) if e.start is not None else None
        hi = self.compile(e.end, scope) if e.end is not None else None

        def f(row, ctx):
            v = s(row, ctx)
            a = lo(row, ctx) if lo else 0
            b = hi(row, ctx) if hi else None
            if v is None or (lo and a is None) or (hi and b is None):
                return None
            if not isinstance(v, list):
                raise E.Type.InvalidArgumentType(f"cannot slice {type_name(v)}")
            for bound in (a, b):
                if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
                    raise E.Type.InvalidArgumentType(f"a slice bound must be an integer, got {type_name(bound)}")
            return v[a:b]
        return f

    def _Binary(self, e, scope):
        lhs, r = self.compile(e.left, scope), self.compile(e.right, scope)
        op = e.op
        if op is A.BinOp.AND:
            def f_and(row, ctx):
                a = _truth(lhs(row, ctx), "AND")
                if a is False:
                    return False
                b = _truth(r(row, ctx), "AND")
                if b is False:
                    return False
                return None if a is None or b is None else True
            return f_and
        if op is A.BinOp.OR:
            def f_or(row, ctx):
                a = _truth(lhs(row, ctx), "OR")
                if a is True:
                    return True
                b = _truth(r(row, ctx), "OR")
                if b is True:
                    return True
                return None if a is None or b is None else False
            return f_or
        if op is A.BinOp.XOR:
            def f_xor(row, ctx):
                a, b = _truth(lhs(row, ctx), "XOR"), _truth(r(row, ctx), "XOR")
                return None if a is None or b is None else a != b
            return f_xor
        if op is A.BinOp.ADD:
            add, add_within = arith.add, arith.add_within

            def f_add(row, ctx):
                if ctx.memory is None:
                    return add(lhs(row, ctx), r(row, ctx))
                return add_within(lhs(row, ctx), r(row, ctx), ctx.memory)
            return f_add
        if op in _ARITH:
            fn = _ARITH[op]
            return lambda row, ctx: fn(lhs(row, ctx), r(row, ctx))
        if op is A.BinOp.IN:
            return lambda row, ctx: _in(lhs(row, ctx), r(row, ctx))
        if op in (A.BinOp.STARTS_WITH, A.BinOp.ENDS_WITH, A.BinOp.CONTAINS):
            fn = _string_pred(op)
            return lambda row, ctx: fn(lhs(row, ctx), r(row, ctx))
        if op is A.BinOp.REGEX:
            return lambda row, ctx: _regex(lhs(row, ctx), r(row, ctx))
        if op is A.BinOp.CONCAT:
            add_within = arith.add_within

            def f_concat(row, ctx):
                a, b = lhs(row, ctx), r(row, ctx)
                if ctx.memory is not None and type(a) is type(b) and (type(a) is str or type(a) is list):
                    return add_within(a, b, ctx.memory)  # the same join as `+`, measured first
                return _concat(a, b)
            return f_concat
        fn = _cmp_fn(op)
        return lambda row, ctx: fn(lhs(row, ctx), r(row, ctx))

    def _Comparison(self, e, scope):
        parts = [self.compile(x, scope) for x in e.operands]
        fns = [_cmp_fn(op) for op in e.ops]

        def f(row, ctx):
            vals = [p(row, ctx) for p in parts]
            out = True
            for k, fn in enumerate(fns):
                r = fn(vals[k], vals[k + 1])
                if r is False:
                    return False
                if r is None:
                    out = None
            return out
        return f

    def _Unary(self, e, scope):
        x = self.compile(e.operand, scope)
        op = e.op
        if op is A.UnOp.NOT:
            def f_not(row, ctx):
                v = _truth(x(row, ctx), "NOT")
                return None if v is None else not v
            return f_not
        if op is A.UnOp.NEG:
            return lambda row, ctx: arith.neg(x(row, ctx))
        if op is A.UnOp.POS:
            return x
        if op is A.UnOp.IS_NULL:
            return lambda row, ctx: x(row, ctx) is None
        return lambda row, ctx: x(row, ctx) is not None

    def _LabelTest(self, e, scope):
        x = self.compile(e.subject, scope)
        if e.expr is not None:
            from .labels import expression_test
            return expression_test(x, e.expr, lambda sub: self.compile(sub, scope))
        labels = e.labels

        def f(row, ctx):
            v = x(row, ctx)
            if v is None:
                return None
            if isinstance(v, Node):
                return all(lb in v.labels for lb in labels)
            if isinstance(v, Relationship):
                return all(lb == v.type for lb in labels)
            raise E.Type.InvalidArgumentType(f"cannot test labels of {type_name(v)}")
        return f

    def _TypePredicate(self, e, scope):
        from ..values.cypher_types import conforms
        x = self.compile(e.subject, scope)
        t, negated = e.type, e.negated
        return lambda row, ctx: conforms(x(row, ctx), t) is not negated

    def _NormalizedTest(self, e, scope):
        from .functions.strings import is_normalized
        x = self.compile(e.subject, scope)
        form, negated = e.form, e.negated

        def f(row, ctx):
            v = is_normalized(x(row, ctx), form)
            return None if v is None else v is not negated
        return f

    def _ListLiteral(self, e, scope):
        items = [self.compile(x, scope) for x in e.items]

        def f(row, ctx):
            v = [i(row, ctx) for i in items]
            for m in v:
                if type(m) is list or type(m) is dict:  # only a member that nests can pass the bound
                    check_members(v, v, ctx.depths)
                    break
            return v
        return f

    def _MapLiteral(self, e, scope):
        entries = [(k, self.compile(v, scope)) for k, v in e.entries]

        def generic(row, ctx):
            v = {k: f(row, ctx) for k, f in entries}
            for m in v.values():
                if type(m) is list or type(m) is dict:  # only a member that nests can pass the bound
                    check_members(v, v.values(), ctx.depths)
                    break
            return v
        if len(e.entries) >= 2 and all(type(v) is A.Parameter for _, v in e.entries):
            # `{id: $id, name: $name, ...}` (a one-row CREATE): the values taken in one pass in C
            keys = tuple(k for k, _ in e.entries)
            take = itemgetter(*(v.name for _, v in e.entries))

            def from_params(row, ctx):
                v = dict(zip(keys, take(ctx.params)))
                if not _NESTING.isdisjoint(map(type, v.values())):  # only a member that nests can pass the bound
                    check_members(v, v.values(), ctx.depths)
                return v
            return from_params
        subjects = {v.subject.name for _, v in e.entries
                    if isinstance(v, A.Property) and isinstance(v.subject, A.Variable)}
        if len(subjects) != 1 or len(e.entries) < 2 or not all(isinstance(v, A.Property) for _, v in e.entries):
            return generic
        # `{id: r.id, name: r.name, ...}` over one map or entity (an UNWIND row, most often):
        # the values are read in one pass in C instead of one closure call each
        i = scope.slot(subjects.pop())
        keys = tuple(k for k, _ in e.entries)
        props = tuple(v.key for _, v in e.entries)

        def same_subject(row, ctx):
            s = row[i]
            t = type(s)
            if t is dict:
                v = dict(zip(keys, map(s.get, props)))
                for m in v.values():
                    if type(m) is list or type(m) is dict:
                        check_members(v, v.values(), ctx.depths)
                        break
                return v
            if (t is Node or t is Relationship) and not s.deleted:
                return dict(zip(keys, map(s.props.get, props)))
            return generic(row, ctx)
        return same_subject

    def _FunctionCall(self, e, scope):
        name = e.name.lower()
        if name in AGGREGATES:
            raise _internal(f"aggregate {e.name}() outside an aggregation")
        if name == "exists":
            arg = e.args[0]
            if not isinstance(arg, (A.Property, A.PatternPredicate)):
                raise _internal("exists() of something else than a property or a pattern")
            x = self.compile(arg, scope)
            if isinstance(arg, A.PatternPredicate):
                return x
            return lambda row, ctx: x(row, ctx) is not None
        if name in CSV_FUNCTIONS and not e.args:
            return csv_function(name, scope)  # linenumber(), file(): the latest LOAD CSV's hidden slots
        entry = lookup(name)
        if entry is None:
            raise _internal(f"unknown function {e.name}()")
        fn, lo, hi = entry
        if not lo <= len(e.args) <= hi:
            raise _internal(f"{e.name}() with {len(e.args)} argument(s)")
        args = [self.compile(a, scope) for a in e.args]
        within = lookup_within(name)
        if within is not None:
            # a function whose result can outgrow its arguments asks the run's budget first
            def sized(row, ctx):
                vals = [a(row, ctx) for a in args]
                return fn(*vals) if ctx.memory is None else within(ctx.memory, *vals)
            return sized
        if len(args) == 1:
            a0 = args[0]
            return lambda row, ctx: fn(a0(row, ctx))
        return lambda row, ctx: fn(*[a(row, ctx) for a in args])

    def _CountStar(self, e, scope):
        raise _internal("count(*) outside an aggregation")

    def _Case(self, e, scope):
        subject = self.compile(e.subject, scope) if e.subject is not None else None
        whens = [(self.compile(w.when, scope), self.compile(w.then, scope)) for w in e.whens]
        default = self.compile(e.default, scope) if e.default is not None else (lambda row, ctx: None)
        if subject is not None:
            def f_simple(row, ctx):
                v = subject(row, ctx)
                for w, t in whens:
                    if equals(v, w(row, ctx)) is True:
                        return t(row, ctx)
                return default(row, ctx)
            return f_simple

        def f_generic(row, ctx):
            for w, t in whens:
                if w(row, ctx) is True:
                    return t(row, ctx)
            return default(row, ctx)
        return f_generic

    @staticmethod
    def _iter_scope(scope, var, source):
        return scope.extended(var)

    def _ListComprehension(self, e, scope):
        src = self.compile(e.source, scope)
        inner, slot = self._iter_scope(scope, e.variable, e.source)
        pred = self.compile(e.predicate, inner) if e.predicate is not None else None
        proj = self.compile(e.projection, inner) if e.projection is not None else None

        def f(row, ctx):
            lst = src(row, ctx)
            if lst is None:
                return None
            if not isinstance(lst, list):
                raise E.Type.InvalidArgumentType(f"expected a list, got {type_name(lst)}")
            out = []
            base = tuple(row) + (None,) * (slot + 1 - len(row))
            budget = ctx.memory
            if budget is not None and proj is not None:
                return _comprehension_within(budget, lst, base, slot, pred, proj, ctx)
            for x in lst:
                r = base[:slot] + (x,) + base[slot + 1:]
                if pred is not None and pred(r, ctx) is not True:
                    continue
                if proj is None:
                    out.append(x)  # a filter: as deep as its source
                    continue
                v = proj(r, ctx)
                if type(v) is list or type(v) is dict:
                    check_member(v, ctx.depths)
                out.append(v)
            return out
        return f

    def _Reduce(self, e, scope):
        init = self.compile(e.init, scope)
        src = self.compile(e.source, scope)
        with_acc, acc_slot = scope.extended(e.accumulator)  # its type changes as it folds: ANY
        inner, var_slot = self._iter_scope(with_acc, e.variable, e.source)
        body = self.compile(e.expression, inner)
        width = max(acc_slot, var_slot) + 1

        def f(row, ctx):
            lst = src(row, ctx)
            acc = init(row, ctx)
            if lst is None:
                return None
            if not isinstance(lst, list):
                raise E.Type.InvalidArgumentType(f"reduce() expected a list, got {type_name(lst)}")
            slots = list(row) + [None] * (width - len(row))
            budget = ctx.memory
            if budget is not None:
                return _reduce_within(budget, acc, lst, slots, acc_slot, var_slot, body, ctx)
            for x in lst:
                slots[acc_slot] = acc
                slots[var_slot] = x
                acc = body(tuple(slots), ctx)
            return acc
        return f

    def _Quantifier(self, e, scope):
        src = self.compile(e.source, scope)
        inner, slot = self._iter_scope(scope, e.variable, e.source)
        pred = self.compile(e.predicate, inner) if e.predicate is not None else (lambda r, c: True)
        kind = e.kind

        def f(row, ctx):
            lst = src(row, ctx)
            if lst is None:
                return None
            if not isinstance(lst, list):  # an aggregate's value has no static type to check
                raise E.Type.InvalidArgumentType(f"expected a list, got {type_name(lst)}")
            base = tuple(row) + (None,) * (slot + 1 - len(row))
            trues = unknown = 0
            for x in lst:
                v = pred(base[:slot] + (x,) + base[slot + 1:], ctx)
                if v is True:
                    trues += 1
                elif v is None:
                    unknown += 1
            n = len(lst)
            if kind is A.QuantifierKind.ALL:
                return False if trues + unknown < n else (None if unknown else True)
            if kind is A.QuantifierKind.ANY:
                return True if trues else (None if unknown else False)
            if kind is A.QuantifierKind.NONE:
                return False if trues else (None if unknown else True)
            if trues > 1:
                return False
            return None if unknown else trues == 1
        return f

    def _PatternPredicate(self, e, scope):
        if self.pattern_hook is None:
            raise _internal("a pattern expression without a planner")
        return self.pattern_hook(e, scope)

    def _PatternComprehension(self, e, scope):
        if self.pattern_hook is None:
            raise _internal("a pattern comprehension without a planner")
        return self.pattern_hook(e, scope)

    def _ExistsSubquery(self, e, scope):
        if self.subquery_hook is None:
            raise _internal("a subquery without a planner")
        return self.subquery_hook(e, scope)

    _CountSubquery = _CollectSubquery = _ExistsSubquery

    def _MapProjection(self, e, scope):
        subj = self.compile(e.subject, scope)
        parts = []
        for it in e.items:
            if it.kind is A.MapProjKind.LITERAL or it.kind is A.MapProjKind.VARIABLE:
                parts.append((it.kind, it.key, self.compile(it.value, scope)))
            else:
                parts.append((it.kind, it.key, None))

        def f(row, ctx):
            s = subj(row, ctx)
            if s is None:
                return None
            if isinstance(s, (Node, Relationship)):
                if s.deleted:
                    _deleted(s, None)
                props = s.props
            else:
                props = s
            if not isinstance(props, dict):
                raise E.Type.InvalidArgumentType(f"cannot project {type_name(s)}")
            out = {}
            for kind, key, fn in parts:
                if kind is A.MapProjKind.ALL:
                    out.update(props)
                elif kind is A.MapProjKind.PROPERTY:
                    out[key] = props.get(key)
                else:
                    v = fn(row, ctx)
                    if type(v) is list or type(v) is dict:
                        check_member(v, ctx.depths)
                    out[key] = v
            return out
        return f


def _comprehension_within(budget, lst, base, slot, pred, proj, ctx) -> list:
    """A projecting list comprehension under a memory limit: measured member by member."""
    out = []
    total = 0
    for x in lst:
        r = base[:slot] + (x,) + base[slot + 1:]
        if pred is not None and pred(r, ctx) is not True:
            continue
        v = proj(r, ctx)
        if type(v) is list or type(v) is dict:
            check_member(v, ctx.depths)
        total = budget.count(total, v)
        out.append(v)
    return budget.built(out, total)


def _reduce_within(budget, acc, lst, slots, acc_slot, var_slot, body, ctx):
    """reduce() under a memory limit: the accumulator is measured after every step."""
    outer, outer_size = budget.acc, budget.acc_size  # an enclosing reduce()'s accumulator
    budget.hold(acc)
    for x in lst:
        slots[acc_slot] = acc
        slots[var_slot] = x
        acc = body(tuple(slots), ctx)
        budget.hold(acc)
    budget.acc, budget.acc_size = outer, outer_size
    return acc


def free_variables(e: A.Node) -> set[str]:
    """Names an expression reads (over-approximate: ignores comprehension shadowing)."""
    out: set[str] = set()
    stack: list = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Variable):
            out.add(n.name)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, A.Node):
            for s in n.__slots__:
                stack.append(getattr(n, s))
    return out


def contains_aggregate(e: A.Node) -> bool:
    stack: list = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, A.CountStar):
            return True
        if isinstance(n, A.FunctionCall) and n.name.lower() in AGGREGATES:
            return True
        if isinstance(n, (*A.SUBQUERY_EXPRS, A.PatternComprehension)):
            continue
        if isinstance(n, (A.ListComprehension, A.Quantifier, A.Reduce)):
            # an aggregate may produce the list, but not run once per element: one inside the
            # body is refused when the body is compiled
            stack.append(n.source)
            if isinstance(n, A.Reduce):
                stack.append(n.init)
            continue
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, A.Node):
            for s in n.__slots__:
                stack.append(getattr(n, s))
    return False
