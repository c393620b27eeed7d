"""The typed syntax tree of a Cypher statement.

`parser.py` turns lark's parse tree into these frozen, slotted dataclasses; nothing downstream
sees lark.  Every node that can be the subject of an error carries `pos`, the 0-based offset of
its first character in the statement text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .ast_labels import (CypherType, DynamicLabel, LabelAnd, LabelExpr, LabelName, LabelNot,  # noqa: F401
                         LabelOr, LabelWildcard)
from .ast_node import WHEN_SET, Expr, Node, Parameter, _opt  # noqa: F401
from .ast_schema import SCHEMA_COMMANDS, CreateConstraint, CreateIndex, DropConstraint, DropIndex  # noqa: F401


# ---------------------------------------------------------------- expressions

@dataclass(frozen=True, slots=True)
class Literal(Expr):
    value: object
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Variable(Expr):
    name: str
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Property(Expr):
    subject: Expr
    key: str
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Subscript(Expr):
    subject: Expr
    index: Expr
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Slice(Expr):
    subject: Expr
    start: Expr | None
    end: Expr | None
    pos: int = 0


class BinOp(Enum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    MOD = "%"
    POW = "^"
    EQ = "="
    NE = "<>"
    LT = "<"
    GT = ">"
    LE = "<="
    GE = ">="
    AND = "AND"
    OR = "OR"
    XOR = "XOR"
    IN = "IN"
    STARTS_WITH = "STARTS WITH"
    ENDS_WITH = "ENDS WITH"
    CONTAINS = "CONTAINS"
    REGEX = "=~"
    CONCAT = "||"


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: BinOp
    left: Expr
    right: Expr
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Comparison(Expr):
    """A chain `a < b <= c`: each adjacent pair compared, results ANDed."""

    operands: tuple[Expr, ...]
    ops: tuple[BinOp, ...]
    pos: int = 0


class UnOp(Enum):
    NOT = "NOT"
    NEG = "-"
    POS = "+"
    IS_NULL = "IS NULL"
    IS_NOT_NULL = "IS NOT NULL"


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: UnOp
    operand: Expr
    pos: int = 0


@dataclass(frozen=True, slots=True)
class LabelTest(Expr):
    """`subject:A:B` (`labels`, all of them) or, for a Neo4j 5 label expression, `subject:A|B`,
    `subject IS !A`, ... (`expr`; then `labels` is empty)."""

    subject: Expr
    labels: tuple[str, ...]
    pos: int = 0
    expr: "LabelExpr | None" = _opt()


@dataclass(frozen=True, slots=True)
class TypePredicate(Expr):
    """`subject IS [NOT] :: type` (also `IS [NOT] TYPED type` and `subject :: type`)."""

    subject: Expr
    type: CypherType
    negated: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class NormalizedTest(Expr):
    """`subject IS [NOT] [NFC | NFD | NFKC | NFKD] NORMALIZED`."""

    subject: Expr
    form: str = "NFC"
    negated: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class ListLiteral(Expr):
    items: tuple[Expr, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class MapLiteral(Expr):
    entries: tuple[tuple[str, Expr], ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class FunctionCall(Expr):
    name: str  # as written, namespaces joined with '.'
    args: tuple[Expr, ...]
    distinct: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class CountStar(Expr):
    pos: int = 0


@dataclass(frozen=True, slots=True)
class CaseWhen(Node):
    when: Expr
    then: Expr


@dataclass(frozen=True, slots=True)
class Case(Expr):
    subject: Expr | None
    whens: tuple[CaseWhen, ...]
    default: Expr | None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class ListComprehension(Expr):
    variable: str
    source: Expr
    predicate: Expr | None
    projection: Expr | None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Reduce(Expr):
    """`reduce(accumulator = init, variable IN source | expression)`."""

    accumulator: str
    init: Expr
    variable: str
    source: Expr
    expression: Expr
    pos: int = 0


class QuantifierKind(Enum):
    ALL = "all"
    ANY = "any"
    NONE = "none"
    SINGLE = "single"


@dataclass(frozen=True, slots=True)
class Quantifier(Expr):
    kind: QuantifierKind
    variable: str
    source: Expr
    predicate: Expr | None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class PatternPredicate(Expr):
    element: "PatternElement"
    pos: int = 0


@dataclass(frozen=True, slots=True)
class PatternComprehension(Expr):
    path_variable: str | None
    element: "PatternElement"
    predicate: Expr | None
    projection: Expr
    pos: int = 0


class MapProjKind(Enum):
    PROPERTY = "property"
    ALL = "all"
    LITERAL = "literal"
    VARIABLE = "variable"


@dataclass(frozen=True, slots=True)
class MapProjItem(Node):
    kind: MapProjKind
    key: str
    value: Expr | None = None


@dataclass(frozen=True, slots=True)
class MapProjection(Expr):
    subject: Variable
    items: tuple[MapProjItem, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class ExistsSubquery(Expr):
    query: "SingleQuery | Query | None"  # a Query when its parts are joined by UNION
    pattern: "Pattern | None"
    where: Expr | None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class CountSubquery(Expr):
    query: "SingleQuery | Query | None"
    pattern: "Pattern | None"
    where: Expr | None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class CollectSubquery(Expr):
    """`COLLECT { query }`: the list of the values of its one column (a full query only; the
    pattern and where fields stay None, as for the other subquery expressions' full form)."""

    query: "SingleQuery | Query"
    pattern: None = None
    where: None = None
    pos: int = 0


# the subquery expressions (they share the fields query, pattern and where)
SUBQUERY_EXPRS = (ExistsSubquery, CountSubquery, CollectSubquery)


# ---------------------------------------------------------------- patterns

class Direction(Enum):
    OUT = "->"
    IN = "<-"
    BOTH = "--"


@dataclass(frozen=True, slots=True)
class NodePattern(Node):
    variable: str | None
    labels: tuple[str, ...]
    properties: Expr | None  # MapLiteral or Parameter
    pos: int = 0
    label_expr: LabelExpr | None = _opt()  # a label expression other than a plain conjunction
    where: Expr | None = _opt()            # an inline WHERE CREATE/MERGE refuse (MATCH lifts it)
    amp: bool = _opt(False)                # the labels were joined with `&` (`:A&B`), not colons


@dataclass(frozen=True, slots=True)
class RelPattern(Node):
    variable: str | None
    types: tuple[str, ...]
    direction: Direction
    properties: Expr | None
    length: tuple[int | None, int | None] | None  # None: one hop; (min, max) for `*min..max`
    pos: int = 0
    type_expr: LabelExpr | None = _opt()  # a type expression other than a plain disjunction
    where: Expr | None = _opt()           # an inline WHERE CREATE/MERGE/var-length refuse
    # Neo4j 5: `-[r]->{m,n}` (a quantified relationship: `length` holds its bounds, the minimum
    # always given) or a quantified path pattern standing between two nodes (`group`: this
    # relationship is then a placeholder, anonymous and untyped, whose `length` is the quantifier)
    quantified: bool = _opt(False)
    group: "QuantifiedPath | None" = _opt()


@dataclass(frozen=True, slots=True)
class PatternElement(Node):
    nodes: tuple[NodePattern, ...]
    rels: tuple[RelPattern, ...]  # len(nodes) == len(rels) + 1


@dataclass(frozen=True, slots=True)
class PatternPart(Node):
    variable: str | None
    element: PatternElement
    shortest: str | None = None  # None, "shortestPath" or "allShortestPaths"
    pos: int = 0
    # Neo4j 5: a path selector (`SHORTEST 2 (...)`) and the WHERE of a parenthesised whole pattern
    selector: "PathSelector | None" = _opt()
    where: Expr | None = _opt()


@dataclass(frozen=True, slots=True)
class QuantifiedPath(Node):
    """`((a)-[r]->(b) WHERE ...){lo,hi}`: the inner element matched `lo` to `hi` times in a row
    (hi None: no bound), each iteration starting where the one before ended.  Outside the
    quantifier each variable of `element` is a group variable: a list, one entry per iteration."""

    element: PatternElement
    lo: int
    hi: int | None
    where: Expr | None = None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class PathSelector(Node):
    """`ANY k`, `SHORTEST k`, `ALL SHORTEST`, `SHORTEST k GROUPS`, `ALL`: which of the matched
    paths between each pair of end nodes are kept.  kind: "any", "shortest", "groups", "all"
    (`ALL SHORTEST` is `groups` with k = 1, `ANY SHORTEST` is `shortest` with k = 1)."""

    kind: str
    k: int
    text: str  # as written, for EXPLAIN and errors
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Pattern(Node):
    parts: tuple[PatternPart, ...]


# ---------------------------------------------------------------- clauses

@dataclass(frozen=True, slots=True)
class Clause(Node):
    pass


@dataclass(frozen=True, slots=True)
class Match(Clause):
    pattern: Pattern
    where: Expr | None
    optional: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Unwind(Clause):
    expr: Expr
    variable: str
    pos: int = 0


@dataclass(frozen=True, slots=True)
class LoadCsv(Clause):
    """`LOAD CSV [WITH HEADERS] FROM source AS variable [FIELDTERMINATOR terminator]`."""
    source: Expr
    variable: str
    headers: bool = False
    terminator: Expr | None = None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class ProjectionItem(Node):
    expr: Expr
    alias: str | None
    text: str  # the expression as written: the column name when unaliased
    pos: int = 0


@dataclass(frozen=True, slots=True)
class SortItem(Node):
    expr: Expr
    descending: bool = False


@dataclass(frozen=True, slots=True)
class Projection(Node):
    items: tuple[ProjectionItem, ...]
    star: bool = False
    distinct: bool = False
    order: tuple[SortItem, ...] = ()
    skip: Expr | None = None
    limit: Expr | None = None


@dataclass(frozen=True, slots=True)
class With(Clause):
    projection: Projection
    where: Expr | None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Return(Clause):
    projection: Projection
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Create(Clause):
    pattern: Pattern
    pos: int = 0
    insert: bool = _opt(False)  # written INSERT (GQL), which joins labels with `&` only


class SetKind(Enum):
    PROPERTY = "property"   # a.b = e
    REPLACE = "replace"     # a = {map}
    MERGE = "merge"         # a += {map}
    LABELS = "labels"       # a:L


@dataclass(frozen=True, slots=True)
class SetItem(Node):
    kind: SetKind
    target: Expr  # Property for PROPERTY, Variable otherwise
    value: Expr | None = None
    labels: tuple[str, ...] = ()
    dynamic: tuple["DynamicLabel", ...] = _opt(())  # `SET n:$(expr)`


@dataclass(frozen=True, slots=True)
class SetClause(Clause):
    items: tuple[SetItem, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Merge(Clause):
    part: PatternPart
    on_match: tuple[SetItem, ...] = ()
    on_create: tuple[SetItem, ...] = ()
    pos: int = 0


@dataclass(frozen=True, slots=True)
class RemoveItem(Node):
    target: Expr  # Property, or Variable with labels
    labels: tuple[str, ...] = ()
    dynamic: tuple["DynamicLabel", ...] = _opt(())  # `REMOVE n:$(expr)`


@dataclass(frozen=True, slots=True)
class Remove(Clause):
    items: tuple[RemoveItem, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Delete(Clause):
    exprs: tuple[Expr, ...]
    detach: bool = False
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Foreach(Clause):
    variable: str
    source: Expr
    body: tuple[Clause, ...]
    pos: int = 0


@dataclass(frozen=True, slots=True)
class YieldItem(Node):
    name: str
    alias: str | None


@dataclass(frozen=True, slots=True)
class Call(Clause):
    procedure: str
    args: tuple[Expr, ...] | None  # None: implicit arguments (no parentheses)
    yields: tuple[YieldItem, ...] | None  # None: no YIELD; () with star
    yield_star: bool = False
    where: Expr | None = None
    pos: int = 0
    optional: bool = False  # OPTIONAL CALL: a row the procedure answers with nothing goes on with nulls


@dataclass(frozen=True, slots=True)
class InTransactions(Node):
    """`IN [n CONCURRENT] TRANSACTIONS [OF n ROWS] [ON ERROR ...] [REPORT STATUS AS s]`."""

    batch: Expr | None = None  # rows per inner transaction; None: the default (1000)
    on_error: str = "FAIL"  # CONTINUE, BREAK, FAIL or RETRY
    retry_for: Expr | None = None  # RETRY FOR n SECONDS
    retry_then: str | None = None  # RETRY ... THEN CONTINUE | BREAK | FAIL
    report: str | None = None  # REPORT STATUS AS name
    concurrent: bool = False
    concurrency: Expr | None = None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class SubqueryCall(Clause):
    """`[OPTIONAL] CALL [(x, y) | (*) | ()] { query } [IN TRANSACTIONS ...]`."""

    query: "Query"
    scope: tuple[Variable, ...] | None = None  # the variable scope clause; None: there is none
    scope_all: bool = False  # CALL (*)
    optional: bool = False
    transactions: InTransactions | None = None
    pos: int = 0


@dataclass(frozen=True, slots=True)
class Finish(Clause):
    pos: int = 0


# ---------------------------------------------------------------- statements

@dataclass(frozen=True, slots=True)
class SingleQuery(Node):
    clauses: tuple[Clause, ...]


@dataclass(frozen=True, slots=True)
class Query(Node):
    parts: tuple[SingleQuery, ...]
    union_all: tuple[bool, ...] = ()  # one per UNION between parts


@dataclass(frozen=True, slots=True)
class Statement(Node):
    body: Query | CreateIndex | DropIndex | CreateConstraint | DropConstraint
    explain: bool = False
    profile: bool = False
    text: str = field(default="", compare=False)
    # AT VALID / AS OF (`temporal_prefix.TemporalPrefix`), None for a statement without one
    temporal: object = field(default=None, compare=False, repr=False)
