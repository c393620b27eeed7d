"""Transformer rules for the operators, by precedence level: OR, XOR, AND, NOT, comparison
chains, string and list predicates, arithmetic, IS [NOT] NULL, label tests, unary signs (a
negated number literal folds into the literal), property access, subscripts and slices ->
`ast.Binary`, `ast.Comparison`, `ast.Unary` and the access nodes."""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from .base import start_of



def _bin(op: A.BinOp):
    """A rule callback building `Binary(op, left, right)` from a binary rule's two terms."""
    @v_args(meta=True)
    def f(self, meta, c):
        terms = [x for x in c if not isinstance(x, Token)]
        return A.Binary(op, terms[0], terms[1], start_of(meta))
    return f

class OperatorRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    text: str

    def _fold(self, meta, c, op):
        terms = [x for x in c if not isinstance(x, Token)]
        out = terms[0]
        for t in terms[1:]:
            out = A.Binary(op, out, t, start_of(meta))
        return out

    @v_args(meta=True)
    def or_expr(self, meta, c):
        return self._fold(meta, c, A.BinOp.OR)

    @v_args(meta=True)
    def xor_expr(self, meta, c):
        return self._fold(meta, c, A.BinOp.XOR)

    @v_args(meta=True)
    def and_expr(self, meta, c):
        return self._fold(meta, c, A.BinOp.AND)

    @v_args(meta=True)
    def not_op(self, meta, c):
        return A.Unary(A.UnOp.NOT, c[-1], start_of(meta))

    @v_args(meta=True)
    def comparison(self, meta, c):
        operands = tuple(c[0::2])
        ops = tuple(A.BinOp(x) for x in c[1::2])
        if len(operands) == 2:
            return A.Binary(ops[0], operands[0], operands[1], start_of(meta))
        return A.Comparison(operands, ops, start_of(meta))

    def comp_op(self, c):
        return str(c[0])


    starts_with = _bin(A.BinOp.STARTS_WITH)
    ends_with = _bin(A.BinOp.ENDS_WITH)
    contains = _bin(A.BinOp.CONTAINS)
    in_list = _bin(A.BinOp.IN)
    regex_match = _bin(A.BinOp.REGEX)
    add = _bin(A.BinOp.ADD)
    sub = _bin(A.BinOp.SUB)
    mul = _bin(A.BinOp.MUL)
    div = _bin(A.BinOp.DIV)
    mod = _bin(A.BinOp.MOD)
    pow = _bin(A.BinOp.POW)
    concat = _bin(A.BinOp.CONCAT)

    @v_args(meta=True)
    def type_predicate(self, meta, c):
        subject, negated, t = c
        return A.TypePredicate(subject, t, negated, start_of(meta))

    @v_args(meta=True)
    def is_normalized(self, meta, c):
        negated = any(isinstance(x, Token) and x.type == "NOT" for x in c[1:])
        form = next((x for x in c[1:] if isinstance(x, Token) and x.type == "NAME"), None)
        return A.NormalizedTest(c[0], self._normal_form(form) if form is not None else "NFC", negated,
                                start_of(meta))

    def _normal_form(self, tok) -> str:
        """A normal form named by a bare word (NFC, NFD, NFKC, NFKD), else `UnknownNormalForm`."""
        from ...errors import E
        from ..position import position
        name = str(tok).upper()
        if name not in ("NFC", "NFD", "NFKC", "NFKD"):
            raise E.Syntax.UnknownNormalForm(form=str(tok), position=position(self.text, tok.start_pos or 0))
        return name

    @v_args(meta=True)
    def is_null(self, meta, c):
        return A.Unary(A.UnOp.IS_NULL, c[0], start_of(meta))

    @v_args(meta=True)
    def is_not_null(self, meta, c):
        return A.Unary(A.UnOp.IS_NOT_NULL, c[0], start_of(meta))

    @v_args(meta=True)
    def label_test(self, meta, c):
        return self.label_test_of(c[0], c[1], start_of(meta))

    @v_args(meta=True)
    def neg(self, meta, c):
        operand = c[-1]
        if isinstance(operand, A.Literal) and type(operand.value) in (int, float):
            return A.Literal(-operand.value, start_of(meta))
        return A.Unary(A.UnOp.NEG, operand, start_of(meta))

    @v_args(meta=True)
    def pos(self, meta, c):
        return A.Unary(A.UnOp.POS, c[-1], start_of(meta))

    @v_args(meta=True)
    def property(self, meta, c):
        return A.Property(c[0], c[-1], start_of(meta))

    @v_args(meta=True)
    def subscript(self, meta, c):
        return A.Subscript(c[0], c[1], start_of(meta))

    @v_args(meta=True)
    def slice(self, meta, c):
        subject = c[0]
        start = end = None
        seen = False
        for x in c[1:]:
            if isinstance(x, Token) and x.type == "RANGE_DOTS":
                seen = True
            elif not seen:
                start = x
            else:
                end = x
        return A.Slice(subject, start, end, start_of(meta))
