"""Transformer rules for schema commands: CREATE INDEX and DROP INDEX -> `ast.CreateIndex`,
`ast.DropIndex` (with the checks the grammar cannot make: one label, the pattern's variable)."""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from .base import start_of


class SchemaRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    @v_args(meta=True)
    def create_index(self, meta, c):
        name = next((x for x in c if isinstance(x, str) and not isinstance(x, Token)), None)
        node = next(x for x in c if isinstance(x, A.NodePattern))
        if len(node.labels) != 1 or node.properties is not None:
            raise self._err("an index is declared on one label: FOR (n:Label)", start_of(meta))
        props_t = next(x for x in c if isinstance(x, tuple) and x and x[0] == "props")
        props = []
        for p in props_t[1]:
            if not isinstance(p.subject, A.Variable) or p.subject.name != node.variable:
                raise self._err("index properties must be properties of the pattern's variable", p.pos)
            props.append(p.key)
        if_not = any(isinstance(x, Token) and x.type == "NOT" for x in c)
        return A.CreateIndex(name, node.labels[0], node.variable, tuple(props), if_not, start_of(meta))

    def index_props(self, c):
        return ("props", tuple(c))

    @v_args(meta=True)
    def drop_index(self, meta, c):
        name = next(x for x in c if isinstance(x, str) and not isinstance(x, Token))
        if_exists = any(isinstance(x, Token) and x.type == "EXISTS" for x in c)
        return A.DropIndex(name, if_exists, start_of(meta))
