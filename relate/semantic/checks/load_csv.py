"""LOAD CSV's compile-time rules: the source must be able to be a string (`LOAD CSV FROM 42` is a
type mismatch, as in Neo4j), and FIELDTERMINATOR takes a one-character string literal
(`InvalidFieldTerminator`).  What a source URL may name is decided when the statement runs, against
the connection's import folder (`exec/load_csv.py`)."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A
from ...syntax.position import position
from .. import types as T


def source(e: A.Expr, stype: T.SType, text: str) -> None:
    if not T.admits(stype, T.Kind.STRING):
        raise E.Syntax.InvalidArgumentType(expected="String", got=T.describe(stype.kinds),
                                           position=_at(text, e))


def terminator(e: A.Expr | None, text: str) -> None:
    if e is None:
        return
    if not (isinstance(e, A.Literal) and isinstance(e.value, str)):
        raise E.Syntax.InvalidFieldTerminator("FIELDTERMINATOR takes a string literal of one character",
                                              position=_at(text, e))
    if len(e.value) != 1:
        raise E.Syntax.InvalidFieldTerminator("CSV field terminator can only be one character wide",
                                              position=_at(text, e))


def row_type(headers: bool) -> T.SType:
    """A row is a map of strings WITH HEADERS, else a list of strings (empty fields are null)."""
    return T.MAP if headers else T.list_of(T.STRING)


def _at(text: str, e: A.Expr):
    pos = getattr(e, "pos", None)
    return position(text, pos) if text and pos is not None else None
