"""The in-memory property graph every store kind loads into and writes from.

Invariants (kept by every mutating method, undone by `Transaction.rollback`):
- `nodes` and `rels` map id -> record; ids are never reused within a store.
- `out_adj[n]` / `in_adj[n]` list the live relationships leaving / entering node id n, per
  relationship type: `{type: {rel_id: rel}}`, so an expansion touches only its own type.
- `by_label[label]` holds exactly the live nodes carrying that label (insertion ordered).
- each property index `(label, key)` maps a hashable value to the ids of live labelled nodes
  holding it.
Every mutation appends an undo step to the open transaction, so a failing statement leaves the
graph exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..exec.compare import hashable
from ..values import Node, Relationship


@dataclass(frozen=True, slots=True)
class IndexDef:
    name: str
    label: str
    key: str


class Transaction:
    """An undo log.  `rollback` replays it backwards."""

    __slots__ = ("undo", "dirty")

    def __init__(self) -> None:
        self.undo: list = []
        self.dirty = False

    def rollback(self) -> None:
        while self.undo:
            self.undo.pop()()


class Graph:
    def __init__(self) -> None:
        self.nodes: dict[int, Node] = {}
        self.rels: dict[int, Relationship] = {}
        self.out_adj: dict[int, dict[str, dict[int, Relationship]]] = {}
        self.in_adj: dict[int, dict[str, dict[int, Relationship]]] = {}
        self.by_label: dict[str, dict[int, Node]] = {}
        self.indexes: dict[str, IndexDef] = {}
        self.index_data: dict[tuple[str, str], dict[object, dict[int, Node]]] = {}
        self.next_node_id = 0
        self.next_rel_id = 0
        self.txn: Transaction | None = None
        self.schema_version = 0

    # ---------------------------------------------------------------- transactions
    def begin(self) -> Transaction:
        self.txn = Transaction()
        return self.txn

    def end(self) -> None:
        self.txn = None

    def _log(self, step) -> None:
        t = self.txn
        if t is not None:
            t.undo.append(step)
            t.dirty = True

    # ---------------------------------------------------------------- index upkeep
    def _index_add(self, node: Node, label: str, key: str | None = None) -> None:
        for (lb, k), data in self.index_data.items():
            if lb != label or (key is not None and k != key) or k not in node.props:
                continue
            data.setdefault(hashable(node.props[k]), {})[node.id] = node

    def _index_remove(self, node: Node, label: str, key: str | None = None) -> None:
        for (lb, k), data in self.index_data.items():
            if lb != label or (key is not None and k != key) or k not in node.props:
                continue
            bucket = data.get(hashable(node.props[k]))
            if bucket is not None:
                bucket.pop(node.id, None)
                if not bucket:
                    del data[hashable(node.props[k])]

    # ---------------------------------------------------------------- writes
    def create_node(self, labels, props: dict) -> Node:
        node = Node(self.next_node_id, set(labels), dict(props))
        self.next_node_id += 1
        self.nodes[node.id] = node
        self.out_adj[node.id] = {}
        self.in_adj[node.id] = {}
        for lb in node.labels:
            self.by_label.setdefault(lb, {})[node.id] = node
            self._index_add(node, lb)
        self._log(lambda: self._drop_node_record(node))
        return node

    def _drop_node_record(self, node: Node) -> None:
        for lb in node.labels:
            self._index_remove(node, lb)
            self.by_label.get(lb, {}).pop(node.id, None)
        self.nodes.pop(node.id, None)
        self.out_adj.pop(node.id, None)
        self.in_adj.pop(node.id, None)

    def _restore_node_record(self, node: Node) -> None:
        node.deleted = False
        self.nodes[node.id] = node
        self.out_adj.setdefault(node.id, {})
        self.in_adj.setdefault(node.id, {})
        for lb in node.labels:
            self.by_label.setdefault(lb, {})[node.id] = node
            self._index_add(node, lb)

    def create_rel(self, type: str, start: Node, end: Node, props: dict) -> Relationship:
        rel = Relationship(self.next_rel_id, type, start, end, dict(props))
        self.next_rel_id += 1
        self._link(rel)
        self._log(lambda: self._unlink(rel))
        return rel

    def _link(self, rel: Relationship) -> None:
        rel.deleted = False
        self.rels[rel.id] = rel
        self.out_adj[rel.start.id].setdefault(rel.type, {})[rel.id] = rel
        self.in_adj[rel.end.id].setdefault(rel.type, {})[rel.id] = rel

    def _unlink(self, rel: Relationship) -> None:
        self.rels.pop(rel.id, None)
        by_type = self.out_adj.get(rel.start.id, {}).get(rel.type)
        if by_type is not None:
            by_type.pop(rel.id, None)
        by_type = self.in_adj.get(rel.end.id, {}).get(rel.type)
        if by_type is not None:
            by_type.pop(rel.id, None)

    def delete_rel(self, rel: Relationship) -> bool:
        if rel.id not in self.rels:
            return False
        self._unlink(rel)
        rel.deleted = True
        self._log(lambda: self._link(rel))
        return True

    def degree(self, node: Node) -> int:
        return (sum(len(d) for d in self.out_adj.get(node.id, {}).values())
                + sum(len(d) for d in self.in_adj.get(node.id, {}).values()))

    def node_rels(self, node: Node) -> list[Relationship]:
        seen: dict[int, Relationship] = {}
        for d in self.out_adj.get(node.id, {}).values():
            seen.update(d)
        for d in self.in_adj.get(node.id, {}).values():
            seen.update(d)
        return list(seen.values())

    def delete_node(self, node: Node) -> bool:
        if node.id not in self.nodes:
            return False
        self._drop_node_record(node)
        node.deleted = True
        self._log(lambda: self._restore_node_record(node))
        return True

    def set_prop(self, entity, key: str, value) -> None:
        had = key in entity.props
        old = entity.props.get(key)
        if isinstance(entity, Node):
            for lb in entity.labels:
                self._index_remove(entity, lb, key)
        if value is None:
            entity.props.pop(key, None)
        else:
            entity.props[key] = value
        if isinstance(entity, Node):
            for lb in entity.labels:
                self._index_add(entity, lb, key)

        def undo():
            if isinstance(entity, Node):
                for lb in entity.labels:
                    self._index_remove(entity, lb, key)
            if had:
                entity.props[key] = old
            else:
                entity.props.pop(key, None)
            if isinstance(entity, Node):
                for lb in entity.labels:
                    self._index_add(entity, lb, key)
        self._log(undo)

    def add_label(self, node: Node, label: str) -> bool:
        if label in node.labels:
            return False
        node.labels.add(label)
        self.by_label.setdefault(label, {})[node.id] = node
        self._index_add(node, label)
        self._log(lambda: self._remove_label_raw(node, label))
        return True

    def _remove_label_raw(self, node: Node, label: str) -> None:
        self._index_remove(node, label)
        node.labels.discard(label)
        self.by_label.get(label, {}).pop(node.id, None)

    def remove_label(self, node: Node, label: str) -> bool:
        if label not in node.labels:
            return False
        self._remove_label_raw(node, label)

        def undo():
            node.labels.add(label)
            self.by_label.setdefault(label, {})[node.id] = node
            self._index_add(node, label)
        self._log(undo)
        return True

    # ---------------------------------------------------------------- schema
    def index_for(self, label: str, key: str) -> IndexDef | None:
        for d in self.indexes.values():
            if d.label == label and d.key == key:
                return d
        return None

    def create_index(self, d: IndexDef) -> None:
        self.indexes[d.name] = d
        data: dict[object, dict[int, Node]] = {}
        for node in self.by_label.get(d.label, {}).values():
            if d.key in node.props:
                data.setdefault(hashable(node.props[d.key]), {})[node.id] = node
        self.index_data[(d.label, d.key)] = data
        self.schema_version += 1

        def undo():
            self.indexes.pop(d.name, None)
            self.index_data.pop((d.label, d.key), None)
            self.schema_version += 1
        self._log(undo)

    def drop_index(self, name: str) -> None:
        d = self.indexes.pop(name)
        data = self.index_data.pop((d.label, d.key), None)
        self.schema_version += 1

        def undo():
            self.indexes[name] = d
            if data is not None:
                self.index_data[(d.label, d.key)] = data
            self.schema_version += 1
        self._log(undo)

    # ---------------------------------------------------------------- reads
    def nodes_with_label(self, label: str):
        return self.by_label.get(label, {}).values()

    def label_count(self, label: str) -> int:
        return len(self.by_label.get(label, {}))

    def index_lookup(self, label: str, key: str, value) -> list[Node]:
        data = self.index_data.get((label, key))
        if data is None:
            return [n for n in self.nodes_with_label(label) if n.props.get(key) == value]
        return list(data.get(hashable(value), {}).values())
