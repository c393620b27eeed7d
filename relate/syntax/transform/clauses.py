"""Transformer rules for the clauses: MATCH, UNWIND, WITH, RETURN (projection bodies, ORDER BY,
SKIP, LIMIT), CREATE, MERGE, SET, REMOVE, DELETE, FOREACH and CALL ... YIELD -> `ast` clauses."""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from ..prescan import unmark
from .base import start_of
from .labels import lift_where, split_labels


class ClauseRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    @v_args(meta=True)
    def match_clause(self, meta, c):
        optional = any(isinstance(x, Token) and x.type == "OPTIONAL" for x in c)
        pattern = next(x for x in c if isinstance(x, A.Pattern))
        where = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "where"), None)
        pattern, where = lift_where(pattern, where)
        return A.Match(pattern, where, optional, start_of(meta))

    def where(self, c):
        return ("where", c[-1])

    @v_args(meta=True)
    def unwind_clause(self, meta, c):
        return A.Unwind(c[1], c[3].name, start_of(meta))

    @v_args(meta=True)
    def with_clause(self, meta, c):
        where = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "where"), None)
        return A.With(c[1], where, start_of(meta))

    @v_args(meta=True)
    def return_clause(self, meta, c):
        return A.Return(c[1], start_of(meta))

    def projection_body(self, c):
        distinct = False
        items, star, order, skip, limit = (), False, (), None, None
        for x in c:
            if isinstance(x, Token) and x.type == "DISTINCT":
                distinct = True
            elif isinstance(x, tuple) and x and x[0] == "items":
                items, star = x[1], x[2]
            elif isinstance(x, tuple) and x and x[0] == "order":
                order = x[1]
            elif isinstance(x, tuple) and x and x[0] == "skip":
                skip = x[1]
            elif isinstance(x, tuple) and x and x[0] == "limit":
                limit = x[1]
        return A.Projection(items, star, distinct, order, skip, limit)

    def projection_items(self, c):
        return ("items", tuple(c), False)

    def projection_star(self, c):
        return ("items", tuple(x for x in c if isinstance(x, A.ProjectionItem)), True)

    @v_args(meta=True)
    def projection_item(self, meta, c):
        expr = c[0]
        alias = c[2].name if len(c) > 2 else None
        if alias is None:
            text = self.text[meta.start_pos:meta.end_pos]
        else:
            text = alias
        return A.ProjectionItem(expr, alias, unmark(text), start_of(meta))

    def order(self, c):
        return ("order", tuple(x for x in c if isinstance(x, A.SortItem)))

    def sort_item(self, c):
        desc = len(c) > 1 and c[1] in ("DESC", "DESCENDING")
        return A.SortItem(c[0], desc)

    def sort_dir(self, c):
        return str(c[0]).upper()

    def skip(self, c):
        return ("skip", c[-1])

    def limit(self, c):
        return ("limit", c[-1])

    @v_args(meta=True)
    def create_clause(self, meta, c):
        insert = isinstance(c[0], Token) and c[0].type == "INSERT"
        return A.Create(c[1], start_of(meta), insert)

    @v_args(meta=True)
    def merge_clause(self, meta, c):
        part = c[1]
        on_match, on_create = [], []
        for x in c[2:]:
            (on_match if x[0] == "match" else on_create).extend(x[1].items)
        return A.Merge(part, tuple(on_match), tuple(on_create), start_of(meta))

    def on_match(self, c):
        return ("match", c[-1])

    def on_create(self, c):
        return ("create", c[-1])

    @v_args(meta=True)
    def set_clause(self, meta, c):
        return A.SetClause(tuple(x for x in c if isinstance(x, A.SetItem)), start_of(meta))

    def set_property(self, c):
        return A.SetItem(A.SetKind.PROPERTY, c[0], c[-1])

    @v_args(meta=True)
    def dynamic_property(self, meta, c):
        return A.Subscript(c[0], c[1], start_of(meta))

    def set_replace(self, c):
        return A.SetItem(A.SetKind.REPLACE, c[0], c[-1])

    def set_merge(self, c):
        return A.SetItem(A.SetKind.MERGE, c[0], c[-1])

    def set_labels(self, c):
        return A.SetItem(A.SetKind.LABELS, c[0], None, *split_labels(c[1][1]))

    @v_args(meta=True)
    def property_target(self, meta, c):
        return A.Property(c[0], c[-1], start_of(meta))

    @v_args(meta=True)
    def remove_clause(self, meta, c):
        return A.Remove(tuple(x for x in c if isinstance(x, A.RemoveItem)), start_of(meta))

    def remove_labels(self, c):
        return A.RemoveItem(c[0], *split_labels(c[1][1]))

    def remove_property(self, c):
        return A.RemoveItem(c[0])

    @v_args(meta=True)
    def delete_clause(self, meta, c):
        detach = any(isinstance(x, Token) and x.type == "DETACH" for x in c)
        return A.Delete(tuple(x for x in c if isinstance(x, A.Expr)), detach, start_of(meta))

    @v_args(meta=True)
    def foreach_clause(self, meta, c):
        var = c[1]
        exprs = [x for x in c if isinstance(x, A.Expr) and x is not var]
        body = tuple(x for x in c if isinstance(x, A.Clause))
        return A.Foreach(var.name, exprs[0], body, start_of(meta))

    @v_args(meta=True)
    def call_clause(self, meta, c):
        optional = isinstance(c[0], Token) and c[0].type == "OPTIONAL"
        if optional:
            c = c[1:]
        name = c[1]
        args = None
        yields, star, where = None, False, None
        for x in c[2:]:
            if isinstance(x, tuple) and x[0] == "args":
                args = x[1]
            elif isinstance(x, tuple) and x[0] == "yield":
                yields, star, where = x[1], x[2], x[3]
        return A.Call(name, args, yields, star, where, start_of(meta), optional)

    def call_args(self, c):
        return ("args", tuple(c))

    def procedure_name(self, c):
        return ".".join(str(x) for x in c if not (isinstance(x, Token) and x.type == "NS_DOT"))

    def yield_items(self, c):
        star = any(isinstance(x, Token) and x.type == "STAR" for x in c)
        items = tuple(x for x in c if isinstance(x, A.YieldItem))
        where = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "where"), None)
        return ("yield", items, star, where)

    def yield_item(self, c):
        return A.YieldItem(c[0], c[2].name if len(c) > 2 else None)
