"""Transformer rules for the compound expressions: list and pattern comprehensions, pattern
predicates, reduce, quantifiers (all/any/none/single), function calls (count(*), exists), CASE,
map projections and EXISTS/COUNT subqueries -> `ast` expressions."""
from __future__ import annotations

from lark import Token, v_args

from .. import ast as A
from .base import name_of, start_of
from .labels import lift_where


class ExpressionRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`, `_err` and `_int`."""

    def _comprehension(self, pos, head, where, proj):
        if isinstance(head, A.PatternPredicate):
            if proj is None:
                raise self._err("a pattern comprehension needs `| expression`", pos)
            element, where = lift_where(head.element, where)
            return A.PatternComprehension(None, element, where, proj, pos)
        if isinstance(head, A.Binary) and head.op is A.BinOp.IN and isinstance(head.left, A.Variable):
            return A.ListComprehension(head.left.name, head.right, where, proj, pos)
        raise self._err("expected `variable IN list` in a list comprehension", pos)

    @v_args(meta=True)
    def list_comprehension(self, meta, c):
        return self._comprehension(start_of(meta), c[0], c[2] if len(c) > 2 else None, c[3] if len(c) > 3 else None)

    @v_args(meta=True)
    def list_comprehension_map(self, meta, c):
        return self._comprehension(start_of(meta), c[0], None, c[1])

    @v_args(meta=True)
    def pattern_comprehension(self, meta, c):
        var = c[0].name
        pred = c[2]
        rest = [x for x in c[3:] if not isinstance(x, Token)]
        where = rest[0] if len(rest) == 2 else None
        element, where = lift_where(pred.element, where)
        return A.PatternComprehension(var, element, where, rest[-1], start_of(meta))

    @v_args(meta=True)
    def pattern_predicate(self, meta, c):
        nodes = tuple(x for x in c if isinstance(x, A.NodePattern))
        rels = tuple(x for x in c if isinstance(x, A.RelPattern))
        return A.PatternPredicate(A.PatternElement(nodes, rels), start_of(meta))

    @v_args(meta=True)
    def reduce_expr(self, meta, c):
        acc, init, var, source, expression = [x for x in c if not isinstance(x, Token)]
        return A.Reduce(acc.name, init, var.name, source, expression, start_of(meta))

    @v_args(meta=True)
    def quantifier(self, meta, c):
        kind = A.QuantifierKind(str(c[0]).lower())
        exprs = [x for x in c[1:] if not isinstance(x, Token)]
        return A.Quantifier(kind, exprs[0].name, exprs[1], exprs[2] if len(exprs) > 2 else None, start_of(meta))

    @v_args(meta=True)
    def count_call(self, meta, c):
        rest = [x for x in c[1:]]
        if any(isinstance(x, Token) and x.type == "STAR" for x in rest):
            return A.CountStar(start_of(meta))
        distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in rest)
        arg = next(x for x in rest if isinstance(x, A.Expr))
        return A.FunctionCall("count", (arg,), distinct, start_of(meta))

    @v_args(meta=True)
    def exists_call(self, meta, c):
        return A.FunctionCall("exists", (c[1],), False, start_of(meta))

    @v_args(meta=True)
    def function_call(self, meta, c):
        name = c[0]
        distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in c[1:])
        args = tuple(x for x in c[1:] if isinstance(x, A.Expr))
        if name.lower() == "normalize" and len(args) == 2:
            args = (args[0], self._form_argument(args[1]))
        if name.lower() in _SHORTEST and len(args) == 1 and isinstance(args[0], A.PatternPredicate):
            return _shortest_expression(_SHORTEST[name.lower()], args[0], start_of(meta))
        return A.FunctionCall(name, args, distinct, start_of(meta))

    def _form_argument(self, e):
        """normalize()'s second argument: a normal form keyword, kept as its name's string."""
        from ...errors import E
        from ..position import position
        if not isinstance(e, A.Variable) or e.name.upper() not in ("NFC", "NFD", "NFKC", "NFKD"):
            form = self.text[e.pos:].split(")")[0].split(",")[0].strip() or "?"
            raise E.Syntax.UnknownNormalForm(form=form, position=position(self.text, e.pos))
        return A.Literal(e.name.upper(), e.pos)

    @v_args(meta=True)
    def trim_call(self, meta, c):
        """trim(s), and trim([LEADING | TRAILING | BOTH] [characters] FROM s) as btrim, ltrim or
        rtrim (whose two-argument forms take the characters to remove)."""
        name = str(c[0])
        exprs = [x for x in c[1:] if isinstance(x, A.Expr)]
        has_from = any(isinstance(x, Token) and x.type == "FROM" for x in c)
        if not has_from:
            return A.FunctionCall(name, (exprs[0],), False, start_of(meta))
        side = next((x for x in c if isinstance(x, str) and x in ("LEADING", "TRAILING", "BOTH")), "BOTH")
        fn = {"LEADING": "ltrim", "TRAILING": "rtrim", "BOTH": "btrim"}[side]
        source = exprs[-1]
        chars = exprs[0] if len(exprs) == 2 else None
        args = (source,) if chars is None else (source, chars)
        return A.FunctionCall(fn, args, False, start_of(meta))

    @v_args(meta=True)
    def old_parameter(self, meta, c):
        from ...errors import E
        from ..position import position
        name = c[0] if isinstance(c[0], str) else str(c[0])
        raise E.Syntax.RemovedParameterSyntax(name=name, position=position(self.text, start_of(meta)))

    def trim_side(self, c):
        return str(c[0]).upper()

    def function_name(self, c):
        return ".".join(name_of(x) if isinstance(x, Token) else x for x in c
                        if not (isinstance(x, Token) and x.type == "NS_DOT"))

    @v_args(meta=True)
    def case_expr(self, meta, c):
        items = [x for x in c if not (isinstance(x, Token) and x.type in ("CASE", "END", "ELSE"))]
        subject = None
        if items and not isinstance(items[0], A.CaseWhen):
            subject = items.pop(0)
        whens = tuple(x for x in items if isinstance(x, A.CaseWhen))
        default = items[-1] if items and not isinstance(items[-1], A.CaseWhen) else None
        return A.Case(subject, whens, default, start_of(meta))

    def case_when(self, c):
        return A.CaseWhen(c[1], c[3])

    @v_args(meta=True)
    def map_projection(self, meta, c):
        return A.MapProjection(c[0], tuple(x for x in c[1:] if isinstance(x, A.MapProjItem)), start_of(meta))

    def proj_property(self, c):
        return A.MapProjItem(A.MapProjKind.PROPERTY, c[-1])

    def proj_all(self, c):
        return A.MapProjItem(A.MapProjKind.ALL, "*")

    def proj_literal(self, c):
        return A.MapProjItem(A.MapProjKind.LITERAL, c[0], c[1])

    def proj_variable(self, c):
        return A.MapProjItem(A.MapProjKind.VARIABLE, c[0].name, c[0])

    def _subquery(self, cls, meta, c):
        inner = [x for x in c if not isinstance(x, Token)]
        query = next((x for x in inner if isinstance(x, A.Query)), None)
        if query is not None:
            query = query.parts[0] if len(query.parts) == 1 else query  # UNION inside: the Query
        pattern = next((x for x in inner if isinstance(x, A.Pattern)), None)
        where = next((x[1] for x in inner if isinstance(x, tuple) and x[0] == "where"), None)
        if pattern is not None:
            pattern, where = lift_where(pattern, where)
        return cls(query, pattern, where, start_of(meta))

    @v_args(meta=True)
    def exists_subquery(self, meta, c):
        return self._subquery(A.ExistsSubquery, meta, c)

    @v_args(meta=True)
    def count_subquery(self, meta, c):
        return self._subquery(A.CountSubquery, meta, c)


_SHORTEST = {"shortestpath": "shortestPath", "allshortestpaths": "allShortestPaths"}


def _shortest_expression(kind: str, pattern: A.PatternPredicate, pos: int) -> A.Expr:
    """`shortestPath((a)-[*]->(b))` as a value: the path, or null when there is none
    (`allShortestPaths` gives the list of them).  Built as the subquery it means,
    `head(COLLECT { MATCH p = shortestPath(...) RETURN p })`, so the search and its checks are
    the MATCH form's own; the path variable has a name no statement can write."""
    var = f"  shortest path {pos}"
    match = A.Match(A.Pattern((A.PatternPart(var, pattern.element, kind, pos),)), None, False, pos)
    ret = A.Return(A.Projection((A.ProjectionItem(A.Variable(var, pos), None, var, pos),)), pos)
    paths = A.CollectSubquery(A.SingleQuery((match, ret)), None, None, pos)
    return paths if kind == "allShortestPaths" else A.FunctionCall("head", (paths,), False, pos)
