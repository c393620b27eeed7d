"""Adjacency: the relationships at each node, kept on the node records, and the walks over them
(`expand`, `node_rels`, ...).  `Adjacency` is a mixin of `Graph`: linking a relationship turns it
into an entry at both its endpoints, an expansion turns a node and a type list into
`(relationship, far node)` pairs.

Invariants (kept by `_link` / `_unlink`, the only writers, and by `GraphLoad.load_bulk`, which
inlines `_link` for speed):
- `node.out_rels` / `node.in_rels` hold the live relationships leaving / entering the node, in link
  order, all types mixed: an exact-size tuple (replaced on change) up to `_SMALL` of them, beyond
  that an ordered dict `{rel: None}` (changed in place, so a busy node drops any one of them at
  once; back to a tuple below half of `_SMALL`).  Iterating either gives the relationships.
- Expansions filter by type (`expand`) and hand out new lists; deleting a relationship takes it out
  of its two endpoints' adjacency.  Nothing outside `Graph` reads them.
"""
from __future__ import annotations

from ..values import Node, Relationship
from .reltable import RelTable

# adjacency of up to this many relationships is an exact-size tuple, replaced on every change;
# a busier node's is a dict changed in place (back to a tuple below half of this)
_SMALL = 32
# The tuple-or-dict tests read `__class__ is tuple` (cheaper than isinstance); mypy narrows only the
# tuple branch by it, so the dict branches say `type: ignore[index]`.


class Adjacency:
    """The adjacency half of `Graph` (a mixin: the methods are `Graph`'s own, no extra call)."""

    nodes: dict[int, Node]
    rels: RelTable

    def _link(self, rel: Relationship) -> None:
        rel.deleted = False
        self.rels[rel.id] = rel
        node = rel.start
        rels = node.out_rels
        if rels.__class__ is tuple:
            node.out_rels = rels + (rel,) if len(rels) < _SMALL else _busy(rels, rel)
        else:
            rels[rel] = None  # type: ignore[index]
        node = rel.end
        rels = node.in_rels
        if rels.__class__ is tuple:
            node.in_rels = rels + (rel,) if len(rels) < _SMALL else _busy(rels, rel)
        else:
            rels[rel] = None  # type: ignore[index]

    def _unlink(self, rel: Relationship) -> None:
        self.rels.pop(rel.id, None)
        node = rel.start
        rels = _without(node.out_rels, rel)
        if rels is not None:
            node.out_rels = rels
        node = rel.end
        rels = _without(node.in_rels, rel)
        if rels is not None:
            node.in_rels = rels

    def degree(self, node: Node) -> int:
        return len(node.out_rels) + len(node.in_rels)

    def node_rels(self, node: Node) -> list[Relationship]:
        """Every relationship at `node` once, newest first (deleting them in this order takes
        each off the end of the node's own tuples)."""
        out = list(reversed(node.out_rels))
        out.extend(r for r in reversed(node.in_rels) if r.start is not node)
        return out

    def out_rels(self, node: Node) -> list[Relationship]:
        """The live relationships leaving `node`, oldest first (a copy)."""
        return list(node.out_rels)

    def in_rels(self, node: Node) -> list[Relationship]:
        """The live relationships entering `node`, oldest first (a copy)."""
        return list(node.in_rels)

    def relationship_types(self) -> set[str]:
        """The types of the live relationships."""
        return {r.type for n in self.nodes.values() for r in n.out_rels}

    def expand(self, node: Node, types: tuple, outgoing: bool, incoming: bool) -> list:
        """`(relationship, node at its far end)` for the live relationships at `node` of one of
        `types` (any type when empty), leaving it when `outgoing`, entering it when `incoming`
        (a self-loop once when both).  A new list: the caller may write to the graph while it
        walks it.  Order: outgoing first; per direction by type (the order of `types`, else of
        each type's oldest relationship), then oldest first."""
        if outgoing:
            rels = node.out_rels
            if not rels:
                found = []
            elif len(types) == 1:
                t = types[0]
                found = [(r, r.end) for r in rels if r.type == t]
            else:
                found = [(r, r.end) for t in (types or _types_of(rels)) for r in rels if r.type == t]
            if not incoming:
                return found
        else:
            found = []
        rels = node.in_rels
        if not rels:
            return found
        skip = node if outgoing else None  # a self-loop was already given from the out side
        if len(types) == 1:
            t = types[0]
            found += [(r, r.start) for r in rels if r.type == t and r.start is not skip]
        else:
            found += [(r, r.start) for t in (types or _types_of(rels)) for r in rels
                      if r.type == t and r.start is not skip]
        return found


def _types_of(rels) -> tuple:
    """The distinct types among `rels` (not empty), in order of first appearance."""
    first = None
    for r in rels:
        if first is None:
            first = r.type
        elif r.type != first:
            return tuple(dict.fromkeys([r.type for r in rels]))
    return (first,)


def _busy(rels: tuple, rel: Relationship) -> dict:
    """A full tuple adjacency plus `rel`, as the ordered dict a busy node keeps."""
    out = dict.fromkeys(rels)
    out[rel] = None
    return out


def _without(rels, rel: Relationship):
    """Take `rel` out of an adjacency.  Returns what replaces it (a tuple), or None when it was
    changed in place (a busy node's dict) or did not hold `rel`."""
    if rels.__class__ is tuple:
        if rels and rels[-1] is rel:
            return rels[:-1]
        for i, r in enumerate(rels):
            if r is rel:
                return rels[:i] + rels[i + 1:]
        return None
    rels.pop(rel, None)
    if len(rels) <= _SMALL // 2:
        return tuple(rels)
    return None
