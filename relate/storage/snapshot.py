"""Graph <-> a snapshot payload (one `S` frame, see frames.py), and transactions <-> `T` payloads.

Snapshot payload: {"seq": last transaction included, "next_node": n, "next_rel": n,
"indexes": [[name, label, key], ...],
"constraints": [[name, kind, label, [keys]], ...] (later kinds append fields: `schema_defs.py`;
an index a constraint owns is not listed, the constraint makes it), "nodes": [[id, [labels], {props}], ...],
"rels": [[id, type, start, end, {props}], ...], "history": {...} (format 3: `history_codec.py`)}.
Ids are kept, so a reopened or cloned graph is the same graph, `id()` and string ids included, and
its history comes along.

Transaction payload: {"seq": n, "next_node": n, "next_rel": n, "ops": [redo ops of graph.py],
"time": ns, "valid": ns or null, "prov": {...} (only when given)}.  `next_*` are the counters
after the transaction, so replay hands out the same ids the writer would; `time` and `valid` are
the transaction's time and AT VALID time: replay first applies what became due by `time`, then
the ops, then records them in the history as the writer did (`History.commit`).

Format 2 (written before history): a snapshot without `history` and records without `time` load
with every entity created at time 0 by transaction 0 (`history.TX0`), their versions beginning
then; a format 2 frame replays at time 0.  The store takes format 3 frames after them.

Also reads format 1, the first `.rl` layout (`RELATE-SNAPSHOT 1`, a SHA-256 line, a JSON body), so
stores written before the WAL still open; writers rewrite them in the current format.
"""
from __future__ import annotations

import gc
import hashlib
import json

from ..errors import E
from . import frames, history_codec
from .graph import Graph, Notes, Transaction
from .schema_defs import constraint_from_row, constraint_row, index_from_row, index_row


def dump_payload(graph: Graph, seq: int) -> bytes:
    return frames.encode({
        "seq": seq,
        "next_node": graph.next_node_id,
        "next_rel": graph.next_rel_id,
        "indexes": [index_row(d) for d in graph.indexes.values() if d.owner is None],
        "constraints": [constraint_row(c) for c in graph.constraints.values()],
        "nodes": [[n.id, list(n.labels), n.props] for n in graph.nodes.values()],
        "rels": [[r.id, r.type, r.start.id, r.end.id, r.props] for r in graph.rels.values()],
        "history": history_codec.dump(graph.history),
    })


def snapshot_file(graph: Graph, seq: int) -> bytes:
    """A complete `.rl` file (also a directory store's snapshot file) holding `graph`."""
    return frames.header(frames.STORE_MAGIC) + frames.frame(frames.SNAPSHOT, dump_payload(graph, seq))


def load_payload(payload: bytes, where: str) -> tuple[Graph, int]:
    # the load makes many objects and frees none: the cycle collector would only rescan them
    collecting = gc.isenabled()
    gc.disable()
    try:
        body = frames.decode(payload, where)
        g = Graph()
        try:
            nodes, rels = body["nodes"], body["rels"]
            if body.get("tagged", False):
                for record in nodes:
                    frames.untag_props(record[2])
                for record in rels:
                    frames.untag_props(record[4])
            g.load_bulk(nodes, rels)
            g.next_node_id = body["next_node"]
            g.next_rel_id = body["next_rel"]
            for row in body["indexes"]:
                g.create_index(index_from_row(row))
            for row in body["constraints"]:
                g.create_constraint(constraint_from_row(row))
            seq = body["seq"]
            history_codec.load(g, body.get("history"), seq, body.get("tagged", False))
        except (KeyError, TypeError, ValueError, IndexError):
            raise E.Storage.Corrupt(
                f"a snapshot does not describe a graph, the store is damaged: {where}") from None
    finally:
        if collecting:
            gc.enable()
    g.schema_version = 0
    return g, seq


def txn_payload(seq: int, graph: Graph, ops: list) -> bytes:
    txn = graph.txn
    notes = txn.notes if txn is not None else None
    # a transaction committed without `Database` (a test, a tool) may have no time of its own
    now = notes.now if notes is not None else None
    body = {"seq": seq, "next_node": graph.next_node_id, "next_rel": graph.next_rel_id, "ops": ops,
            "time": now if now is not None else graph.history.last_time + 1,
            "valid": notes.valid if notes is not None else None}
    if notes is not None and notes.provenance:
        body["prov"] = notes.provenance
    return frames.encode(body)


def _untag_op(op: list) -> list:
    code = op[0]
    if code in ("cn", "cr"):
        frames.untag_props(op[-1])
    elif code in ("sn", "sr"):
        op[3] = frames.untag(op[3])
    return op


def apply_txn(graph: Graph, payload: bytes, expect_seq: int, where: str) -> int:
    """Replay one `T` payload whose seq must be `expect_seq` (earlier ones are skipped: a snapshot
    already holds them).  Returns the graph's seq afterwards."""
    body = frames.decode(payload, where)
    seq = body.get("seq")
    if not isinstance(seq, int):
        raise E.Storage.Corrupt(f"a WAL record has no sequence number, the store is damaged: {where}")
    if seq < expect_seq:
        return expect_seq - 1
    if seq > expect_seq:
        raise E.Storage.Corrupt(f"WAL record {expect_seq} is missing (found {seq}), the store is "
                                f"damaged: {where}")
    ops = body["ops"]
    if body.get("tagged"):
        ops = [_untag_op(op) for op in ops]
    time = body.get("time", 0)
    history = graph.history
    if history.next_due <= time:
        history.apply_due(graph, time)
    txn = graph.txn = Transaction()
    notes = txn.notes = Notes(time, body.get("valid"), body.get("prov"))
    try:
        graph.apply_redo(ops)
    except (KeyError, IndexError, TypeError, ValueError):
        graph.txn = None
        raise E.Storage.Corrupt(f"WAL record {seq} does not apply to the graph before it, the store "
                                f"is damaged: {where}") from None
    graph.txn = None
    history.commit(graph, notes)
    graph.next_node_id = body["next_node"]
    graph.next_rel_id = body["next_rel"]
    return seq


def is_legacy(raw: bytes) -> bool:
    return raw.startswith(b"RELATE-SNAPSHOT ")


def load_legacy(raw: bytes, where: str) -> Graph:
    """Format 1: `RELATE-SNAPSHOT 1`, a SHA-256 line, then the JSON body."""
    try:
        head, digest, data = raw.split(b"\n", 2)
    except ValueError:
        raise E.Storage.Corrupt(f"not a relate store: {where}") from None
    if head != b"RELATE-SNAPSHOT 1":
        raise E.Storage.Corrupt(f"not a relate store: {where}")
    if hashlib.sha256(data).hexdigest().encode("ascii") != digest:
        raise E.Storage.Corrupt(f"checksum mismatch, the store is damaged: {where}")

    def dec(v):
        if isinstance(v, dict) and "$float" in v:
            return float(v["$float"])
        if isinstance(v, list):
            return [dec(x) for x in v]
        return v

    body = json.loads(data.decode("utf-8"))
    g = Graph()
    for nid, labels, props in body["nodes"]:
        g.restore_node(nid, labels, {k: dec(v) for k, v in props.items()})
    for rid, type_, s, e, props in body["rels"]:
        g.restore_rel(rid, type_, s, e, {k: dec(v) for k, v in props.items()})
    g.next_node_id = body["next_node"]
    g.next_rel_id = body["next_rel"]
    for row in body["indexes"]:
        g.create_index(index_from_row(row))
    g.schema_version = 0
    g.history.node_tx.top, g.history.rel_tx.top = g.next_node_id, g.next_rel_id  # created at time 0
    return g
