"""Where a pattern may stand as an expression: only as a predicate.

`MATCH (n) WHERE (n)-->() RETURN n` asks a yes/no question, so does `exists((n)-->())` and a
pattern under NOT/AND/OR/XOR, a CASE condition or a comprehension's WHERE.  A bare pattern used as
a value (`RETURN (n)-->()`, `SET n.p = head((n)-->())`) is refused as `UnexpectedSyntax`; a
pattern comprehension `[(n)-->(m) | m]` is the way to get values from a pattern.
"""
from __future__ import annotations

from ..syntax import ast as A

_BOOLEAN_OPS = (A.BinOp.AND, A.BinOp.OR, A.BinOp.XOR)


def check_pattern_positions(e, predicate_root: bool, fail) -> None:
    """Walk `e` (explicit stack); `fail(kind, detail, pos)` on a pattern used as a value."""
    stack = [(e, predicate_root)]
    while stack:
        n, ok = stack.pop()
        if isinstance(n, A.PatternPredicate):
            if not ok:
                fail("UnexpectedSyntax",
                     "A pattern expression can only be used as a predicate (use a pattern "
                     "comprehension or EXISTS to get values from it)", n.pos)
            continue
        if isinstance(n, tuple):
            stack.extend((x, ok) for x in n)
            continue
        if not isinstance(n, A.Node):
            continue
        if isinstance(n, (*A.SUBQUERY_EXPRS, A.PatternComprehension)):
            continue
        if isinstance(n, A.FunctionCall):
            inner = n.name.lower() == "exists"
            stack.extend((a, inner) for a in n.args)
            continue
        if isinstance(n, A.Unary) and n.op is A.UnOp.NOT:
            stack.append((n.operand, True))
            continue
        if isinstance(n, A.Binary) and n.op in _BOOLEAN_OPS:
            stack.append((n.left, True))
            stack.append((n.right, True))
            continue
        if isinstance(n, A.CaseWhen):
            stack.append((n.when, True))
            stack.append((n.then, False))
            continue
        if isinstance(n, (A.ListComprehension, A.Quantifier)):
            stack.append((n.source, False))
            if n.predicate is not None:
                stack.append((n.predicate, True))
            proj = getattr(n, "projection", None)
            if proj is not None:
                stack.append((proj, False))
            continue
        for s in n.__slots__:
            stack.append((getattr(n, s), False))
