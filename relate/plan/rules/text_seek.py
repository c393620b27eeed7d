"""Rule `text_seek`: an unbound, labelled anchor with a WHERE conjunct `var.key CONTAINS value` or
`var.key ENDS WITH value` (a value fixed for the scan) and a TEXT index on (one of its labels,
key) -> its candidates from that index.

A TEXT index holds only string values, and both operators are true only of strings, so the nodes
it gives are exactly those the conjunct keeps; the conjunct leaves the WHERE.  Runs after
`index_seek` (a RANGE index's equality, IN, range or prefix comes first).
Off: the label is scanned and the conjunct filters.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.index_seek import SeekKind
from ...syntax import ast as A
from ..conjuncts import is_stable
from ..match_spec import IndexSeek, MatchSpec

_KINDS = {A.BinOp.CONTAINS: SeekKind.CONTAINS, A.BinOp.ENDS_WITH: SeekKind.SUFFIX}


def apply(spec, graph):
    if not isinstance(spec, MatchSpec) or spec.anchor_bound or spec.seek is not None or not graph.node_entries:
        return spec
    seek = find(spec, spec.anchor, graph)
    if seek is None:
        return spec
    return replace(spec, seek=seek, where=tuple(c for c in spec.where if c is not seek.conjunct))


def find(spec: MatchSpec, i: int, graph) -> IndexSeek | None:
    node = spec.part.element.nodes[i]
    if not node.labels or not graph.node_entries:
        return None
    var = spec.names[i]
    for c in spec.where:
        if not (isinstance(c, A.Binary) and c.op in _KINDS):
            continue
        left = c.left
        if not (isinstance(left, A.Property) and isinstance(left.subject, A.Variable) and left.subject.name == var
                and is_stable(c.right, spec.outer)):
            continue
        for lb in node.labels:
            for d, _ in graph.entries_for(lb):
                if d.entries_kind == "text" and d.key == left.key:
                    return IndexSeek(lb, d.key, c.right, c, index=d.name, kind=_KINDS[c.op])
    return None
