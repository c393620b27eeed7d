"""A graph's `History` <-> the `history` part of a snapshot payload (format 3, see snapshot.py).

    {"seq": n, "last": ns,
     "txns": [[seq, time, valid or null, provenance or null], ...],
     "node_tx": [top, [[first id, seq], ...]], "rel_tx": the same (`history.Creators`),
     "nodes": [[id, [exist versions], [label versions], {key: [versions]}], ...],
     "rels": [[id, type, start, end, [exist versions], {key: [versions]}], ...],
     "due": [[time, order, id, starts], ...]}

A version is `[value, vf, vt, tf, tt]`; a tombstone value is `{"$absent": 1}`; a label set is
a list.  Full records of entities absent from the current graph (deleted, future) get record
objects of their own on load, marked deleted.
"""
from __future__ import annotations

from ..values import Node, Relationship
from . import frames
from .history import ABSENT, TX0, Full, History, TxRecord, Version, _NEVER

_TOMB = {"$absent": 1}


def _vrows(versions: list, label: bool = False) -> list:
    out = []
    for x in versions:
        value = _TOMB if x.value is ABSENT else (sorted(x.value) if label else x.value)
        out.append([value, x.vf, x.vt, x.tf, x.tt])
    return out


def dump(h: History) -> dict:
    return {
        "seq": h.seq, "last": h.last_time,
        "txns": [[r.seq, r.time, r.valid, r.provenance] for r in h.txns.values()],
        "node_tx": [h.node_tx.top, [[i, r.seq] for i, r in zip(h.node_tx.starts, h.node_tx.recs)]],
        "rel_tx": [h.rel_tx.top, [[i, r.seq] for i, r in zip(h.rel_tx.starts, h.rel_tx.recs)]],
        "nodes": [[i, _vrows(f.exist), _vrows(f.labels, True), {k: _vrows(v) for k, v in f.props.items()}]
                  for i, f in h.nodes.items()],
        "rels": [[i, f.obj.type, f.obj.start.id, f.obj.end.id, _vrows(f.exist),
                  {k: _vrows(v) for k, v in f.props.items()}] for i, f in h.rels.items()],
        "due": [list(d) for d in h.due],
    }


def _versions(rows: list, tagged: bool, label=None) -> list:
    out = []
    for value, vf, vt, tf, tt in rows:
        if type(value) is dict and value.get("$absent") == 1:
            value = ABSENT
        elif label is not None:
            value = label(value)
        elif tagged:
            value = frames.untag(value)
        out.append(Version(value, vf, vt, tf, tt))
    return out


def load(graph, body: dict | None, seq: int, tagged: bool) -> None:
    """Fill `graph.history` from a snapshot's `history` part (None: a store written before
    history; its entities count as created at time 0, and the history continues from `seq`)."""
    h = graph.history = History()
    if body is None:
        h.seq = seq
        h.node_tx.top, h.rel_tx.top = graph.next_node_id, graph.next_rel_id
        return
    h.seq, h.last_time = body["seq"], body["last"]
    for s, time, valid, prov in body["txns"]:
        h.txns[s] = TxRecord(s, time, valid, prov)
        if valid is not None:
            h.max_vf = max(h.max_vf, valid)
    txns = h.txns
    for creators, (top, ranges) in ((h.node_tx, body["node_tx"]), (h.rel_tx, body["rel_tx"])):
        creators.top = top
        for i, s in ranges:
            creators.starts.append(i)
            creators.recs.append(txns.get(s, TX0))
    for i, exist, labels, props in body["nodes"]:
        obj = graph.nodes.get(i)
        lab = _versions(labels, False, graph._labels)
        if obj is None:
            obj = Node(i, lab[-1].value if lab else frozenset(), {})
            obj.deleted = True
        h.nodes[i] = Full(obj, _versions(exist, False), lab,
                          {k: _versions(v, tagged) for k, v in props.items()})
    for i, type_, start, end, exist, props in body["rels"]:
        obj = graph.rels.get(i)
        if obj is None:
            s_node = graph.nodes.get(start) or h.nodes[start].obj
            e_node = graph.nodes.get(end) or h.nodes[end].obj
            obj = Relationship(i, type_, s_node, e_node, {})
            obj.deleted = True
        h.rels[i] = Full(obj, _versions(exist, False), [], {k: _versions(v, tagged) for k, v in props.items()})
    h.due = [tuple(d) for d in body["due"]]  # type: ignore[misc]
    h.starts = sum(d[3] for d in h.due)
    h.next_due = h.due[0][0] if h.due else _NEVER
