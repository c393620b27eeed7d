"""Rule `index_seek`: an unbound, labelled anchor with an equality an index answers -> its
candidates from that index.

The equality is an entry of the anchor's inline map whose value reads no node of the part, else
a WHERE conjunct `var.key = value` (either way round) with a value fixed for the scan; the first
one with an index on (one of the anchor's labels, key) is taken, and the conjunct leaves the WHERE.
Else, when a relationship next to the anchor has one type and an equality on one of its
properties (inline, or a WHERE conjunct `r.key = value`) that a relationship index answers, the
anchor's candidates are that end of the relationships the index gives (`rel_seek`); the equality
stays where it was, for the walk to check on the relationship it takes.
Off: the anchor's label is scanned and the equality is tested like any other.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.compile import free_variables
from ...exec.scan_filter import Op
from ...syntax import ast as A
from ..conjuncts import match_conjunct
from ..match_spec import IndexSeek, MatchSpec


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
                if graph.index_for(lb, key) is not None and not reads_part:
                    return replace(spec, seek=IndexSeek(lb, key, value), answered=spec.answered + (j,))
    found = where_seek(spec.where, spec.anchor_name, node.labels, spec.outer, graph)
    if found is None:
        return _rel_seek(spec, graph)
    lb, key, value, conjunct = found
    return replace(spec, seek=IndexSeek(lb, key, value, conjunct),
                   where=tuple(c for c in spec.where if c is not conjunct))


def _ends(direction: A.Direction, anchor_left: bool) -> str:
    if direction is A.Direction.BOTH:
        return "both"
    return "start" if (direction is A.Direction.OUT) == anchor_left else "end"


def rel_seek_for(spec, i: int, graph):
    """A relationship index equality on a relationship next to node `i` of the part:
    -> (rel index, type, key, value, ends) or None."""
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
                if not reads_part and graph.rel_index_for(t, key) is not None:
                    return j, t, key, value, _ends(r.direction, left)
        if r.variable and r.variable not in spec.outer:
            for c in spec.where:
                m = match_conjunct(c, r.variable, spec.outer)
                if m is not None and m[1] is Op.EQ and m[2] is not None and graph.rel_index_for(t, m[0]) is not None:
                    return j, t, m[0], m[2], _ends(r.direction, left)
    return None


def _rel_seek(spec, graph):
    if not graph.rel_index_data:
        return spec
    found = rel_seek_for(spec, spec.anchor, graph)
    if found is None:
        return spec
    j, t, key, value, ends = found
    return replace(spec, seek=IndexSeek(t, key, value, None, j, ends))


def where_seek(where, var: str, labels, outer: frozenset[str], graph):
    """A WHERE conjunct `var.key = value` an index on one of `labels` can answer:
    -> (label, key, value expression, conjunct) or None."""
    for c in where:
        m = match_conjunct(c, var, outer)
        if m is None or m[1] is not Op.EQ or m[2] is None:
            continue
        for lb in labels:
            if graph.index_for(lb, m[0]) is not None:
                return lb, m[0], m[2], c
    return None
