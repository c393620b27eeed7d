"""Small tools over the typed syntax tree shared by the semantic checks and the planner.

- `key(e)`: a structural identity of an expression that ignores source positions, so that
  `n.name` in `RETURN n.name ORDER BY n.name` is recognised as the same expression twice.
- `replace(e, fn)`: a copy of `e` where every subtree for which `fn` answers a node is swapped
  for that node (top-down: a replaced subtree is not entered).
- `conjuncts(e)`: the operands of a chain of ANDs, left to right (WHERE push-down, checks).
- `aggregates_in(e)`: the aggregate calls of an expression that belong to it (not those inside a
  nested subquery or pattern comprehension, which aggregate on their own).
"""
from __future__ import annotations

from ..syntax import ast as A

AGGREGATES = frozenset({"count", "sum", "avg", "min", "max", "collect", "stdev", "stdevp",
                        "percentiledisc", "percentilecont"})


def is_aggregate(e) -> bool:
    return isinstance(e, A.CountStar) or (isinstance(e, A.FunctionCall) and e.name.lower() in AGGREGATES)


def key(e):
    """A hashable structural form of a syntax subtree, positions left out."""
    if isinstance(e, A.Node):
        return (type(e).__name__,) + tuple(key(getattr(e, s)) for s in e.__slots__ if s != "pos")
    if isinstance(e, (list, tuple)):
        return tuple(key(x) for x in e)
    if isinstance(e, float) and e != e:
        return ("nan",)
    if isinstance(e, (bool, int, float)):
        return (type(e).__name__, e)
    if isinstance(e, (dict,)):
        return ("dict",) + tuple((k, key(v)) for k, v in e.items())
    if isinstance(e, list):
        return ("list",) + tuple(key(x) for x in e)
    return e


def _rebuild(value, fn):
    if isinstance(value, A.Node):
        return replace(value, fn)
    if isinstance(value, tuple):
        return tuple(_rebuild(x, fn) for x in value)
    return value


def replace(e, fn):
    """`e` with subtrees swapped where `fn(subtree)` returns a replacement (None: keep, descend)."""
    got = fn(e)
    if got is not None:
        return got
    if not isinstance(e, A.Node) or isinstance(e, (A.Literal, A.Parameter, A.Variable)):
        return e
    changed = False
    values = {}
    for s in e.__slots__:
        v = getattr(e, s)
        nv = _rebuild(v, fn)
        values[s] = nv
        changed = changed or nv is not v
    return type(e)(**values) if changed else e


def aggregates_in(e) -> list:
    """Aggregate calls owned by `e`, outermost first."""
    out = []
    stack = [e]
    while stack:
        n = stack.pop()
        if is_aggregate(n):
            out.append(n)
            continue
        if isinstance(n, (*A.SUBQUERY_EXPRS, A.PatternComprehension)):
            continue
        if isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
        elif isinstance(n, A.Node):
            for s in reversed(n.__slots__):
                stack.append(getattr(n, s))
    return out


def variables_in(e) -> list:
    """`Variable` nodes read by `e` outside aggregate calls, ignoring names a comprehension
    or quantifier binds itself."""
    out = []
    stack = [(e, frozenset())]
    while stack:
        n, bound = stack.pop()
        if isinstance(n, A.Variable):
            if n.name not in bound:
                out.append(n)
            continue
        if is_aggregate(n):
            continue
        if isinstance(n, (A.ListComprehension, A.Quantifier)):
            stack.append((n.source, bound))
            inner = bound | {n.variable}
            for s in ("predicate", "projection"):
                sub = getattr(n, s, None)
                if sub is not None:
                    stack.append((sub, inner))
            continue
        if isinstance(n, A.Reduce):
            stack.append((n.init, bound))
            stack.append((n.source, bound))
            stack.append((n.expression, bound | {n.accumulator, n.variable}))
            continue
        if isinstance(n, (*A.SUBQUERY_EXPRS, A.PatternComprehension,
                          A.PatternPredicate)):
            for v in pattern_variables_read(n):
                if v.name not in bound:
                    out.append(v)
            continue
        if isinstance(n, (list, tuple)):
            stack.extend((x, bound) for x in n)
        elif isinstance(n, A.Node):
            for s in n.__slots__:
                stack.append((getattr(n, s), bound))
    return out


def pattern_variables_read(n) -> list:
    """Variables of an enclosing scope a pattern expression or subquery may read: here, the
    named elements of its pattern (the caller decides which of them are bound)."""
    out = []
    elements = []
    if isinstance(n, (A.PatternPredicate, A.PatternComprehension)):
        elements.append(n.element)
    elif isinstance(n, (A.ExistsSubquery, A.CountSubquery)) and n.pattern is not None:
        elements.extend(p.element for p in n.pattern.parts)
    for el in elements:
        for node in el.nodes:
            if node.variable:
                out.append(A.Variable(node.variable, node.pos))
        for rel in el.rels:
            if rel.variable:
                out.append(A.Variable(rel.variable, rel.pos))
    return out


def conjuncts(e: A.Expr) -> list[A.Expr]:
    """`a AND b AND c` -> [a, b, c], left to right."""
    out, stack = [], [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.Binary) and x.op is A.BinOp.AND:
            stack.append(x.right)
            stack.append(x.left)
        else:
            out.append(x)
    return out
