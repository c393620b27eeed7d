"""A WHERE expression -> its conjuncts, and which of them are simple property tests.

A *simple test* is `var.key OP value` (OP one of = <> < <= > >=, either way round) or
`var.key IS [NOT] NULL`, where `value` cannot depend on the node `var` names: a scalar literal, a
parameter, a variable bound before the pattern part, or a property of one.  The access-path rules
(`rules/`) read these to push a conjunct into a scan or answer it from an index; the rest of the
WHERE stays a filter after the match.  An index also answers three more shapes: bounds
(`var.key > low`, a chain `low < var.key <= high`), `var.key STARTS WITH value` and
`var.key IN list` (`match_bounds`, `match_prefix`, `match_in`).
"""
from __future__ import annotations

from ..exec.scan_filter import Op
from ..semantic.astwalk import conjuncts as conjuncts  # re-exported: the planner reads it here
from ..syntax import ast as A

_FROM_BINOP = {A.BinOp.EQ: Op.EQ, A.BinOp.NE: Op.NE, A.BinOp.LT: Op.LT, A.BinOp.LE: Op.LE,
               A.BinOp.GT: Op.GT, A.BinOp.GE: Op.GE}
# `value OP var.key` read the other way round
_MIRROR = {Op.EQ: Op.EQ, Op.NE: Op.NE, Op.LT: Op.GT, Op.LE: Op.GE, Op.GT: Op.LT, Op.GE: Op.LE}
_ORDERING = frozenset((Op.LT, Op.LE, Op.GT, Op.GE))


def join_and(parts: list[A.Expr]) -> A.Expr | None:
    if not parts:
        return None
    e = parts[0]
    for p in parts[1:]:
        e = A.Binary(A.BinOp.AND, e, p, getattr(e, "pos", 0))
    return e


def is_stable(e: A.Expr, outer: frozenset[str]) -> bool:
    """Whether `e` is a value fixed for the whole scan (never reads the scanned node)."""
    if isinstance(e, A.Literal):
        return not isinstance(e.value, (list, dict))
    if isinstance(e, A.Parameter):
        return True
    if isinstance(e, A.Variable):
        return e.name in outer
    if isinstance(e, A.Property):
        return isinstance(e.subject, A.Variable) and e.subject.name in outer
    return False


def _own_key(e: A.Expr, var: str) -> str | None:
    if isinstance(e, A.Property) and isinstance(e.subject, A.Variable) and e.subject.name == var:
        return e.key
    return None


def match_conjunct(e: A.Expr, var: str, outer: frozenset[str]):
    """A WHERE conjunct -> (key, op, value expression or None) when it is a simple test on `var`."""
    if isinstance(e, A.Binary) and e.op in _FROM_BINOP:
        op = _FROM_BINOP[e.op]
        key = _own_key(e.left, var)
        if key is not None and is_stable(e.right, outer):
            return key, op, e.right
        key = _own_key(e.right, var)
        if key is not None and is_stable(e.left, outer):
            return key, _MIRROR[op], e.left
        return None
    if isinstance(e, A.Unary) and e.op in (A.UnOp.IS_NULL, A.UnOp.IS_NOT_NULL):
        key = _own_key(e.operand, var)
        if key is not None:
            return key, Op.NULL if e.op is A.UnOp.IS_NULL else Op.NOT_NULL, None
    return None


def match_bounds(e: A.Expr, var: str, outer: frozenset[str]):
    """A conjunct that only bounds `var.key` from below and/or above -> (key, ((op, value), ...)),
    for a range seek: `var.key < value` (either way round) or a chain `low < var.key <= high`."""
    if isinstance(e, A.Binary):
        m = match_conjunct(e, var, outer)
        if m is not None and m[1] in _ORDERING:
            return m[0], ((m[1], m[2]),)
        return None
    if isinstance(e, A.Comparison) and len(e.operands) == 3 and all(_FROM_BINOP.get(o) in _ORDERING for o in e.ops):
        low, mid, high = e.operands
        key = _own_key(mid, var)
        if key is None or not is_stable(low, outer) or not is_stable(high, outer):
            return None
        return key, ((_MIRROR[_FROM_BINOP[e.ops[0]]], low), (_FROM_BINOP[e.ops[1]], high))
    return None


def match_prefix(e: A.Expr, var: str, outer: frozenset[str]):
    """`var.key STARTS WITH value` -> (key, value expression) or None."""
    if isinstance(e, A.Binary) and e.op is A.BinOp.STARTS_WITH:
        key = _own_key(e.left, var)
        if key is not None and is_stable(e.right, outer):
            return key, e.right
    return None


def match_in(e: A.Expr, var: str, outer: frozenset[str]):
    """`var.key IN list` with a list fixed for the scan -> (key, list expression) or None."""
    if isinstance(e, A.Binary) and e.op is A.BinOp.IN:
        key = _own_key(e.left, var)
        if key is None:
            return None
        lst = e.right
        if (isinstance(lst, A.Literal) or is_stable(lst, outer)
                or isinstance(lst, A.ListLiteral) and all(is_stable(x, outer) for x in lst.items)):
            return key, lst
    return None
