"""A pattern part -> `MatchSpec`, the frozen description of how it is matched; an aggregation
over one -> `CountSpec`, how its rows are counted.

The planner builds the generic specification (`MatchSpec.generic`: the part's first node as the
anchor, a label scan or every node, the inline property map checked per node, every WHERE
conjunct left to the filter after the match; `CountSpec`: count the rows).  The rules in `rules/`
each return a better one; `exec/match.py` and `exec/grouped_count.py` run what a specification
says and decide nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..exec.index_seek import SeekKind
from ..exec.match import hidden_name
from ..exec.scan_filter import Op
from ..syntax import ast as A


class Access(Enum):
    """Where the anchor's candidate nodes come from."""

    BOUND = "bound"              # a variable bound before the part: one candidate per row
    ALL_NODES = "all nodes"      # an unlabelled anchor: every node
    LABEL_SCAN = "label scan"    # the nodes of the anchor's (smallest) label
    LABEL_UNION = "label union"  # the nodes of any of the labels of a disjunction (`:A|B`)
    INDEX_SEEK = "index seek"    # the nodes an index gives for one property value


class Counting(Enum):
    """How an aggregation that only counts gets its counts."""

    ROWS = "rows"                # the generic Aggregate loop over the rows of the match
    CANDIDATES = "candidates"    # count the anchor's candidate nodes per key values, no rows
    COLUMNS = "columns"          # ... read from the label's property columns (`Graph.column`)
    TRAILS = "trails"            # count the trails of a var-length expand, no path or row built
    ENDS = "distinct ends"       # count distinct ends of a fixed chain: node frontiers, no rows


@dataclass(frozen=True, slots=True)
class PropertyTest:
    """One simple test on the anchor, run over the candidates before any row is built."""

    key: str
    op: Op
    value: A.Expr | None = None          # None for IS [NOT] NULL
    conjunct: A.Expr | None = None       # the WHERE conjunct it came from; None: an inline map entry
    column: bool = False                 # an equality the label's property column may answer


@dataclass(frozen=True, slots=True)
class IndexSeek:
    """The anchor's candidates from the index `index` on (label, key); with `rel` set, from
    the relationship index on (type, key) for one value: the anchor is an end of the part's
    `rel`-th relationship, and its candidates are that end of the relationships found (the walk
    still checks the equality on the relationship, which stays in the WHERE or the inline map).
    A node seek answers its conjuncts exactly: they leave the WHERE."""

    label: str                           # the label, or the relationship type
    key: str
    value: A.Expr | None                 # never reads a node of the part; None for RANGE
    conjunct: A.Expr | None = None       # the WHERE conjunct it answers; None: an inline map entry
    rel: int | None = None               # the relationship whose index answers
    ends: str = ""                       # rel: "start", "end" or "both" (which end is the anchor)
    index: str = ""                      # the index's name, as SHOW INDEXES lists it
    kind: SeekKind = SeekKind.EQUAL
    bounds: tuple[tuple[Op, A.Expr], ...] = ()   # RANGE: (op, value) pairs, at most one per side
    more: tuple[A.Expr, ...] = ()        # RANGE: a second conjunct it answers (the other side)
    # COMPOSITE: the equalities on the index's first keys, in its order: (key, value, the WHERE
    # conjunct or None for an inline map entry); `key` and `bounds` then give the range, if any
    equal: tuple[tuple[str, A.Expr, A.Expr | None], ...] = ()
    other: A.Expr | None = None          # BBOX: the upper-right corner; DISTANCE: the radius

    @property
    def range_conjuncts(self) -> tuple[A.Expr, ...]:
        return ((self.conjunct,) if self.conjunct is not None else ()) + self.more

    @property
    def conjuncts(self) -> tuple[A.Expr, ...]:
        return self.range_conjuncts + tuple(c for _, _, c in self.equal if c is not None)

    @property
    def keys(self) -> tuple[str, ...]:
        """The properties it answers a test on."""
        if self.kind is SeekKind.COMPOSITE:
            return tuple(k for k, _, _ in self.equal) + ((self.key,) if self.bounds else ())
        return (self.key,)


@dataclass(frozen=True, slots=True)
class Hop:
    """One relationship of the walk: the pattern's `rel`-th, walked right to left when `reverse`."""

    rel: int
    reverse: bool


@dataclass(frozen=True, slots=True)
class MatchSpec:
    part: A.PatternPart
    outer: frozenset[str]                # the variables bound before the part
    where: tuple[A.Expr, ...] = ()       # WHERE conjuncts not taken (yet) by a scan or a seek
    anchor: int = 0                      # the node the walk starts from
    seek: IndexSeek | None = None
    tests: tuple[PropertyTest, ...] = ()
    answered: tuple[int, ...] = ()       # entries of the anchor's inline map the seek or the tests answer
    union: tuple[str, ...] = ()          # LABEL_UNION: the labels whose scans give the candidates

    @staticmethod
    def generic(part: A.PatternPart, outer, where=()) -> "MatchSpec":
        return MatchSpec(part, frozenset(outer), tuple(where))

    @property
    def names(self) -> tuple[str, ...]:
        """The name of each node of the part (hidden names for anonymous nodes)."""
        return tuple(n.variable or hidden_name("n", n.pos, i) for i, n in enumerate(self.part.element.nodes))

    @property
    def anchor_node(self) -> A.NodePattern:
        return self.part.element.nodes[self.anchor]

    @property
    def anchor_name(self) -> str:
        n = self.anchor_node
        return n.variable or hidden_name("n", n.pos, self.anchor)

    @property
    def anchor_bound(self) -> bool:
        return self.anchor_name in self.outer

    @property
    def access(self) -> Access:
        if self.anchor_bound:
            return Access.BOUND
        if self.seek is not None:
            return Access.INDEX_SEEK
        if self.union:
            return Access.LABEL_UNION
        return Access.LABEL_SCAN if self.anchor_node.labels else Access.ALL_NODES

    @property
    def node_check(self) -> A.Expr | None:
        """What of the anchor's inline property map is still checked node by node."""
        props = self.anchor_node.properties
        if not self.answered or not isinstance(props, A.MapLiteral):
            return props
        rest = tuple(e for j, e in enumerate(props.entries) if j not in self.answered)
        return A.MapLiteral(rest, props.pos) if rest else None

    @property
    def hops(self) -> tuple[Hop, ...]:
        """The walk: right of the anchor as written, then left of it, outward."""
        n = len(self.part.element.rels)
        return (tuple(Hop(i, False) for i in range(self.anchor, n))
                + tuple(Hop(i, True) for i in range(self.anchor - 1, -1, -1)))

    @property
    def whole_label(self) -> str | None:
        """The one label whose every node the anchor takes, unfiltered; else None."""
        if (self.access is not Access.LABEL_SCAN or self.tests or self.node_check is not None
                or self.anchor_node.label_expr is not None):
            return None
        labels = self.anchor_node.labels
        return labels[0] if len(labels) == 1 else None


@dataclass(frozen=True, slots=True)
class CountSpec:
    """An aggregation straight over a MATCH: its grouping keys and aggregate functions."""

    match: MatchSpec | None              # the MATCH's one pattern part, when it has exactly one plain part
    optional: bool
    filtered: bool                       # a WHERE (or its rest) filters the match's rows
    keys: tuple[A.Expr, ...]
    aggregates: tuple[str, ...]          # the aggregate function names (`count*` for `count(*)`)
    counting: Counting = Counting.ROWS
    arguments: tuple[A.Expr | None, ...] = ()   # each aggregate's argument (None for count(*))
    distinct: tuple[bool, ...] = ()      # each aggregate's DISTINCT

    @property
    def key_names(self) -> tuple[str, ...]:
        """The property keys the grouping reads (when `counting` is not ROWS)."""
        return tuple(e.key for e in self.keys)
