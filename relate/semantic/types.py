"""Expression AST + variable types -> the static type of the expression, and the compile-time
type checks that use it.

A static type is the set of kinds a value may have at run time (`Kind` flags) plus, for lists,
the type of their elements.  Inference is deliberately loose: anything it cannot pin down is
`ANY`, and a check fails only when the operand can have *no* acceptable kind, so a statement that
might succeed at run time is never refused here.  Null is acceptable everywhere (it propagates).

The openCypher TCK reports such refusals as `SyntaxError` at compile time with the detail
`InvalidArgumentType` (`RETURN 1 AND true`, `WITH 1 AS x RETURN x.key`, ...).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..errors import CypherSyntaxError, E
from ..syntax import ast as A


class Kind(enum.Flag):
    NULL = enum.auto()
    BOOLEAN = enum.auto()
    INTEGER = enum.auto()
    FLOAT = enum.auto()
    STRING = enum.auto()
    LIST = enum.auto()
    MAP = enum.auto()
    NODE = enum.auto()
    RELATIONSHIP = enum.auto()
    PATH = enum.auto()
    OTHER = enum.auto()  # temporal and spatial values: no static rules yet


ALL_KINDS = (Kind.NULL | Kind.BOOLEAN | Kind.INTEGER | Kind.FLOAT | Kind.STRING | Kind.LIST | Kind.MAP
             | Kind.NODE | Kind.RELATIONSHIP | Kind.PATH | Kind.OTHER)
NUMBER = Kind.INTEGER | Kind.FLOAT


@dataclass(frozen=True, slots=True)
class SType:
    """Kinds a value may have; `elem` is the element type when LIST is among them (None: any)."""

    kinds: Kind
    elem: "SType | None" = None

    def __or__(self, other: "SType") -> "SType":
        elem = None
        if self.elem is not None and other.elem is not None:
            elem = self.elem | other.elem
        elif Kind.LIST not in other.kinds:
            elem = self.elem
        elif Kind.LIST not in self.kinds:
            elem = other.elem
        return SType(self.kinds | other.kinds, elem)

    def element(self) -> "SType":
        """The type of an element of a value of this type (null when not a list)."""
        return self.elem if self.elem is not None else ANY


ANY = SType(ALL_KINDS)
NULL = SType(Kind.NULL)
BOOLEAN = SType(Kind.BOOLEAN | Kind.NULL)
INTEGER = SType(Kind.INTEGER | Kind.NULL)
FLOAT = SType(Kind.FLOAT | Kind.NULL)
STRING = SType(Kind.STRING | Kind.NULL)
MAP = SType(Kind.MAP | Kind.NULL)
NODE = SType(Kind.NODE)
RELATIONSHIP = SType(Kind.RELATIONSHIP)
PATH = SType(Kind.PATH)


def list_of(elem: SType | None) -> SType:
    return SType(Kind.LIST, elem)


def of_value(v: object) -> SType:
    """The exact type of a literal value."""
    if v is None:
        return NULL
    if v is True or v is False:
        return SType(Kind.BOOLEAN)
    if isinstance(v, int):
        return SType(Kind.INTEGER)
    if isinstance(v, float):
        return SType(Kind.FLOAT)
    if isinstance(v, str):
        return SType(Kind.STRING)
    if isinstance(v, list):
        return list_of(_union(of_value(x) for x in v))
    if isinstance(v, dict):
        return SType(Kind.MAP)
    return ANY


def _union(types) -> SType | None:
    out = None
    for t in types:
        out = t if out is None else out | t
    return out


_KIND_NAMES = {Kind.NULL: "Null", Kind.BOOLEAN: "Boolean", Kind.INTEGER: "Integer", Kind.FLOAT: "Float",
               Kind.STRING: "String", Kind.LIST: "List<T>", Kind.MAP: "Map", Kind.NODE: "Node",
               Kind.RELATIONSHIP: "Relationship", Kind.PATH: "Path", Kind.OTHER: "Any"}


def describe(kinds: Kind) -> str:
    names = [name for k, name in _KIND_NAMES.items() if k in kinds and k is not Kind.NULL]
    if not names:
        return "Null"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def mismatch(expected: Kind, got: SType, pos: int, position=None) -> CypherSyntaxError:
    return E.Syntax.InvalidArgumentType(
        expected=describe(expected), got=describe(got.kinds), position=position)


def admits(t: SType, accepted: Kind) -> bool:
    """Can a value of type `t` be acceptable?  A null is, but a type that merely may be null
    (`toUpper(x)`: a string or null) is judged by its other kinds, as Cypher types are."""
    if t.kinds == Kind.NULL:
        return True
    return bool(t.kinds & (accepted | Kind.OTHER))


# ------------------------------------------------------------------ function signatures

# name -> (accepted kinds per argument position, result type); the last entry repeats for
# variadic functions.  Functions not listed take and return ANY.
_S, _I, _F, _N = Kind.STRING, Kind.INTEGER, Kind.FLOAT, NUMBER
_GRAPH = Kind.NODE | Kind.RELATIONSHIP
SIGNATURES: dict[str, tuple[tuple[Kind, ...], SType]] = {
    "tostring": ((_N | _S | Kind.BOOLEAN,), STRING),
    "tostringornull": ((ALL_KINDS,), STRING),
    "tointeger": ((_N | _S | Kind.BOOLEAN,), INTEGER),
    "tointegerornull": ((ALL_KINDS,), INTEGER),
    "tofloat": ((_N | _S,), FLOAT),
    "tofloatornull": ((ALL_KINDS,), FLOAT),
    "toboolean": ((_S | Kind.BOOLEAN | _I,), BOOLEAN),
    "tobooleanornull": ((ALL_KINDS,), BOOLEAN),
    "size": ((_S | Kind.LIST,), INTEGER),
    "length": ((Kind.PATH,), INTEGER),  # Neo4j 5: paths only (size() counts strings and lists)
    "labels": ((Kind.NODE,), list_of(SType(Kind.STRING))),
    "type": ((Kind.RELATIONSHIP,), STRING),
    "id": ((_GRAPH,), INTEGER),
    "elementid": ((_GRAPH,), STRING),
    "keys": ((_GRAPH | Kind.MAP,), list_of(SType(Kind.STRING))),
    "properties": ((_GRAPH | Kind.MAP,), MAP),
    "startnode": ((Kind.RELATIONSHIP,), SType(Kind.NODE | Kind.NULL)),
    "endnode": ((Kind.RELATIONSHIP,), SType(Kind.NODE | Kind.NULL)),
    "nodes": ((Kind.PATH,), list_of(SType(Kind.NODE))),
    "relationships": ((Kind.PATH,), list_of(SType(Kind.RELATIONSHIP))),
    "head": ((Kind.LIST,), ANY),
    "last": ((Kind.LIST,), ANY),
    "tail": ((Kind.LIST,), ANY),
    "reverse": ((_S | Kind.LIST,), ANY),
    "toupper": ((_S,), STRING),
    "tolower": ((_S,), STRING),
    "trim": ((_S,), STRING),
    "ltrim": ((_S, _S), STRING),
    "rtrim": ((_S, _S), STRING),
    "substring": ((_S, _I, _I), STRING),
    "left": ((_S, _I), STRING),
    "right": ((_S, _I), STRING),
    "split": ((_S, _S | Kind.LIST), list_of(SType(Kind.STRING))),
    "replace": ((_S, _S, _S), STRING),
    "btrim": ((_S, _S), STRING),
    "upper": ((_S,), STRING),
    "lower": ((_S,), STRING),
    "char_length": ((_S,), INTEGER),
    "character_length": ((_S,), INTEGER),
    "normalize": ((_S, _S), STRING),
    "isempty": ((_S | Kind.LIST | Kind.MAP,), BOOLEAN),
    "nullif": ((ALL_KINDS, ALL_KINDS), ANY),
    "valuetype": ((ALL_KINDS,), SType(Kind.STRING)),
    "randomuuid": ((), SType(Kind.STRING)),
    "timestamp": ((), SType(Kind.INTEGER)),
    "abs": ((_N,), SType(NUMBER | Kind.NULL)),
    "sign": ((_N,), INTEGER),
    "ceil": ((_N,), FLOAT),
    "floor": ((_N,), FLOAT),
    "round": ((_N, _N, _S), FLOAT),
    "sqrt": ((_N,), FLOAT),
    "exp": ((_N,), FLOAT),
    "log": ((_N,), FLOAT),
    "log10": ((_N,), FLOAT),
    "sin": ((_N,), FLOAT),
    "cos": ((_N,), FLOAT),
    "tan": ((_N,), FLOAT),
    "cot": ((_N,), FLOAT),
    "asin": ((_N,), FLOAT),
    "acos": ((_N,), FLOAT),
    "atan": ((_N,), FLOAT),
    "atan2": ((_N, _N), FLOAT),
    "degrees": ((_N,), FLOAT),
    "radians": ((_N,), FLOAT),
    "haversin": ((_N,), FLOAT),
    "pi": ((), SType(Kind.FLOAT)),
    "e": ((), SType(Kind.FLOAT)),
    "rand": ((), SType(Kind.FLOAT)),
    # range() checks its argument types at run time only (the TCK asks for a runtime error)
    "range": ((ALL_KINDS, ALL_KINDS, ALL_KINDS), list_of(SType(Kind.INTEGER))),
    "count": ((ALL_KINDS,), SType(Kind.INTEGER)),
    "sum": ((_N | Kind.OTHER,), SType(NUMBER | Kind.OTHER)),
    "avg": ((_N | Kind.OTHER,), SType(NUMBER | Kind.OTHER | Kind.NULL)),
    "stdev": ((_N,), SType(Kind.FLOAT)),
    "stdevp": ((_N,), SType(Kind.FLOAT)),
    "percentiledisc": ((_N, _N), SType(NUMBER | Kind.NULL)),
    "percentilecont": ((_N, _N), FLOAT),
}


class Typer:
    """Infers static types; `var_type(name)` answers for variables in scope."""

    def __init__(self, var_type) -> None:
        self.var_type = var_type
        self._known: dict[int, tuple] = {}  # id(expr) -> (expr, type): each subtree typed once

    def of(self, e: A.Expr) -> SType:
        hit = self._known.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        method = getattr(self, "_" + type(e).__name__, None)
        t = ANY if method is None else method(e)
        self._known[id(e)] = (e, t)
        return t

    def _Literal(self, e):
        return of_value(e.value)

    def _Variable(self, e):
        return self.var_type(e.name)

    def _Subscript(self, e):
        s = self.of(e.subject)
        if s.kinds & ~Kind.NULL == Kind.LIST:
            return s.element() | NULL
        return ANY

    def _Slice(self, e):
        s = self.of(e.subject)
        if s.kinds & ~Kind.NULL == Kind.LIST:
            return SType(Kind.LIST | Kind.NULL, s.elem)
        return ANY

    def _Binary(self, e):
        op = e.op
        if op in _BOOL_OPS:
            return BOOLEAN
        if op is A.BinOp.ADD:
            left, right = self.of(e.left), self.of(e.right)
            if Kind.OTHER in left.kinds | right.kinds:
                return ANY
            if left.kinds & ~Kind.NULL == Kind.LIST or right.kinds & ~Kind.NULL == Kind.LIST:
                return SType(Kind.LIST | Kind.NULL)
            lk, rk = left.kinds & ~Kind.NULL, right.kinds & ~Kind.NULL
            if Kind.STRING in (lk, rk) and not (lk | rk) & ~(Kind.STRING | NUMBER):
                return STRING  # concatenation, numbers written as text
            return _numeric_result(left, right) or ANY
        if op in (A.BinOp.SUB, A.BinOp.MUL, A.BinOp.DIV, A.BinOp.MOD):
            return _numeric_result(self.of(e.left), self.of(e.right)) or ANY
        if op is A.BinOp.POW:
            return FLOAT
        if op is A.BinOp.CONCAT:
            return _concat_result(self.of(e.left), self.of(e.right))
        return ANY

    def _Comparison(self, e):
        return BOOLEAN

    def _Unary(self, e):
        if e.op in (A.UnOp.IS_NULL, A.UnOp.IS_NOT_NULL):
            return SType(Kind.BOOLEAN)
        if e.op is A.UnOp.NOT:
            return BOOLEAN
        return self.of(e.operand)

    def _LabelTest(self, e):
        return BOOLEAN

    def _TypePredicate(self, e):
        return SType(Kind.BOOLEAN)

    def _NormalizedTest(self, e):
        return BOOLEAN

    def _ListLiteral(self, e):
        return list_of(_union(self.of(x) for x in e.items))

    def _MapLiteral(self, e):
        return SType(Kind.MAP)

    def _MapProjection(self, e):
        return MAP

    def _FunctionCall(self, e):
        name = e.name.lower()
        if name == "collect" and e.args:
            return list_of(SType(self.of(e.args[0]).kinds & ~Kind.NULL or Kind.NULL, self.of(e.args[0]).elem))
        if name in ("min", "max", "coalesce") and e.args:
            return _union(self.of(a) for a in e.args) | NULL
        if name == "nullif" and e.args:
            return self.of(e.args[0]) | NULL
        if name in ("head", "last") and e.args:
            return self.of(e.args[0]).element() | NULL
        if name in ("tail", "reverse") and e.args:
            t = self.of(e.args[0])
            return t if t.kinds & ~Kind.NULL in (Kind.LIST, Kind.STRING) else ANY
        sig = SIGNATURES.get(name)
        return ANY if sig is None else sig[1]

    def _CountStar(self, e):
        return SType(Kind.INTEGER)

    def _Case(self, e):
        out = _union(self.of(w.then) for w in e.whens)
        return out | (self.of(e.default) if e.default is not None else NULL)

    def _ListComprehension(self, e):
        if e.projection is None:
            return SType(Kind.LIST | Kind.NULL, self.of(e.source).elem)
        inner = Typer(_shadow(self.var_type, e.variable, self.of(e.source).element()))
        return SType(Kind.LIST | Kind.NULL, inner.of(e.projection))

    def _Quantifier(self, e):
        return BOOLEAN

    def _Reduce(self, e):
        return ANY

    def _PatternPredicate(self, e):
        return SType(Kind.BOOLEAN)

    def _PatternComprehension(self, e):
        return SType(Kind.LIST)

    def _ExistsSubquery(self, e):
        return SType(Kind.BOOLEAN)

    def _CountSubquery(self, e):
        return SType(Kind.INTEGER)

    def _CollectSubquery(self, e):
        return SType(Kind.LIST)  # never null: no rows make the empty list


_BOOL_OPS = frozenset({A.BinOp.AND, A.BinOp.OR, A.BinOp.XOR, A.BinOp.EQ, A.BinOp.NE, A.BinOp.LT,
                       A.BinOp.GT, A.BinOp.LE, A.BinOp.GE, A.BinOp.IN, A.BinOp.STARTS_WITH,
                       A.BinOp.ENDS_WITH, A.BinOp.CONTAINS, A.BinOp.REGEX})


def _concat_result(left: SType, right: SType) -> SType:
    """`a || b`: a string from strings, a list from lists (null when either side is null)."""
    kinds = (left.kinds | right.kinds) & ~Kind.NULL
    nullable = (left.kinds | right.kinds) & Kind.NULL
    if kinds == Kind.STRING:
        return SType(Kind.STRING | nullable)
    if kinds == Kind.LIST:
        elems = [t.elem for t in (left, right) if Kind.LIST in t.kinds]
        elem = elems[0] | elems[1] if len(elems) == 2 and None not in elems else None
        return SType(Kind.LIST | nullable, elem)
    return SType(Kind.STRING | Kind.LIST | Kind.NULL) if not kinds & ~(Kind.STRING | Kind.LIST) else ANY


def _numeric_result(left: SType, right: SType) -> SType | None:
    lk, rk = left.kinds & ~Kind.NULL, right.kinds & ~Kind.NULL
    nullable = Kind.NULL if (left.kinds | right.kinds) & Kind.NULL else Kind(0)
    if not lk or not rk:
        return NULL
    if lk | rk == Kind.INTEGER:
        return SType(Kind.INTEGER | nullable)
    if lk & ~NUMBER or rk & ~NUMBER:
        return None
    if Kind.INTEGER not in lk or Kind.INTEGER not in rk:
        return SType(Kind.FLOAT | nullable)
    return SType(NUMBER | nullable)


def _shadow(var_type, name: str, t: SType):
    return lambda n: t if n == name else var_type(n)


def shadowed(var_type, name: str, t: SType):
    """`var_type` with `name` rebound to `t` (the variable of a comprehension or quantifier)."""
    return _shadow(var_type, name, t)


# ------------------------------------------------------------------ operator checks

def add_admits(left: SType, right: SType) -> bool:
    """Is there any pair of kinds for which `left + right` is defined?"""
    lk, rk = left.kinds, right.kinds
    if (lk | rk) & (Kind.NULL | Kind.OTHER | Kind.LIST):
        return True
    if lk & NUMBER and rk & (NUMBER | Kind.STRING):
        return True
    if lk & Kind.STRING and rk & (NUMBER | Kind.STRING):
        return True
    return False


def pattern_types(part: A.PatternPart) -> list[tuple[str, SType]]:
    """The variables a pattern part binds, with their types (a variable-length relationship
    binds a list of relationships; a named pattern binds a path)."""
    out: list[tuple[str, SType]] = []
    el = part.element
    for n in el.nodes:
        if n.variable:
            out.append((n.variable, NODE))
    for r in el.rels:
        if r.variable:
            out.append((r.variable, RELATIONSHIP if r.length is None else list_of(RELATIONSHIP)))
        if r.group is not None:  # group variables: lists outside their quantified path pattern
            for n in r.group.element.nodes:
                if n.variable:
                    out.append((n.variable, list_of(NODE)))
            for g in r.group.element.rels:
                if g.variable:
                    out.append((g.variable, list_of(RELATIONSHIP)))
    if part.variable:
        out.append((part.variable, PATH))
    return out
