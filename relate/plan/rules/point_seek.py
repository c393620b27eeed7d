"""Rule `point_seek`: an unbound, labelled anchor with a WHERE conjunct `point.withinBBox(var.key,
lowerLeft, upperRight)` or `point.distance(var.key, centre) < radius` (or `<=`, either way round,
the point arguments in either order), its other values fixed for the scan (`point({...})` of
such values included), and a POINT index on
(one of its labels, key) -> its candidates from that index.

The index gives a superset of the nodes the conjunct keeps (the points of the right SRID within
the box's or the radius's span of the first coordinate: `exec/index_seek.PointSeek`), so the
conjunct stays in the WHERE and decides.  Runs after `index_seek` and `text_seek`.
Off: the label is scanned and the conjunct filters.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.index_seek import SeekKind
from ...syntax import ast as A
from ..conjuncts import is_stable
from ..match_spec import IndexSeek, MatchSpec

_BELOW = {A.BinOp.LT: A.BinOp.LT, A.BinOp.LE: A.BinOp.LE}
_ABOVE = {A.BinOp.GT: A.BinOp.LT, A.BinOp.GE: A.BinOp.LE}  # `radius > point.distance(...)`


def apply(spec, graph):
    if not isinstance(spec, MatchSpec) or spec.anchor_bound or spec.seek is not None or not graph.node_entries:
        return spec
    seek = find(spec, spec.anchor, graph)
    return spec if seek is None else replace(spec, seek=seek)


def _key(e: A.Expr, var: str) -> str | None:
    if isinstance(e, A.Property) and isinstance(e.subject, A.Variable) and e.subject.name == var:
        return e.key
    return None


def _fixed(e: A.Expr, outer) -> bool:
    """A value fixed for the scan: `is_stable`, or `point({...})` over such values."""
    if is_stable(e, outer):
        return True
    if _call(e, "point") and len(e.args) == 1:
        m = e.args[0]
        return is_stable(m, outer) or isinstance(m, A.MapLiteral) and all(
            is_stable(v, outer) or isinstance(v, A.Unary) and is_stable(v.operand, outer) for _, v in m.entries)
    return False


def _call(e: A.Expr, name: str) -> bool:
    return isinstance(e, A.FunctionCall) and e.name.lower() == name and not e.distinct


def _shape(c: A.Expr, var: str, outer):
    """A conjunct -> (kind, key, value, other) when it is a box or distance test on `var.key`."""
    if _call(c, "point.withinbbox") and len(c.args) == 3:
        key = _key(c.args[0], var)
        if key is not None and all(_fixed(a, outer) for a in c.args[1:]):
            return SeekKind.BBOX, key, c.args[1], c.args[2]
        return None
    if not isinstance(c, A.Binary):
        return None
    if c.op in _BELOW:
        call, radius = c.left, c.right
    elif c.op in _ABOVE:
        call, radius = c.right, c.left
    else:
        return None
    if not _call(call, "point.distance") or len(call.args) != 2 or not is_stable(radius, outer):
        return None
    for mine, centre in (call.args, tuple(reversed(call.args))):
        key = _key(mine, var)
        if key is not None and _fixed(centre, outer):
            return SeekKind.DISTANCE, key, centre, radius
    return None


def find(spec: MatchSpec, i: int, graph) -> IndexSeek | None:
    node = spec.part.element.nodes[i]
    if not node.labels or not graph.node_entries:
        return None
    var = spec.names[i]
    for c in spec.where:
        found = _shape(c, var, spec.outer)
        if found is None:
            continue
        kind, key, value, other = found
        for lb in node.labels:
            for d, _ in graph.entries_for(lb):
                if d.entries_kind == "point" and d.key == key:
                    return IndexSeek(lb, key, value, c, index=d.name, kind=kind, other=other)
    return None
