"""Operands whose static type can never be acceptable (`1 AND true`, `'a' - 1`, `x.k` on an
integer, `[x IN 1 | x]`): refused before anything runs.  What only the values can decide is
checked by the compiled closures at run time."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A
from ...syntax.position import position
from .. import types as T

LOGIC = frozenset({A.BinOp.AND, A.BinOp.OR, A.BinOp.XOR})
NUMERIC = frozenset({A.BinOp.SUB, A.BinOp.MUL, A.BinOp.DIV, A.BinOp.MOD, A.BinOp.POW})
PROPERTY_SUBJECT = T.Kind.MAP | T.Kind.NODE | T.Kind.RELATIONSHIP


def expect(e: A.Expr, typer: T.Typer, accepted: T.Kind, text: str) -> None:
    """Refuse an operand that can never have an accepted kind (null always can)."""
    t = typer.of(e)
    if not T.admits(t, accepted):
        pos = getattr(e, "pos", 0)
        raise T.mismatch(accepted, t, pos, position(text, pos) if text else None)


def binary(e: A.Binary, typer: T.Typer, text: str) -> None:
    op = e.op
    if op in LOGIC:
        expect(e.left, typer, T.Kind.BOOLEAN, text)
        expect(e.right, typer, T.Kind.BOOLEAN, text)
    elif op in NUMERIC:
        expect(e.left, typer, T.NUMBER, text)
        expect(e.right, typer, T.NUMBER, text)
    elif op is A.BinOp.ADD:
        lt, rt = typer.of(e.left), typer.of(e.right)
        if not T.add_admits(lt, rt):
            raise E.Syntax.InvalidArgumentType(
                f"Type mismatch: cannot add {T.describe(rt.kinds)} to "
                f"{T.describe(lt.kinds)}", position=position(text, e.pos) if text else None)
    elif op is A.BinOp.IN:
        expect(e.right, typer, T.Kind.LIST, text)
    elif op is A.BinOp.CONCAT:
        concat(e, typer, text)


def concat(e: A.Binary, typer: T.Typer, text: str) -> None:
    """`a || b` joins two strings or two lists: each side must be able to be one of them, and
    both sides the same one."""
    joinable = T.Kind.STRING | T.Kind.LIST
    expect(e.left, typer, joinable, text)
    expect(e.right, typer, joinable, text)
    lk = typer.of(e.left).kinds & ~T.Kind.NULL
    rk = typer.of(e.right).kinds & ~T.Kind.NULL
    if lk and rk and not (lk | rk) & T.Kind.OTHER and not lk & rk & joinable:
        raise T.mismatch(lk & joinable, typer.of(e.right), e.right.pos,
                         position(text, getattr(e.right, "pos", 0)) if text else None)


def unary(e: A.Unary, typer: T.Typer, text: str) -> None:
    if e.op is A.UnOp.NOT:
        expect(e.operand, typer, T.Kind.BOOLEAN, text)
    elif e.op is A.UnOp.NEG or e.op is A.UnOp.POS:
        expect(e.operand, typer, T.NUMBER, text)
