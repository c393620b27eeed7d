"""A character offset in statement text -> its `Position` (offset, line, column), and a syntax
error at such an offset.  Every stage that reports a place in the statement reads it from here."""
from __future__ import annotations

from ..errors import CypherSyntaxError, Position


def position(text: str, offset: int) -> Position:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Position(offset, line, col)


def syntax_error(text: str, detail: str, offset: int, kind: str = "ParseError") -> CypherSyntaxError:
    return CypherSyntaxError(kind, detail, position=position(text, offset))
