"""Graph <-> snapshot bytes, and the atomic file write that makes a commit durable.

Layout of a snapshot file (format 1):

    line 1: `RELATE-SNAPSHOT 1`
    line 2: hex SHA-256 of the body
    body:   compact JSON {"indexes": [[name, label, key], ...], "next_node": n, "next_rel": n,
                          "nodes": [[id, [labels], {props}], ...],
                          "rels": [[id, type, start, end, {props}], ...]}

Invariants: a file on disk is always a complete snapshot (written to a temporary file, fsynced,
renamed over the old one, directory fsynced), so a crash leaves the previous or the next commit,
never a mix.  A body whose checksum does not match is refused, never half-read.  Property values
are JSON scalars and lists; floats that JSON cannot hold are tagged.
"""
from __future__ import annotations

import hashlib
import json
import math
import os

from ..errors import StorageError
from .graph import Graph, IndexDef

MAGIC = "RELATE-SNAPSHOT"
FORMAT = 1


def _enc(v):
    if isinstance(v, float) and not math.isfinite(v):
        return {"$float": repr(v)}
    if isinstance(v, list):
        return [_enc(x) for x in v]
    return v


def _dec(v):
    if isinstance(v, dict) and "$float" in v:
        return float(v["$float"])
    if isinstance(v, list):
        return [_dec(x) for x in v]
    return v


def dump(graph: Graph) -> bytes:
    body = {
        "indexes": [[d.name, d.label, d.key] for d in graph.indexes.values()],
        "next_node": graph.next_node_id,
        "next_rel": graph.next_rel_id,
        "nodes": [[n.id, sorted(n.labels), {k: _enc(v) for k, v in n.props.items()}]
                  for n in graph.nodes.values()],
        "rels": [[r.id, r.type, r.start.id, r.end.id, {k: _enc(v) for k, v in r.props.items()}]
                 for r in graph.rels.values()],
    }
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return f"{MAGIC} {FORMAT}\n{hashlib.sha256(data).hexdigest()}\n".encode("ascii") + data


def load(raw: bytes, where: str) -> Graph:
    try:
        head, digest, data = raw.split(b"\n", 2)
    except ValueError:
        raise StorageError("Corrupt", f"not a relate store: {where}") from None
    parts = head.decode("ascii", "replace").split(" ")
    if parts[0] != MAGIC or len(parts) != 2:
        raise StorageError("Corrupt", f"not a relate store: {where}")
    if parts[1] != str(FORMAT):
        raise StorageError("FormatVersion", f"store format {parts[1]} is newer than this relate reads ({FORMAT}): {where}")
    if hashlib.sha256(data).hexdigest().encode("ascii") != digest:
        raise StorageError("Corrupt", f"checksum mismatch, the store is damaged: {where}")
    body = json.loads(data.decode("utf-8"))
    g = Graph()
    for nid, labels, props in body["nodes"]:
        n = g.create_node(labels, {k: _dec(v) for k, v in props.items()})
        # ids are kept as stored
        del g.nodes[n.id]
        del g.out_adj[n.id]
        del g.in_adj[n.id]
        for lb in labels:
            del g.by_label[lb][n.id]
        n.id = nid
        g.nodes[nid] = n
        g.out_adj[nid] = {}
        g.in_adj[nid] = {}
        for lb in labels:
            g.by_label.setdefault(lb, {})[nid] = n
    for rid, type_, s, e, props in body["rels"]:
        r = g.create_rel(type_, g.nodes[s], g.nodes[e], {k: _dec(v) for k, v in props.items()})
        g._unlink(r)
        r.id = rid
        g._link(r)
    g.next_node_id = body["next_node"]
    g.next_rel_id = body["next_rel"]
    for name, label, key in body["indexes"]:
        g.create_index(IndexDef(name, label, key))
    g.schema_version = 0
    return g


def write_atomic(path: str, data: bytes) -> None:
    """Replace `path` with `data` so that a crash leaves either the old or the new file."""
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, f".{os.path.basename(path)}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise StorageError("Io", f"cannot write {path}: {e.strerror or e}") from None
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some platforms (and the browser's file system) cannot open folders
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
