"""The in-memory property graph every store kind loads into and writes from.

Invariants (kept by every mutating method, undone by `Transaction.rollback`):
- `nodes` and `rels` map id -> record; ids are never reused within a store.
- `out_adj[n]` / `in_adj[n]` list the live relationships leaving / entering node id n, per
  relationship type: `{type: {rel_id: rel}}`, so an expansion touches only its own type.
- `by_label[label]` holds exactly the live nodes carrying that label (insertion ordered).
- each property index `(label, key)` maps a hashable value to the ids of live labelled nodes
  holding it.
Every mutation appends an undo step to the open transaction, so a failing statement leaves the
graph exactly as it was.  On a durable store (`Graph.durable`) it also appends a redo op, a plain
tuple naming the change by ids: the committed transaction's ops become its WAL record, and
`apply_redo` replays such a list (recovery, live readers).  Redo ops:

    ("cn", id, [labels], {props})   ("dn", id)
    ("cr", id, type, start, end, {props})   ("dr", id)
    ("sn"|"sr", id, key, value)     set a node's / relationship's property; value None removes it
    ("al"|"rl", id, label)          add / remove a label
    ("ci", name, label, key)   ("di", name)   create / drop an index
    ("cc", name, kind, label, [keys])   ("dc", name)   create / drop a constraint
Ops carry copies of maps and label sets, so a later change in the same transaction cannot reach
back into an earlier op.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..exec.compare import hashable
from ..values import Node, Relationship


@dataclass(frozen=True, slots=True)
class IndexDef:
    name: str
    label: str
    key: str


class ConstraintKind(Enum):
    UNIQUE = "unique"
    NOT_NULL = "not_null"
    KEY = "key"          # unique and present, over all its keys together


@dataclass(frozen=True, slots=True)
class ConstraintDef:
    """A constraint's definition, as the store keeps it; checking writes against it is the
    engine's business."""

    name: str
    kind: ConstraintKind
    label: str
    keys: tuple[str, ...]


class Transaction:
    """An undo log (and, on durable stores, a redo log).  `rollback` replays the undo log backwards."""

    __slots__ = ("undo", "dirty", "redo")

    def __init__(self, durable: bool = False) -> None:
        self.undo: list = []
        self.dirty = False
        self.redo: list | None = [] if durable else None

    def rollback(self) -> None:
        while self.undo:
            self.undo.pop()()
        if self.redo is not None:
            self.redo.clear()


class Graph:
    def __init__(self) -> None:
        self.nodes: dict[int, Node] = {}
        self.rels: dict[int, Relationship] = {}
        self.out_adj: dict[int, dict[str, dict[int, Relationship]]] = {}
        self.in_adj: dict[int, dict[str, dict[int, Relationship]]] = {}
        self.by_label: dict[str, dict[int, Node]] = {}
        self.indexes: dict[str, IndexDef] = {}
        self.constraints: dict[str, ConstraintDef] = {}
        self.index_data: dict[tuple[str, str], dict[object, dict[int, Node]]] = {}
        self.next_node_id = 0
        self.next_rel_id = 0
        self.txn: Transaction | None = None
        self.schema_version = 0
        self.durable = False  # set by a store that writes redo ops to disk

    def replace_with(self, other: "Graph") -> None:
        """Take over `other`'s contents (a live reader reloading from a newer snapshot), keeping
        this object, which the database and its plans refer to."""
        version = self.schema_version
        durable = self.durable
        self.__dict__.update(other.__dict__)
        self.schema_version = max(version, other.schema_version) + 1
        self.durable = durable

    # ---------------------------------------------------------------- transactions
    def begin(self) -> Transaction:
        self.txn = Transaction(self.durable)
        return self.txn

    def end(self) -> None:
        self.txn = None

    def _log(self, step, op: tuple) -> None:
        """Record one mutation: `step` undoes it, `op` (a redo op, see the module docstring) replays it."""
        t = self.txn
        if t is not None:
            t.undo.append(step)
            t.dirty = True
            if t.redo is not None:
                t.redo.append(op)

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
        t = self.txn
        if t is not None:
            t.undo.append(lambda: self._drop_node_record(node))
            t.dirty = True
            if t.redo is not None:
                t.redo.append(("cn", node.id, list(node.labels), dict(node.props)))
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
        t = self.txn
        if t is not None:
            t.undo.append(lambda: self._unlink(rel))
            t.dirty = True
            if t.redo is not None:
                t.redo.append(("cr", rel.id, type, start.id, end.id, dict(rel.props)))
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
        self._log(lambda: self._link(rel), ("dr", rel.id))
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
        self._log(lambda: self._restore_node_record(node), ("dn", node.id))
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
        self._log(undo, ("sn" if isinstance(entity, Node) else "sr", entity.id, key, value))

    def add_label(self, node: Node, label: str) -> bool:
        if label in node.labels:
            return False
        node.labels.add(label)
        self.by_label.setdefault(label, {})[node.id] = node
        self._index_add(node, label)
        self._log(lambda: self._remove_label_raw(node, label), ("al", node.id, label))
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
        self._log(undo, ("rl", node.id, label))
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
        self._log(undo, ("ci", d.name, d.label, d.key))

    def drop_index(self, name: str) -> None:
        d = self.indexes.pop(name)
        data = self.index_data.pop((d.label, d.key), None)
        self.schema_version += 1

        def undo():
            self.indexes[name] = d
            if data is not None:
                self.index_data[(d.label, d.key)] = data
            self.schema_version += 1
        self._log(undo, ("di", name))

    def create_constraint(self, d: ConstraintDef) -> None:
        self.constraints[d.name] = d
        self.schema_version += 1

        def undo():
            self.constraints.pop(d.name, None)
            self.schema_version += 1
        self._log(undo, ("cc", d.name, d.kind.value, d.label, list(d.keys)))

    def drop_constraint(self, name: str) -> None:
        d = self.constraints.pop(name)
        self.schema_version += 1

        def undo():
            self.constraints[name] = d
            self.schema_version += 1
        self._log(undo, ("dc", name))

    # ---------------------------------------------------------------- loading and replay
    def restore_node(self, id: int, labels, props: dict) -> Node:
        """Put a stored node back under its own id (snapshot load; no undo, no redo)."""
        node = Node(id, set(labels), props)
        self.nodes[id] = node
        self.out_adj[id] = {}
        self.in_adj[id] = {}
        for lb in node.labels:
            self.by_label.setdefault(lb, {})[id] = node
            if self.index_data:
                self._index_add(node, lb)
        if id >= self.next_node_id:
            self.next_node_id = id + 1
        return node

    def restore_rel(self, id: int, type: str, start: int, end: int, props: dict) -> Relationship:
        """Put a stored relationship back under its own id (snapshot load; no undo, no redo)."""
        rel = Relationship(id, type, self.nodes[start], self.nodes[end], props)
        self._link(rel)
        if id >= self.next_rel_id:
            self.next_rel_id = id + 1
        return rel

    def load_bulk(self, nodes, rels) -> None:
        """Fill an empty graph from stored records `[id, labels, props]` and
        `[id, type, start, end, props]` (ids kept; no undo, no redo; indexes are created after)."""
        all_nodes = self.nodes
        all_rels = self.rels
        out_adj = self.out_adj
        in_adj = self.in_adj
        by_label = self.by_label
        top = self.next_node_id - 1
        for nid, labels, props in nodes:
            node = Node(nid, set(labels), props)
            all_nodes[nid] = node
            out_adj[nid] = {}
            in_adj[nid] = {}
            for lb in labels:
                members = by_label.get(lb)
                if members is None:
                    members = by_label[lb] = {}
                members[nid] = node
            if nid > top:
                top = nid
        self.next_node_id = top + 1
        top = self.next_rel_id - 1
        for rid, type_, s, e, props in rels:
            rel = Relationship(rid, type_, all_nodes[s], all_nodes[e], props)
            all_rels[rid] = rel
            by_type = out_adj[s].get(type_)
            if by_type is None:
                by_type = out_adj[s][type_] = {}
            by_type[rid] = rel
            by_type = in_adj[e].get(type_)
            if by_type is None:
                by_type = in_adj[e][type_] = {}
            by_type[rid] = rel
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
            elif code == "ci":
                self.create_index(IndexDef(op[1], op[2], op[3]))
            elif code == "di":
                self.drop_index(op[1])
            elif code == "cc":
                self.create_constraint(ConstraintDef(op[1], ConstraintKind(op[2]), op[3], tuple(op[4])))
            elif code == "dc":
                self.drop_constraint(op[1])
            else:
                raise ValueError(f"unknown op {code!r}")

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
