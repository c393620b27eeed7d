"""Rule `index_seek`: an unbound, labelled anchor with a predicate an index answers -> its
candidates from that index.

The predicate is an entry of the anchor's inline map whose value reads no node of the part, else
a WHERE conjunct on `var.key` with a value fixed for the scan, taken in this order of preference:
an equality `var.key = value` (either way round), `var.key IN list`, bounds (`var.key > low`,
`var.key <= high`, both at once, or a chain `low < var.key < high`: one bound per side), then
`var.key STARTS WITH prefix`.  The first key with an index on (one of the anchor's labels, key)
is taken, and the conjuncts it answers leave the WHERE (`exec/match.py` answers them exactly,
with a scan for values the index cannot order).
Else, when a relationship next to the anchor has one type and an equality on one of its
properties (inline, or a WHERE conjunct `r.key = value`) that a relationship index answers, the
anchor's candidates are that end of the relationships the index gives (`rel_seek`); the equality
stays where it was, for the walk to check on the relationship it takes.
Off: the anchor's label is scanned and the equality is tested like any other.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.compile import free_variables
from ...exec.index_seek import SeekKind
from ...exec.scan_filter import Op
from ...syntax import ast as A
from ..conjuncts import match_bounds, match_conjunct, match_in, match_prefix
from ..match_spec import IndexSeek, MatchSpec

_LOWER = (Op.GT, Op.GE)


def apply(spec, graph):
    if not isinstance(spec, MatchSpec) or spec.anchor_bound or spec.seek is not None:
        return spec
    node = spec.anchor_node
    if not node.labels:
        return _rel_seek(spec, graph)
    props = node.properties
    if isinstance(props, A.MapLiteral):
        names = set(spec.names)
        for j, (key, value) in enumerate(props.entries):
            if j in spec.answered:
                continue
            reads_part = any(v in names and v not in spec.outer for v in free_variables(value))
            for lb in node.labels:
                d = graph.index_for(lb, key)
                if d is not None and not reads_part:
                    return replace(spec, seek=IndexSeek(lb, key, value, index=d.name),
                                   answered=spec.answered + (j,))
    seek = where_seek(spec.where, spec.anchor_name, node.labels, spec.outer, graph)
    if seek is None:
        return _rel_seek(spec, graph)
    taken = seek.conjuncts
    return replace(spec, seek=seek, where=tuple(c for c in spec.where if all(c is not t for t in taken)))


def _ends(direction: A.Direction, anchor_left: bool) -> str:
    if direction is A.Direction.BOTH:
        return "both"
    return "start" if (direction is A.Direction.OUT) == anchor_left else "end"


def rel_seek_for(spec, i: int, graph):
    """A relationship index equality on a relationship next to node `i` of the part:
    -> (rel index, type, key, value, ends, index name) or None."""
    el = spec.part.element
    names = set(spec.names)
    for j, left in ((i, True), (i - 1, False)):
        if j < 0 or j >= len(el.rels):
            continue
        r = el.rels[j]
        if len(set(r.types)) != 1 or r.length is not None:
            continue
        t = r.types[0]
        if not graph.rel_index_data:
            return None
        if isinstance(r.properties, A.MapLiteral):
            for key, value in r.properties.entries:
                reads_part = any(v in names and v not in spec.outer for v in free_variables(value))
                d = graph.rel_index_for(t, key)
                if not reads_part and d is not None:
                    return j, t, key, value, _ends(r.direction, left), d.name
        if r.variable and r.variable not in spec.outer:
            for c in spec.where:
                m = match_conjunct(c, r.variable, spec.outer)
                if m is not None and m[1] is Op.EQ and m[2] is not None:
                    d = graph.rel_index_for(t, m[0])
                    if d is not None:
                        return j, t, m[0], m[2], _ends(r.direction, left), d.name
    return None


def _rel_seek(spec, graph):
    if not graph.rel_index_data:
        return spec
    found = rel_seek_for(spec, spec.anchor, graph)
    if found is None:
        return spec
    j, t, key, value, ends, name = found
    return replace(spec, seek=IndexSeek(t, key, value, None, j, ends, name))


def where_seek(where, var: str, labels, outer: frozenset[str], graph) -> IndexSeek | None:
    """The seek an index on one of `labels` gives for WHERE conjuncts on `var`, by the order of
    preference above, or None."""
    def index(key):
        for lb in labels:
            d = graph.index_for(lb, key)
            if d is not None:
                return lb, d.name
        return None

    for c in where:
        m = match_conjunct(c, var, outer)
        if m is not None and m[1] is Op.EQ and m[2] is not None:
            found = index(m[0])
            if found is not None:
                return IndexSeek(found[0], m[0], m[2], c, index=found[1])
    for c in where:
        m = match_in(c, var, outer)
        if m is not None:
            found = index(m[0])
            if found is not None:
                return IndexSeek(found[0], m[0], m[1], c, index=found[1], kind=SeekKind.IN)
    ranges = [(c, b) for c in where if (b := match_bounds(c, var, outer)) is not None]
    for c, (key, bounds) in ranges:
        found = index(key)
        if found is None:
            continue
        # one bound per side: this conjunct's, then another conjunct's for the side it leaves open
        sides = {op in _LOWER for op, _ in bounds}
        if len(sides) < len(bounds):
            continue  # a chain bounding one side twice (`1 < n.x > 2`) stays a filter
        more: tuple = ()
        if len(bounds) == 1:
            for c2, (key2, bounds2) in ranges:
                if c2 is not c and key2 == key and len(bounds2) == 1 and (bounds2[0][0] in _LOWER) not in sides:
                    bounds, more = bounds + bounds2, (c2,)
                    break
        return IndexSeek(found[0], key, None, c, index=found[1], kind=SeekKind.RANGE, bounds=bounds, more=more)
    for c in where:
        m = match_prefix(c, var, outer)
        if m is not None:
            found = index(m[0])
            if found is not None:
                return IndexSeek(found[0], m[0], m[1], c, index=found[1], kind=SeekKind.PREFIX)
    return None
