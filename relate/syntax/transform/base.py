"""What every rule family of the transformer shares: the statement text, the token and position
readers, and syntax errors at an offset of the text."""
from __future__ import annotations

from lark import Token, Transformer

from ...errors import CypherSyntaxError
from ..position import syntax_error


def name_of(tok: Token) -> str:
    """A name token -> the name (a backquoted name without its quotes, doubled backquotes single)."""
    v = str(tok)
    if v.startswith("`"):
        return v[1:-1].replace("``", "`")
    return v


def start_of(meta) -> int:
    """A rule's start offset (0 for an empty rule, which has no position)."""
    return getattr(meta, "start_pos", 0) if not getattr(meta, "empty", False) else 0


class BuildBase(Transformer):
    """The transformer's state: the original statement text (error positions and projection
    column names are read from it)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def _err(self, detail: str, offset: int, kind: str = "ParseError") -> CypherSyntaxError:
        return syntax_error(self.text, detail, offset, kind)

    def _int(self, tok: Token) -> int:
        """An integer literal token (decimal, 0x hex, 0o octal) -> its value, unchecked for range."""
        v = str(tok).lower()
        try:
            if v.startswith("0x"):
                n = int(v[2:], 16)
            elif v.startswith("0o"):
                n = int(v[2:], 8)
            else:
                n = int(v)
        except ValueError:
            raise self._err(f"invalid number literal {str(tok)}", tok.start_pos or 0, "InvalidNumberLiteral")
        return n
