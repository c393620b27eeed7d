"""Neo4j 5 label and relationship type expressions -> closures: the tests MATCH patterns and
`n:A|B` in expressions run (`label_test`), and the labels a dynamic `:$(expr)` names when CREATE,
MERGE, SET or REMOVE writes them (`DynamicLabels`).

A node matches `A` when it carries A, `%` when it carries any label, `!e`, `e&f`, `e|f` as logic
says; a relationship matches `R` when its type is R and `%` always.  `$(x)` (`$all(x)`) names every
label of a string or a list of strings, `$any(x)` any one of them (`$all([])` matches everything,
`$any([])` nothing); null, or anything but a string or a list of strings, is an error.
"""
from __future__ import annotations

from ..errors import E
from ..syntax import ast as A
from ..values import Node, Relationship, type_name


def dynamic_names(v, what: str = "label") -> tuple[str, ...]:
    """The value of a dynamic `$(expr)` -> the label or type names it gives."""
    if isinstance(v, str):
        return (v,)
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return tuple(v)
    got = "null" if v is None else type_name(v)
    raise E.Type.InvalidDynamicLabel(what=what, got=got)


def label_test(expr: A.LabelExpr, compile_expr, rel: bool):
    """A closure (labels or type, row, ctx) -> bool for `expr`; `compile_expr(e)` compiles the
    expressions of its dynamic parts.  For a node the first argument is its label set, for a
    relationship its type."""
    if isinstance(expr, A.LabelName):
        name = expr.name
        if rel:
            return lambda t, row, ctx: t == name
        return lambda labels, row, ctx: name in labels
    if isinstance(expr, A.LabelWildcard):
        if rel:
            return lambda t, row, ctx: True
        return lambda labels, row, ctx: bool(labels)
    if isinstance(expr, A.LabelNot):
        inner = label_test(expr.operand, compile_expr, rel)
        return lambda x, row, ctx: not inner(x, row, ctx)
    if isinstance(expr, A.LabelAnd):
        parts = [label_test(p, compile_expr, rel) for p in expr.operands]
        return lambda x, row, ctx: all(p(x, row, ctx) for p in parts)
    if isinstance(expr, A.LabelOr):
        parts = [label_test(p, compile_expr, rel) for p in expr.operands]
        return lambda x, row, ctx: any(p(x, row, ctx) for p in parts)
    if isinstance(expr, A.DynamicLabel):
        fn = compile_expr(expr.expr)
        what = "type" if rel else "label"
        if rel:
            if expr.any:
                return lambda t, row, ctx: t in dynamic_names(fn(row, ctx), what)
            return lambda t, row, ctx: all(t == x for x in dynamic_names(fn(row, ctx), what))
        if expr.any:
            return lambda labels, row, ctx: any(x in labels for x in dynamic_names(fn(row, ctx), what))
        return lambda labels, row, ctx: all(x in labels for x in dynamic_names(fn(row, ctx), what))
    raise E.Internal.Internal(f"label expression {type(expr).__name__}")


def expression_test(subject, expr: A.LabelExpr, compile_expr):
    """`subject:A|B` (and the other label expressions) in an expression -> closure (row, ctx)."""
    on_node = label_test(expr, compile_expr, False)
    on_rel = label_test(expr, compile_expr, True)

    def f(row, ctx):
        v = subject(row, ctx)
        if v is None:
            return None
        if isinstance(v, Node):
            return on_node(v.labels, row, ctx)
        if isinstance(v, Relationship):
            return on_rel(v.type, row, ctx)
        raise E.Type.InvalidArgumentType(f"cannot test labels of {type_name(v)}")
    return f


class DynamicLabels:
    """The labels CREATE/MERGE/SET/REMOVE write: the static ones, then those each `$(expr)` names."""

    __slots__ = ("static", "fns")

    def __init__(self, static: tuple[str, ...], fns: list) -> None:
        self.static = static
        self.fns = fns

    def __call__(self, row, ctx) -> tuple[str, ...]:
        out = list(self.static)
        for fn in self.fns:
            out.extend(dynamic_names(fn(row, ctx)))
        return tuple(dict.fromkeys(out))


def dynamic_type(fn):
    """A closure (row, ctx) -> the one relationship type a CREATE/MERGE `[:$(expr)]` names."""
    def type_of(row, ctx) -> str:
        names = dynamic_names(fn(row, ctx), "type")
        if len(set(names)) != 1:
            raise E.Type.InvalidDynamicLabel(f"a relationship is made with exactly one type; the dynamic type "
                                             f"gives {len(set(names))}")
        return names[0]
    return type_of


def write_labels(static: tuple[str, ...], expr: A.LabelExpr | None, compile_expr):
    """The labels a created node gets: `static` (a tuple) when there is no dynamic part, else a
    `DynamicLabels`.  `expr` is a conjunction of names and `$(...)` parts (the checks refused the rest)."""
    if expr is None:
        return static
    parts = expr.operands if isinstance(expr, A.LabelAnd) else (expr,)
    names = list(static) + [p.name for p in parts if isinstance(p, A.LabelName)]
    fns = [compile_expr(p.expr) for p in parts if isinstance(p, A.DynamicLabel)]
    if not fns:
        return tuple(names)
    return DynamicLabels(tuple(names), fns)


def dynamic_key(fn):
    """`SET n[key] = v`: a closure (row, ctx) -> the property key, which must be a string."""
    def key_of(row, ctx) -> str:
        k = fn(row, ctx)
        if not isinstance(k, str):
            raise E.Type.InvalidArgumentType(f"a dynamic property key must be a string, got "
                                             f"{'null' if k is None else type_name(k)}")
        return k
    return key_of
