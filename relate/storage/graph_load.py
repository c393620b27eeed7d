"""Loading and replay: stored records turn into live graph records under their own ids
(`restore_node`, `restore_rel`, `load_bulk`: a snapshot load, no undo, no redo), and a committed
transaction's redo ops (the format is in `graph.py`'s docstring) turn back into the mutations they
record (`apply_redo`: recovery, live readers).  `GraphLoad` is a mixin of `Graph`.

`load_bulk` keeps `Graph`'s invariants by hand, for speed: it interns label sets, fills
`by_label`, and links each relationship as `Adjacency._link` does (inlined); it runs on an empty
graph before any index exists, so it keeps no index data.
"""
from __future__ import annotations

from sys import intern
from typing import TYPE_CHECKING

from ..values import Node, Relationship
from .adjacency import _SMALL, _busy
from .props import NO_PROPS as _NO_PROPS
from .schema_defs import ConstraintDef, IndexDef, constraint_from_row, index_from_row

if TYPE_CHECKING:
    from .reltable import RelTable

    class _GraphParts:
        """What `GraphLoad` uses of `Graph`, declared for the type checker only: at run time the
        mixin's base is `object` (`graph.py` cannot be imported here without a cycle).  A plain
        class, not a Protocol: mypy cannot type a Protocol's attribute assigned in a subclass."""

        nodes: dict[int, Node]
        rels: RelTable
        by_label: dict[str, dict[int, Node]]
        index_data: dict[tuple[str, str], dict[object, Node | dict[int, Node]]]
        rel_index_data: dict[tuple[str, str], dict]
        node_entries: dict[str, dict]
        _columns: dict
        _label_sets: dict[frozenset | tuple, frozenset]
        next_node_id: int
        next_rel_id: int

        def _labels(self, labels) -> frozenset: ...
        def _index_add(self, node: Node, label: str, key: str | None = None) -> None: ...
        def _link(self, rel: Relationship) -> None: ...
        def _rel_index_add(self, rel: Relationship, key: str | None = None) -> None: ...
        def set_prop(self, entity, key: str, value) -> None: ...
        def add_label(self, node: Node, label: str) -> bool: ...
        def remove_label(self, node: Node, label: str) -> bool: ...
        def delete_rel(self, rel: Relationship) -> bool: ...
        def delete_node(self, node: Node) -> bool: ...
        def create_index(self, d: IndexDef) -> None: ...
        def drop_index(self, name: str) -> None: ...
        def create_constraint(self, d: ConstraintDef) -> None: ...
        def drop_constraint(self, name: str) -> None: ...
else:
    _GraphParts = object

_SHORT = 64  # strings up to this long are shared on load: names, cities, kinds, not documents


def _shared(props: dict) -> dict:
    """`props` with its short string values interned.  A record read back from disk holds its own
    copy of every string, where the graph that wrote it shared one object per value (a city, a
    status): sharing them again keeps a reopened store as small as the one that wrote it, and
    equality tests and counting on them find the same object instead of comparing characters."""
    for k, v in props.items():
        if v.__class__ is str and len(v) <= _SHORT:
            props[k] = intern(v)
    return props


class GraphLoad(_GraphParts):
    """The loading half of `Graph` (a mixin; it uses `Graph`'s records and writers)."""

    def restore_node(self, id: int, labels, props: dict) -> Node:
        """Put a stored node back under its own id (snapshot load; no undo, no redo)."""
        node = Node(id, self._labels(labels), _shared(props) if props else _NO_PROPS)
        self.nodes[id] = node
        for lb in node.labels:
            self.by_label.setdefault(lb, {})[id] = node
            if self.index_data or self.node_entries:
                self._index_add(node, lb)
        if id >= self.next_node_id:
            self.next_node_id = id + 1
        return node

    def restore_rel(self, id: int, type: str, start: int, end: int, props: dict) -> Relationship:
        """Put a stored relationship back under its own id (snapshot load; no undo, no redo)."""
        rel = Relationship(id, type, self.nodes[start], self.nodes[end],
                           _shared(props) if props else _NO_PROPS)
        self._link(rel)
        if self.rel_index_data:
            self._rel_index_add(rel)
        if id >= self.next_rel_id:
            self.next_rel_id = id + 1
        return rel

    def load_bulk(self, nodes, rels) -> None:
        """Fill an empty graph from stored records `[id, labels, props]` and
        `[id, type, start, end, props]` (ids kept; no undo, no redo; indexes are created after)."""
        self._columns.clear()  # a fill replaces what any column mirrored
        all_nodes = self.nodes
        all_rels = self.rels
        by_label = self.by_label
        label_sets = self._label_sets
        top = self.next_node_id - 1
        for nid, labels, props in nodes:
            shared = frozenset(labels)
            shared = label_sets.setdefault(shared, shared)
            node = Node(nid, shared, _shared(props) if props else _NO_PROPS)
            all_nodes[nid] = node
            for lb in shared:
                members = by_label.get(lb)
                if members is None:
                    members = by_label[lb] = {}
                members[nid] = node
            if nid > top:
                top = nid
        self.next_node_id = top + 1
        top = self.next_rel_id - 1
        for rid, type_, s, e, props in rels:
            start = all_nodes[s]
            end = all_nodes[e]
            rel = Relationship(rid, type_, start, end, _shared(props) if props else _NO_PROPS)
            all_rels[rid] = rel
            adj = start.out_rels
            if adj.__class__ is tuple:
                start.out_rels = adj + (rel,) if len(adj) < _SMALL else _busy(adj, rel)
            else:
                adj[rel] = None  # type: ignore[index]  # a dict (see adjacency.py)
            adj = end.in_rels
            if adj.__class__ is tuple:
                end.in_rels = adj + (rel,) if len(adj) < _SMALL else _busy(adj, rel)
            else:
                adj[rel] = None  # type: ignore[index]  # a dict (see adjacency.py)
            if rid > top:
                top = rid
        self.next_rel_id = top + 1

    def apply_redo(self, ops) -> None:
        """Replay one committed transaction's redo ops (as decoded from disk: lists, not tuples).
        Raises KeyError or ValueError when an op names something that is not there."""
        nodes = self.nodes
        rels = self.rels
        for op in ops:
            code = op[0]
            if code == "cn":
                self.restore_node(op[1], op[2], op[3])
            elif code == "sn":
                self.set_prop(nodes[op[1]], op[2], op[3])
            elif code == "cr":
                self.restore_rel(op[1], op[2], op[3], op[4], op[5])
            elif code == "sr":
                self.set_prop(rels[op[1]], op[2], op[3])
            elif code == "al":
                self.add_label(nodes[op[1]], op[2])
            elif code == "rl":
                self.remove_label(nodes[op[1]], op[2])
            elif code == "dr":
                self.delete_rel(rels[op[1]])
            elif code == "dn":
                self.delete_node(nodes[op[1]])
            elif code == "ci" or code == "xi":
                self.create_index(index_from_row(op[1:]))
            elif code == "di":
                self.drop_index(op[1])
            elif code == "cc" or code == "xc":
                self.create_constraint(constraint_from_row(op[1:]))
            elif code == "dc":
                self.drop_constraint(op[1])
            else:
                raise ValueError(f"unknown op {code!r}")
