"""Rule `composite_seek`: an unbound, labelled anchor with equalities on the first keys of a
composite index on one of its labels -> its candidates from that index.

The equalities come from the anchor's inline map (a value that reads no node of the part) or from
WHERE conjuncts `var.key = value` with a value fixed for the scan.  Equalities on every key of the
index make an equality seek; equalities on the first keys and bounds on the next one (as
`index_seek`'s ranges: one bound per side) make a range seek within the group of the equalities,
taken only when each key after it is tested by an `IS NOT NULL` conjunct (the index holds only the
nodes that have every one of its keys, as Neo4j's does).  Of several such indexes the one with
equalities on every key is taken, then the one answering the most keys.  The conjuncts and inline entries the
seek answers leave the WHERE and the node check; the IS NOT NULL conjuncts stay.  Runs before
`index_seek`: a composite index answers more of the test than a single-key one.
Off: a single-key index or a label scan, and the tests checked node by node.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.compile import free_variables
from ...exec.index_seek import SeekKind
from ...exec.scan_filter import Op
from ...syntax import ast as A
from ..conjuncts import match_bounds, match_conjunct
from ..match_spec import IndexSeek, MatchSpec

_LOWER = (Op.GT, Op.GE)


def apply(spec, graph):
    if not isinstance(spec, MatchSpec) or spec.anchor_bound or spec.seek is not None or not graph.node_entries:
        return spec
    found = find(spec, spec.anchor, graph)
    if found is None:
        return spec
    seek, entries = found
    taken = seek.conjuncts
    return replace(spec, seek=seek, answered=spec.answered + entries,
                   where=tuple(c for c in spec.where if all(c is not t for t in taken)))


def find(spec: MatchSpec, i: int, graph):
    """The composite seek node `i` of the part can take -> (IndexSeek, the inline map entries it
    answers) or None."""
    node = spec.part.element.nodes[i]
    if not node.labels or not graph.node_entries:
        return None
    var = spec.names[i]
    best, best_score = None, None
    for lb in node.labels:
        for d, _ in graph.entries_for(lb):
            if d.entries_kind != "composite":
                continue
            equal, entries = [], []
            for key in d.keys:
                src = _equality(spec, node, var, key, entries)
                if src is None:
                    break
                equal.append((key, src[0], src[1]))
                if src[2] is not None:
                    entries.append(src[2])
            m = len(equal)
            if m == len(d.keys):
                found = IndexSeek(lb, d.key, None, index=d.name, kind=SeekKind.COMPOSITE, equal=tuple(equal))
                score = (1, m)
            elif m == 0:
                continue
            else:
                rng = _range(spec.where, var, spec.outer, d.keys[m])
                if rng is None or not all(_not_null(spec.where, var, spec.outer, k) for k in d.keys[m + 1:]):
                    continue
                c, bounds, more = rng
                found = IndexSeek(lb, d.keys[m], None, c, index=d.name, kind=SeekKind.COMPOSITE, bounds=bounds,
                                  more=more, equal=tuple(equal))
                score = (0, m + 1)
            # the index whose seek answers the most: equalities on every key, then the most keys
            if best_score is None or score > best_score:
                best, best_score = (found, tuple(entries)), score
    return best


def _equality(spec: MatchSpec, node: A.NodePattern, var: str, key: str, taken: list):
    """An equality on `var.key` -> (value, WHERE conjunct or None, inline entry or None)."""
    props = node.properties
    if isinstance(props, A.MapLiteral):
        names = set(spec.names)
        for j, (k, value) in enumerate(props.entries):
            if k != key or j in taken or (var == spec.anchor_name and j in spec.answered):
                continue
            if not any(v in names and v not in spec.outer for v in free_variables(value)):
                return value, None, j
    for c in spec.where:
        m = match_conjunct(c, var, spec.outer)
        if m is not None and m[0] == key and m[1] is Op.EQ and m[2] is not None:
            return m[2], c, None
    return None


def _not_null(where, var: str, outer, key: str) -> bool:
    for c in where:
        m = match_conjunct(c, var, outer)
        if m is not None and m[0] == key and m[1] is Op.NOT_NULL:
            return True
    return False


def _range(where, var: str, outer, key: str):
    """Bounds on `var.key` (one per side, from one conjunct or two) -> (conjunct, bounds, more)."""
    ranges = [(c, b[1]) for c in where if (b := match_bounds(c, var, outer)) is not None and b[0] == key]
    for c, bounds in ranges:
        sides = {op in _LOWER for op, _ in bounds}
        if len(sides) < len(bounds):
            continue
        more: tuple = ()
        if len(bounds) == 1:
            for c2, bounds2 in ranges:
                if c2 is not c and len(bounds2) == 1 and (bounds2[0][0] in _LOWER) not in sides:
                    bounds, more = bounds + bounds2, (c2,)
                    break
        return c, bounds, more
    return None
