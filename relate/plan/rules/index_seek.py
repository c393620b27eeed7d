"""Rule `index_seek`: an unbound, labelled anchor with an equality an index answers -> its
candidates from that index.

The equality is an entry of the anchor's inline map whose value reads no node of the part, else
a WHERE conjunct `var.key = value` (either way round) with a value fixed for the scan; the first
one with an index on (one of the anchor's labels, key) is taken, and the conjunct leaves the WHERE.
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
        return spec
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
        return spec
    lb, key, value, conjunct = found
    return replace(spec, seek=IndexSeek(lb, key, value, conjunct),
                   where=tuple(c for c in spec.where if c is not conjunct))


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
