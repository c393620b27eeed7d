"""Statement text -> `ast.Statement`.

`prescan` marks the few context-dependent characters, lark's LALR parser (contextual lexer,
positions on) builds a parse tree, and `_Build` turns that tree into the typed AST in one
bottom-up pass.  lark errors become `CypherSyntaxError` with the position of the offending token.
The lark parser is built once per process from `cypher.lark`, or loaded from the prebuilt tables
beside it when they match the grammar and the lark version.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import CypherSyntaxError, Position, RelateError
from . import ast as A
from .prescan import prescan, unmark

INT_MIN, INT_MAX = -(2 ** 63), 2 ** 63 - 1


_OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=False)
# the parser tables, serialized at build time (`write_prebuilt`; the site build ships them in the
# wheel): the browser has no lark cache between page loads, and building the tables there takes
# about 0.6 s against 0.1 s to load them
PREBUILT = Path(__file__).with_name("cypher.lark.bin")


def _grammar_digest(grammar: str) -> bytes:
    import hashlib
    import lark
    text = grammar + repr(sorted(_OPTIONS.items())) + lark.__version__
    return hashlib.sha256(text.encode("utf-8")).hexdigest().encode("ascii")


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (Path(__file__).with_name("cypher.lark")).read_text(encoding="utf-8")
    return load_prebuilt(PREBUILT, grammar) or Lark(grammar, cache=True, **_OPTIONS)


def load_prebuilt(path: Path, grammar: str) -> Lark | None:
    """The parser from `path` when it was written for this grammar and lark version, else None."""
    try:
        with path.open("rb") as f:
            if f.readline().rstrip(b"\n") != _grammar_digest(grammar):
                return None
            return Lark.load(f)
    except OSError:
        return None


def write_prebuilt(path: Path = PREBUILT) -> Path:
    """Serialize the parser tables next to the grammar (run natively by the site build)."""
    grammar = (Path(__file__).with_name("cypher.lark")).read_text(encoding="utf-8")
    parser = Lark(grammar, **_OPTIONS)
    with path.open("wb") as f:
        f.write(_grammar_digest(grammar) + b"\n")
        parser.save(f)
    return path


def warm_parser() -> None:
    """Build (or load from lark's cache) the parser now, outside any statement's timings."""
    _lark()


def position(text: str, offset: int) -> Position:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Position(offset, line, col)


def _syntax(text: str, detail: str, offset: int, kind: str = "ParseError") -> CypherSyntaxError:
    return CypherSyntaxError(kind, detail, position=position(text, offset))


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


def _name(tok: Token) -> str:
    v = str(tok)
    if v.startswith("`"):
        return v[1:-1].replace("``", "`")
    return v


def _pos(meta) -> int:
    return getattr(meta, "start_pos", 0) if not getattr(meta, "empty", False) else 0


class _Build(Transformer):
    """lark tree -> AST.  Rule methods are named after grammar rules and aliases."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def _err(self, detail: str, offset: int, kind: str = "ParseError") -> CypherSyntaxError:
        return _syntax(self.text, detail, offset, kind)

    # ---- names
    def symbolic_name(self, c):
        return _name(c[0]) if isinstance(c[0], Token) else c[0]

    def keyword(self, c):
        return str(c[0])

    def procedure_part(self, c):
        return _name(c[0])

    label_name = rel_type_name = prop_name = index_name = symbolic_name

    @v_args(meta=True)
    def variable(self, meta, c):
        return A.Variable(_name(c[0]), _pos(meta))

    # ---- statement
    def start(self, c):
        return c[0]

    def statement(self, c):
        explain = profile = False
        body = None
        for x in c:
            if isinstance(x, Token):
                continue
            if isinstance(x, tuple) and x and x[0] == "explain":
                explain, profile = x[1] == "EXPLAIN", x[1] == "PROFILE"
            else:
                body = x
        return A.Statement(body, explain=explain, profile=profile, text=self.text)

    def explain(self, c):
        return ("explain", str(c[0]).upper())

    def regular_query(self, c):
        parts = [c[0]]
        alls = []
        for u in c[1:]:
            alls.append(u[0])
            parts.append(u[1])
        return A.Query(tuple(parts), tuple(alls))

    def union(self, c):
        is_all = any(isinstance(x, Token) and x.type == "ALL" for x in c)
        return (is_all, c[-1])

    def single_query(self, c):
        return A.SingleQuery(tuple(c))

    # ---- clauses
    @v_args(meta=True)
    def match_clause(self, meta, c):
        optional = any(isinstance(x, Token) and x.type == "OPTIONAL" for x in c)
        pattern = next(x for x in c if isinstance(x, A.Pattern))
        where = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "where"), None)
        return A.Match(pattern, where, optional, _pos(meta))

    def where(self, c):
        return ("where", c[-1])

    @v_args(meta=True)
    def unwind_clause(self, meta, c):
        return A.Unwind(c[1], c[3].name, _pos(meta))

    @v_args(meta=True)
    def with_clause(self, meta, c):
        where = next((x[1] for x in c if isinstance(x, tuple) and x[0] == "where"), None)
        return A.With(c[1], where, _pos(meta))

    @v_args(meta=True)
    def return_clause(self, meta, c):
        return A.Return(c[1], _pos(meta))

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
        return A.ProjectionItem(expr, alias, unmark(text), _pos(meta))

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
        return A.Create(c[1], _pos(meta))

    @v_args(meta=True)
    def merge_clause(self, meta, c):
        part = c[1]
        on_match, on_create = [], []
        for x in c[2:]:
            (on_match if x[0] == "match" else on_create).extend(x[1].items)
        return A.Merge(part, tuple(on_match), tuple(on_create), _pos(meta))

    def on_match(self, c):
        return ("match", c[-1])

    def on_create(self, c):
        return ("create", c[-1])

    @v_args(meta=True)
    def set_clause(self, meta, c):
        return A.SetClause(tuple(x for x in c if isinstance(x, A.SetItem)), _pos(meta))

    def set_property(self, c):
        return A.SetItem(A.SetKind.PROPERTY, c[0], c[-1])

    def set_replace(self, c):
        return A.SetItem(A.SetKind.REPLACE, c[0], c[-1])

    def set_merge(self, c):
        return A.SetItem(A.SetKind.MERGE, c[0], c[-1])

    def set_labels(self, c):
        return A.SetItem(A.SetKind.LABELS, c[0], None, c[1][1])

    @v_args(meta=True)
    def property_target(self, meta, c):
        return A.Property(c[0], c[-1], _pos(meta))

    @v_args(meta=True)
    def remove_clause(self, meta, c):
        return A.Remove(tuple(x for x in c if isinstance(x, A.RemoveItem)), _pos(meta))

    def remove_labels(self, c):
        return A.RemoveItem(c[0], c[1][1])

    def remove_property(self, c):
        return A.RemoveItem(c[0])

    @v_args(meta=True)
    def delete_clause(self, meta, c):
        detach = any(isinstance(x, Token) and x.type == "DETACH" for x in c)
        return A.Delete(tuple(x for x in c if isinstance(x, A.Expr)), detach, _pos(meta))

    @v_args(meta=True)
    def foreach_clause(self, meta, c):
        var = c[1]
        exprs = [x for x in c if isinstance(x, A.Expr) and x is not var]
        body = tuple(x for x in c if isinstance(x, A.Clause))
        return A.Foreach(var.name, exprs[0], body, _pos(meta))

    @v_args(meta=True)
    def call_clause(self, meta, c):
        name = c[1]
        args = None
        yields, star, where = None, False, None
        for x in c[2:]:
            if isinstance(x, tuple) and x[0] == "args":
                args = x[1]
            elif isinstance(x, tuple) and x[0] == "yield":
                yields, star, where = x[1], x[2], x[3]
        return A.Call(name, args, yields, star, where, _pos(meta))

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

    @v_args(meta=True)
    def create_index(self, meta, c):
        name = next((x for x in c if isinstance(x, str) and not isinstance(x, Token)), None)
        node = next(x for x in c if isinstance(x, A.NodePattern))
        if len(node.labels) != 1 or node.properties is not None:
            raise self._err("an index is declared on one label: FOR (n:Label)", _pos(meta))
        props_t = next(x for x in c if isinstance(x, tuple) and x and x[0] == "props")
        props = []
        for p in props_t[1]:
            if not isinstance(p.subject, A.Variable) or p.subject.name != node.variable:
                raise self._err("index properties must be properties of the pattern's variable", p.pos)
            props.append(p.key)
        if_not = any(isinstance(x, Token) and x.type == "NOT" for x in c)
        return A.CreateIndex(name, node.labels[0], node.variable, tuple(props), if_not, _pos(meta))

    def index_props(self, c):
        return ("props", tuple(c))

    @v_args(meta=True)
    def drop_index(self, meta, c):
        name = next(x for x in c if isinstance(x, str) and not isinstance(x, Token))
        if_exists = any(isinstance(x, Token) and x.type == "EXISTS" for x in c)
        return A.DropIndex(name, if_exists, _pos(meta))

    # ---- patterns
    def pattern(self, c):
        return A.Pattern(tuple(c))

    @v_args(meta=True)
    def pattern_part(self, meta, c):
        var = None
        shortest = None
        element = None
        for x in c:
            if isinstance(x, A.Variable):
                var = x.name
            elif isinstance(x, A.PatternElement):
                element = x
            elif isinstance(x, tuple) and x[0] == "pathfn":
                shortest = x[1]
        return A.PatternPart(var, element, shortest, _pos(meta))

    def path_function(self, c):
        v = str(c[0]).lower()
        return ("pathfn", "shortestPath" if v == "shortestpath" else "allShortestPaths")

    def pattern_element(self, c):
        nodes = tuple(x for x in c if isinstance(x, A.NodePattern))
        rels = tuple(x for x in c if isinstance(x, A.RelPattern))
        return A.PatternElement(nodes, rels)

    @v_args(meta=True)
    def node_pattern(self, meta, c):
        var = labels = props = None
        for x in c:
            if isinstance(x, A.Variable):
                var = x.name
            elif isinstance(x, tuple) and x[0] == "labels":
                labels = x[1]
            elif isinstance(x, tuple) and x[0] == "props":
                props = x[1]
        return A.NodePattern(var, labels or (), props, _pos(meta))

    def node_properties(self, c):
        return ("props", c[0])

    def node_labels(self, c):
        return ("labels", tuple(c))

    @v_args(meta=True)
    def relationship_pattern(self, meta, c):
        left = isinstance(c[0], Token) and c[0].type == "LEFT_ARROW"
        right = c[-1] == "->"
        detail = next((x for x in c if isinstance(x, dict)), {})
        if left and right:
            direction = A.Direction.BOTH  # <-->: either direction, as openCypher reads it
        elif left:
            direction = A.Direction.IN
        elif right:
            direction = A.Direction.OUT
        else:
            direction = A.Direction.BOTH
        return A.RelPattern(detail.get("var"), detail.get("types", ()), direction,
                            detail.get("props"), detail.get("length"), _pos(meta))

    def right_dash(self, c):
        return "->" if c[0].type == "RIGHT_ARROW" else "-"

    def rel_detail(self, c):
        d = {}
        for x in c:
            if isinstance(x, A.Variable):
                d["var"] = x.name
            elif isinstance(x, tuple) and x[0] == "types":
                d["types"] = x[1]
            elif isinstance(x, tuple) and x[0] == "length":
                d["length"] = x[1]
            elif isinstance(x, tuple) and x[0] == "props":
                d["props"] = x[1]
        return d

    def rel_types(self, c):
        return ("types", tuple(c))

    def var_length(self, c):
        if len(c) == 1:
            return ("length", (None, None))
        return ("length", c[1])

    def range_bounds(self, c):
        lo = hi = None
        seen_dots = False
        for x in c:
            if x.type == "RANGE_DOTS":
                seen_dots = True
            elif not seen_dots:
                lo = self._int(x)
            else:
                hi = self._int(x)
        return (lo, hi)

    def range_exact(self, c):
        n = self._int(c[0])
        return (n, n)

    # ---- expressions
    def _int(self, tok: Token) -> int:
        v = str(tok).lower()
        try:
            if v.startswith("0x"):
                n = int(v[2:], 16)
            elif v.startswith("0o"):
                n = int(v[2:], 8)
            else:
                n = int(v)
        except ValueError:
            raise self._err(f"invalid number literal {str(tok)}", tok.start_pos, "InvalidNumberLiteral")
        return n

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
        return A.Parameter(str(c[0]), _pos(meta))

    @v_args(meta=True)
    def map_literal(self, meta, c):
        return A.MapLiteral(tuple(c), _pos(meta))

    def map_entry(self, c):
        return (c[0], c[1])

    @v_args(meta=True)
    def list_literal(self, meta, c):
        items = tuple(c)
        # `[x IN list]` alone is a list comprehension, as openCypher reads it
        if (len(items) == 1 and isinstance(items[0], A.Binary) and items[0].op is A.BinOp.IN
                and isinstance(items[0].left, A.Variable)):
            b = items[0]
            return A.ListComprehension(b.left.name, b.right, None, None, _pos(meta))
        return A.ListLiteral(items, _pos(meta))

    def _comprehension(self, pos, head, where, proj):
        if isinstance(head, A.PatternPredicate):
            if proj is None:
                raise self._err("a pattern comprehension needs `| expression`", pos)
            return A.PatternComprehension(None, head.element, where, proj, pos)
        if isinstance(head, A.Binary) and head.op is A.BinOp.IN and isinstance(head.left, A.Variable):
            return A.ListComprehension(head.left.name, head.right, where, proj, pos)
        raise self._err("expected `variable IN list` in a list comprehension", pos)

    @v_args(meta=True)
    def list_comprehension(self, meta, c):
        return self._comprehension(_pos(meta), c[0], c[2] if len(c) > 2 else None, c[3] if len(c) > 3 else None)

    @v_args(meta=True)
    def list_comprehension_map(self, meta, c):
        return self._comprehension(_pos(meta), c[0], None, c[1])

    @v_args(meta=True)
    def pattern_comprehension(self, meta, c):
        var = c[0].name
        pred = c[2]
        rest = [x for x in c[3:] if not isinstance(x, Token)]
        where = rest[0] if len(rest) == 2 else None
        return A.PatternComprehension(var, pred.element, where, rest[-1], _pos(meta))

    @v_args(meta=True)
    def pattern_predicate(self, meta, c):
        nodes = tuple(x for x in c if isinstance(x, A.NodePattern))
        rels = tuple(x for x in c if isinstance(x, A.RelPattern))
        return A.PatternPredicate(A.PatternElement(nodes, rels), _pos(meta))

    @v_args(meta=True)
    def reduce_expr(self, meta, c):
        acc, init, var, source, expression = [x for x in c if not isinstance(x, Token)]
        return A.Reduce(acc.name, init, var.name, source, expression, _pos(meta))

    @v_args(meta=True)
    def quantifier(self, meta, c):
        kind = A.QuantifierKind(str(c[0]).lower())
        exprs = [x for x in c[1:] if not isinstance(x, Token)]
        return A.Quantifier(kind, exprs[0].name, exprs[1], exprs[2] if len(exprs) > 2 else None, _pos(meta))

    @v_args(meta=True)
    def count_call(self, meta, c):
        rest = [x for x in c[1:]]
        if any(isinstance(x, Token) and x.type == "STAR" for x in rest):
            return A.CountStar(_pos(meta))
        distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in rest)
        arg = next(x for x in rest if isinstance(x, A.Expr))
        return A.FunctionCall("count", (arg,), distinct, _pos(meta))

    @v_args(meta=True)
    def exists_call(self, meta, c):
        return A.FunctionCall("exists", (c[1],), False, _pos(meta))

    @v_args(meta=True)
    def function_call(self, meta, c):
        name = c[0]
        distinct = any(isinstance(x, Token) and x.type == "DISTINCT" for x in c[1:])
        args = tuple(x for x in c[1:] if isinstance(x, A.Expr))
        return A.FunctionCall(name, args, distinct, _pos(meta))

    def function_name(self, c):
        return ".".join(_name(x) if isinstance(x, Token) else x for x in c
                        if not (isinstance(x, Token) and x.type == "NS_DOT"))

    @v_args(meta=True)
    def case_expr(self, meta, c):
        items = [x for x in c if not (isinstance(x, Token) and x.type in ("CASE", "END", "ELSE"))]
        subject = None
        if items and not isinstance(items[0], A.CaseWhen):
            subject = items.pop(0)
        whens = tuple(x for x in items if isinstance(x, A.CaseWhen))
        default = items[-1] if items and not isinstance(items[-1], A.CaseWhen) else None
        return A.Case(subject, whens, default, _pos(meta))

    def case_when(self, c):
        return A.CaseWhen(c[1], c[3])

    @v_args(meta=True)
    def map_projection(self, meta, c):
        return A.MapProjection(c[0], tuple(x for x in c[1:] if isinstance(x, A.MapProjItem)), _pos(meta))

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
        query = next((x for x in inner if isinstance(x, A.SingleQuery)), None)
        pattern = next((x for x in inner if isinstance(x, A.Pattern)), None)
        where = next((x[1] for x in inner if isinstance(x, tuple) and x[0] == "where"), None)
        return cls(query, pattern, where, _pos(meta))

    @v_args(meta=True)
    def exists_subquery(self, meta, c):
        return self._subquery(A.ExistsSubquery, meta, c)

    @v_args(meta=True)
    def count_subquery(self, meta, c):
        return self._subquery(A.CountSubquery, meta, c)

    # operators
    def _fold(self, meta, c, op):
        terms = [x for x in c if not isinstance(x, Token)]
        out = terms[0]
        for t in terms[1:]:
            out = A.Binary(op, out, t, _pos(meta))
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
        return A.Unary(A.UnOp.NOT, c[-1], _pos(meta))

    @v_args(meta=True)
    def comparison(self, meta, c):
        operands = tuple(c[0::2])
        ops = tuple(A.BinOp(x) for x in c[1::2])
        if len(operands) == 2:
            return A.Binary(ops[0], operands[0], operands[1], _pos(meta))
        return A.Comparison(operands, ops, _pos(meta))

    def comp_op(self, c):
        return str(c[0])

    def _bin(op):
        @v_args(meta=True)
        def f(self, meta, c):
            terms = [x for x in c if not isinstance(x, Token)]
            return A.Binary(op, terms[0], terms[1], _pos(meta))
        return f

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
    del _bin

    @v_args(meta=True)
    def is_null(self, meta, c):
        return A.Unary(A.UnOp.IS_NULL, c[0], _pos(meta))

    @v_args(meta=True)
    def is_not_null(self, meta, c):
        return A.Unary(A.UnOp.IS_NOT_NULL, c[0], _pos(meta))

    @v_args(meta=True)
    def label_test(self, meta, c):
        return A.LabelTest(c[0], c[1][1], _pos(meta))

    @v_args(meta=True)
    def neg(self, meta, c):
        operand = c[-1]
        if isinstance(operand, A.Literal) and type(operand.value) in (int, float):
            return A.Literal(-operand.value, _pos(meta))
        return A.Unary(A.UnOp.NEG, operand, _pos(meta))

    @v_args(meta=True)
    def pos(self, meta, c):
        return A.Unary(A.UnOp.POS, c[-1], _pos(meta))

    @v_args(meta=True)
    def property(self, meta, c):
        return A.Property(c[0], c[-1], _pos(meta))

    @v_args(meta=True)
    def subscript(self, meta, c):
        return A.Subscript(c[0], c[1], _pos(meta))

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
        return A.Slice(subject, start, end, _pos(meta))


def _check_int_range(stmt: A.Statement, text: str) -> None:
    """The literal 9223372036854775808 is only valid negated; parsing folded the sign in."""
    # A positive literal past INT_MAX survives only when it was not negated.
    stack: list = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, A.Literal):
            if type(node.value) is int and node.value > INT_MAX:
                raise _syntax(text, f"integer literal is too large: {node.value}", node.pos, "IntegerOverflow")
            continue
        if isinstance(node, (tuple, list)):
            stack.extend(node)
        elif isinstance(node, A.Node):
            for name in node.__slots__:
                stack.append(getattr(node, name))


_UNICODE_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")


def parse(text: str) -> A.Statement:
    """Parse one statement (an optional trailing `;` allowed)."""
    marked = prescan(text)
    try:
        tree = _lark().parse(marked)
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            raise _syntax(text, "unexpected end of input", len(text)) from None
        raise _syntax(text, f'unexpected token "{unmark(str(tok))}"', tok.start_pos) from None
    except UnexpectedCharacters as e:
        ch = unmark(text[e.pos_in_stream]) if e.pos_in_stream < len(text) else ""
        # a typographic dash where `-` was meant (text pasted from a document) gets its own kind
        kind = "InvalidUnicodeCharacter" if ch in _UNICODE_DASHES else "ParseError"
        raise _syntax(text, f'unexpected character "{ch}"', e.pos_in_stream, kind) from None
    except UnexpectedEOF:
        raise _syntax(text, "unexpected end of input", len(text)) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark input errors
        raise _syntax(text, "invalid input", getattr(e, "pos_in_stream", 0) or 0) from None
    try:
        stmt = _Build(text).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, RelateError):
            raise e.orig_exc from None
        raise
    _check_int_range(stmt, text)
    return stmt
