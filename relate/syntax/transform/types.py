"""Transformer rules for Cypher types (`cypher_type` in the grammar) -> `ast.CypherType`.

The grammar reads a type as a flat run of words, `NOT NULL`s and `LIST<...>` / `ANY<...>` groups;
this module names it.  A simple type is a known run of words (`INTEGER`, `SIGNED INTEGER`,
`TIMESTAMP WITH TIME ZONE`, ...), each synonym mapped to the name Neo4j prints; `T LIST` and
`T ARRAY` wrap it in a list; `NOT NULL` (or `!`) makes the type before it non-nullable.  A closed
dynamic union (`A | B`, `ANY<A | B>`) is flattened and its duplicates dropped; its members must
agree on nullability.  Anything else is `UnknownType` at the word that is no type.
"""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from ...errors import E
from ..position import position
from .base import start_of

# words (upper case, single spaces) -> the type's canonical name
SIMPLE_TYPES = {
    "NOTHING": "NOTHING", "NULL": "NULL",
    "BOOL": "BOOLEAN", "BOOLEAN": "BOOLEAN",
    "VARCHAR": "STRING", "STRING": "STRING",
    "INT": "INTEGER", "INTEGER": "INTEGER", "SIGNED INTEGER": "INTEGER",
    "FLOAT": "FLOAT",
    "DATE": "DATE",
    "LOCAL TIME": "LOCAL TIME", "TIME WITHOUT TIME ZONE": "LOCAL TIME",
    "ZONED TIME": "ZONED TIME", "TIME WITH TIME ZONE": "ZONED TIME",
    "LOCAL DATETIME": "LOCAL DATETIME", "TIMESTAMP WITHOUT TIME ZONE": "LOCAL DATETIME",
    "ZONED DATETIME": "ZONED DATETIME", "TIMESTAMP WITH TIME ZONE": "ZONED DATETIME",
    "DURATION": "DURATION",
    "POINT": "POINT",
    "NODE": "NODE", "ANY NODE": "NODE", "VERTEX": "NODE", "ANY VERTEX": "NODE",
    "RELATIONSHIP": "RELATIONSHIP", "ANY RELATIONSHIP": "RELATIONSHIP",
    "EDGE": "RELATIONSHIP", "ANY EDGE": "RELATIONSHIP",
    "MAP": "MAP", "ANY MAP": "MAP",
    "PATH": "PATH", "PATHS": "PATH",
    "PROPERTY VALUE": "PROPERTY VALUE", "ANY PROPERTY VALUE": "PROPERTY VALUE",
    "ANY": "ANY", "ANY VALUE": "ANY",
}
_LONGEST = max(len(k.split()) for k in SIMPLE_TYPES)
_LIST_WORDS = ("LIST", "ARRAY")


def _word(tok: Token) -> str:
    return " ".join(str(tok).upper().replace("TIMEZONE", "TIME ZONE").split())


def nullable(t: A.CypherType, flag: bool) -> A.CypherType:
    """`t` with its nullability set (a union's members all at once; NOTHING never holds null)."""
    if t.name == "UNION":
        return A.CypherType("UNION", flag, None, tuple(nullable(m, flag) for m in t.members), t.pos)
    if t.name == "NOTHING":
        return A.CypherType("NOTHING", False, None, (), t.pos)
    if t.name == "NULL" and not flag:
        return A.CypherType("NOTHING", False, None, (), t.pos)
    return A.CypherType(t.name, flag, t.inner, t.members, t.pos)


class TypeRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text` and `_err`."""

    text: str

    def _type_error(self, detail: str, offset: int):
        return E.Syntax.UnknownType(detail, position=position(self.text, offset))

    @v_args(meta=True)
    def cypher_type(self, meta, c):
        parts = [x for x in c if isinstance(x, A.CypherType)]
        if len(parts) == 1:
            return parts[0]
        return self._union(parts, start_of(meta))

    def _union(self, parts, pos: int) -> A.CypherType:
        members: list[A.CypherType] = []
        for p in parts:
            for m in (p.members if p.name == "UNION" else (p,)):
                if m not in members:
                    members.append(m)
        kinds = {m.nullable for m in members if m.name not in ("NOTHING", "NULL")}
        if len(kinds) > 1:
            raise E.Syntax.InvalidTypeUnion(position=position(self.text, pos))
        if len(members) == 1:
            return members[0]
        return A.CypherType("UNION", kinds != {False}, None, tuple(members), pos)

    @v_args(meta=True)
    def type_part(self, meta, c):
        items = list(c)
        i = 0
        if isinstance(items[0], A.CypherType):
            t, i = items[0], 1
        else:
            t, i = self._simple(items)
        while i < len(items):
            x = items[i]
            if x == "NOT NULL":
                if t.name == "UNION":
                    raise E.Syntax.InvalidTypeUnion(position=position(self.text, start_of(meta)))
                t = nullable(t, False)
                i += 1
            elif isinstance(x, Token) and _word(x) in _LIST_WORDS:
                t = A.CypherType("LIST", True, t, (), t.pos)
                i += 1
            else:
                at = x.pos if isinstance(x, A.CypherType) else (x.start_pos or 0)
                raise self._type_error(f"`{self._item_text(x)}` is no part of a Cypher type here", at)
        return t

    def _item_text(self, x) -> str:
        if isinstance(x, A.CypherType):
            return x.text()
        return str(x)

    def _simple(self, items) -> tuple[A.CypherType, int]:
        words = []
        for x in items:
            if not isinstance(x, Token):
                break
            words.append(x)
        for n in range(min(len(words), _LONGEST), 0, -1):
            name = SIMPLE_TYPES.get(" ".join(_word(w) for w in words[:n]))
            if name is not None:
                pos = words[0].start_pos or 0
                t = A.CypherType(name, True, None, (), pos)
                return (nullable(t, False) if name == "NOTHING" else t), n
        first = words[0] if words else items[0]
        at = first.start_pos if isinstance(first, Token) else 0
        text = " ".join(str(w) for w in words) or str(first)
        if words and _word(words[0]) in _LIST_WORDS:
            raise self._type_error(f"`{words[0]}` needs its element type: {_word(words[0])}<INTEGER>", at or 0)
        raise self._type_error(f"`{text}` is not a Cypher type", at or 0)

    def type_word(self, c):
        return c[0]

    def type_not_null(self, c):
        return "NOT NULL"

    @v_args(meta=True)
    def type_list(self, meta, c):
        inner = next(x for x in c if isinstance(x, A.CypherType))
        return A.CypherType("LIST", True, inner, (), start_of(meta))

    @v_args(meta=True)
    def type_any_union(self, meta, c):
        inner = next(x for x in c if isinstance(x, A.CypherType))
        return inner

    def type_is(self, c):
        """True for the negated forms (`IS NOT ::`, `IS NOT TYPED`)."""
        return any(isinstance(x, Token) and x.type == "NOT" for x in c)
