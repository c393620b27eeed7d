"""Transformer rules for literals: numbers (range-checked), strings (escapes decoded), booleans,
null, parameters, maps and lists -> `ast.Literal`, `ast.Parameter`, `ast.MapLiteral`,
`ast.ListLiteral`; and the after-pass that refuses an integer literal past the 64-bit range."""
from __future__ import annotations

import re

from lark import v_args

from ...values.ints import INT_MAX
from .. import ast as A
from ..position import syntax_error
from .base import start_of

_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}
_ESCAPE_RE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.DOTALL)


def unescape_string(raw: str) -> str:
    body = raw[1:-1]

    def sub(m: re.Match) -> str:
        e = m.group(1)
        if e[0] in "uU":
            if len(e) == 1:  # \u without its hex digits
                raise ValueError("invalid unicode escape")
            return chr(int(e[1:], 16))
        if e in _ESCAPES:
            return _ESCAPES[e]
        return "\\" + e
    return _ESCAPE_RE.sub(sub, body)


class LiteralRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    def int_lit(self, c):
        tok = c[0]
        n = self._int(tok)
        if n > INT_MAX + 1:
            raise self._err(f"integer literal is too large: {tok}", tok.start_pos, "IntegerOverflow")
        return A.Literal(n, tok.start_pos)

    def float_lit(self, c):
        v = float(str(c[0]))
        if v == float("inf"):  # a literal past the largest double
            raise self._err(f"float literal is too large: {c[0]}", c[0].start_pos, "FloatingPointOverflow")
        return A.Literal(v, c[0].start_pos)

    def string_lit(self, c):
        try:
            return A.Literal(unescape_string(str(c[0])), c[0].start_pos)
        except ValueError:
            raise self._err(f"invalid unicode escape in {str(c[0])}", c[0].start_pos,
                            "InvalidUnicodeLiteral") from None

    def true_lit(self, c):
        return A.Literal(True, c[0].start_pos)

    def false_lit(self, c):
        return A.Literal(False, c[0].start_pos)

    def null_lit(self, c):
        return A.Literal(None, c[0].start_pos)

    def inf_lit(self, c):
        return A.Literal(float("inf"), c[0].start_pos)

    def nan_lit(self, c):
        return A.Literal(float("nan"), c[0].start_pos)

    def literal(self, c):
        return c[0]

    @v_args(meta=True)
    def parameter(self, meta, c):
        return A.Parameter(str(c[0]), start_of(meta))

    @v_args(meta=True)
    def map_literal(self, meta, c):
        return A.MapLiteral(tuple(c), start_of(meta))

    def map_entry(self, c):
        return (c[0], c[1])

    @v_args(meta=True)
    def list_literal(self, meta, c):
        items = tuple(c)
        # `[x IN list]` alone is a list comprehension, as openCypher reads it
        if (len(items) == 1 and isinstance(items[0], A.Binary) and items[0].op is A.BinOp.IN
                and isinstance(items[0].left, A.Variable)):
            b = items[0]
            return A.ListComprehension(b.left.name, b.right, None, None, start_of(meta))
        return A.ListLiteral(items, start_of(meta))


def check_int_range(stmt: A.Statement, text: str) -> None:
    """The literal 9223372036854775808 is only valid negated; parsing folded the sign in."""
    # A positive literal past INT_MAX survives only when it was not negated.
    stack: list = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Literal):
            if type(node.value) is int and node.value > INT_MAX:
                raise syntax_error(text, f"integer literal is too large: {node.value}", node.pos, "IntegerOverflow")
            continue
        if isinstance(node, (tuple, list)):
            stack.extend(node)
        elif isinstance(node, A.Node):
            slots: tuple[str, ...] = node.__slots__  # type: ignore[attr-defined]
            stack.extend(getattr(node, name) for name in slots)
