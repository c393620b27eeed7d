"""Functions of graph elements: labels, type, id, elementId, keys, properties, startNode,
endNode, nodes, relationships, length (of a path only, as in Neo4j 5)."""
from __future__ import annotations

from ...errors import E
from ...values import Node, Path, Relationship
from .common import type_err


def _of(name: str, kinds, f):
    def g(v):
        if v is None:
            return None
        if not isinstance(v, kinds):
            raise type_err(name, v)
        return f(v)
    return g


def live(v, what: str):
    """`v` itself, unless it is a node or relationship deleted earlier in this statement: what it
    held is gone, and reading it is an error (Neo4j's DeletedEntityAccess)."""
    if getattr(v, "deleted", False):
        kind = "node" if isinstance(v, Node) else "relationship"
        raise E.Deleted.DeletedEntityAccess(
            f"cannot read {what} of a {kind} deleted earlier in this statement")
    return v


def _keys(v):
    return list(live(v, "the keys").props) if isinstance(v, (Node, Relationship)) else list(v)


def _properties(v):
    return dict(live(v, "the properties").props) if isinstance(v, (Node, Relationship)) else dict(v)


# element ids are relate's stable string ids (values/str_ids.py): a node's and a relationship's
# never coincide, although their `id()`s may


def _element_id(v):
    # the stable string id (values/str_ids.py): n<id> for a node, r<id> for a relationship
    return f"n{v.id}" if isinstance(v, Node) else f"r{v.id}"


GRAPH: dict[str, tuple] = {
    "labels": (_of("labels", Node, lambda v: sorted(live(v, "the labels").labels)), 1, 1),
    "type": (_of("type", Relationship, lambda v: v.type), 1, 1),
    "id": (_of("id", (Node, Relationship), lambda v: v.id), 1, 1),
    "elementid": (_of("elementId", (Node, Relationship), _element_id), 1, 1),
    "keys": (_of("keys", (Node, Relationship, dict), _keys), 1, 1),
    "properties": (_of("properties", (Node, Relationship, dict), _properties), 1, 1),
    "startnode": (_of("startNode", Relationship, lambda v: v.start), 1, 1),
    "endnode": (_of("endNode", Relationship, lambda v: v.end), 1, 1),
    "nodes": (_of("nodes", Path, lambda v: list(v.nodes)), 1, 1),
    "relationships": (_of("relationships", Path, lambda v: list(v.rels)), 1, 1),
    "length": (_of("length", Path, lambda v: len(v.rels)), 1, 1),
}
