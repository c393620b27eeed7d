"""A read at a past time: (the current graph, its history, valid time t, recorded time tt) -> a
`Graph` holding what was valid at t as the database had recorded it at tt.

The view is a graph of its own (records copied, ids kept, the schema's indexes and constraints
built on it), so every plan operator runs on it unchanged.  Entities without a full record
(created once, never changed) are visible when their creating transaction's valid time is <= t
and its time <= tt; the others are read from their version lists.  Each version looked at counts
against the budget (`limit`): past it the read fails whole (`TemporalReadLimit`), never with part
of an answer.  Views are cached per (t, tt, last transaction) in `History.views` (a commit or a
due activation empties it), a few at a time.
"""
from __future__ import annotations

from ..errors import E
from .history import ABSENT, holding

_CACHED = 4


def view(graph, t: int, tt: int | None, limit: int):
    """The graph as of valid time `t`, recorded at `tt` (None: as recorded now)."""
    from .graph import Graph
    h = graph.history
    key = (t, tt, h.seq)
    hit = h.views.get(key)
    if hit is not None:
        return hit
    seen = [0]
    out = Graph()
    node_tx, rel_tx, full_nodes, full_rels = h.node_tx, h.rel_tx, h.nodes, h.rels

    def over() -> None:
        if seen[0] > limit:
            raise E.Temporal.TemporalReadLimit(limit=limit)

    for nid in sorted(set(graph.nodes) | set(full_nodes)):
        full = full_nodes.get(nid)
        if full is None:
            seen[0] += 1
            rec = node_tx.of(nid)
            if rec.valid_from > t or (tt is not None and rec.time > tt):
                continue
            node = graph.nodes[nid]
            out.restore_node(nid, node.labels, dict(node.props))
        else:
            state = _state(full, t, tt, seen)
            if state is not None:
                labels = holding(full.labels, t, tt, seen)
                out.restore_node(nid, labels.value if labels is not None else (), state)
        over()
    rel_ids = set(full_rels)
    rel_ids.update(r.id for r in graph.rels.values())
    for rid in sorted(rel_ids):
        full = full_rels.get(rid)
        if full is None:
            seen[0] += 1
            rec = rel_tx.of(rid)
            if rec.valid_from > t or (tt is not None and rec.time > tt):
                continue
            rel = graph.rels[rid]
            props = dict(rel.props)
        else:
            rel = full.obj
            state = _state(full, t, tt, seen)
            if state is None:
                continue
            props = state
        over()
        if rel.start.id in out.nodes and rel.end.id in out.nodes:
            out.restore_rel(rid, rel.type, rel.start.id, rel.end.id, props)
    out.next_node_id, out.next_rel_id = graph.next_node_id, graph.next_rel_id
    for d in graph.indexes.values():
        if d.owner is None:
            out.create_index(d)
    for c in graph.constraints.values():
        out.create_constraint(c)
    out.schema_version = graph.schema_version
    if len(h.views) >= _CACHED:
        h.views.pop(next(iter(h.views)))
    h.views[key] = out
    return out


def _state(full, t: int, tt: int | None, seen: list) -> dict | None:
    """The properties of an entity with a full record at (t, tt), or None when it is not there."""
    if holding(full.exist, t, tt, seen) is None:
        return None
    props = {}
    for k, versions in full.props.items():
        x = holding(versions, t, tt, seen)
        if x is not None and x.value is not ABSENT:
            props[k] = x.value
    return props
