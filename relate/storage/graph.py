"""The in-memory property graph every store kind loads into and writes from.

Invariants (kept by every mutating method, undone by `Transaction.rollback`):
- `nodes` (a dict) and `rels` (a `RelTable`, blocks of slots by id) map id -> live record; ids
  are never reused within a store.
- adjacency lives on the node records (`node.out_rels` / `node.in_rels`); its invariants are
  at the top of `adjacency.py`, which owns it.
- `node.labels` is a frozenset interned per graph (`_label_sets`): nodes with the same labels
  share one; adding or removing a label swaps in another, never mutates it.
- `by_label[label]` holds exactly the live nodes carrying that label (insertion ordered).
- each property index `(label, key)` maps a hashable value to the live labelled node holding it
  while it is the only one, else to `{node id: node}` in insertion order (`index_lookup` hides
  which).
- records created without properties share one empty map (`_NO_PROPS`, see `props.py`), and
  relationships with equal int/str property maps share one (`_shared_props`); `set_prop`, the
  only writer of property maps, gives a record its own map before its first change.
- a label column (`column`, `label_columns.py`) equals a scan of `by_label[label]` whenever it
  is read: a node joining a label is appended there (the column catches up on read), a property
  write changes the column in place (`label_columns.set_value`), a node leaving a label drops
  that label's column (`label_columns.drop`).
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
    ("xi", ...) / ("xc", ...)   create an index / constraint of a later kind (`schema_defs.py` rows)
Ops carry copies of maps and label sets, so a later change in the same transaction cannot reach
back into an earlier op.

The class is assembled from three files, one concern each: this one (records, labels, property
indexes, schema, undo and redo), `adjacency.py` (the `Adjacency` mixin: linking relationships and
walking them) and `graph_load.py` (the `GraphLoad` mixin: snapshot loading and redo replay).  The
schema definitions live in `schema_defs.py`; every name is importable from here as before.
"""
from __future__ import annotations

from ..values.compare import equals, hashable
from ..values import Node, Relationship
from .adjacency import _SMALL as _SMALL  # re-exported: the layout tests read it here
from .adjacency import Adjacency
from .graph_load import GraphLoad
from .graph_schema import GraphSchema
from .history import History
from .index_order import OrderedKeys
from . import label_columns
from .props import NO_PROPS as _NO_PROPS
from .props import SharedMaps
from .reltable import RelTable
from .schema_defs import ConstraintDef, ConstraintKind, IndexDef

__all__ = ["ConstraintDef", "ConstraintKind", "Graph", "IndexDef", "Notes", "Transaction"]

# values whose index entry holds exactly the nodes equal to them (NaN excepted, checked apart)
_EXACT_IN_INDEX = frozenset((str, int, float, bool))


class Transaction:
    """An undo log (and, on durable stores, a redo log).  `rollback` replays the undo log backwards;
    `rollback_to(savepoint())` replays it back to a mark, so one failed statement of an explicit
    transaction leaves the statements before it in place."""

    __slots__ = ("undo", "dirty", "redo", "notes")

    def __init__(self, durable: bool = False) -> None:
        self.undo: list = []
        self.dirty = False
        self.redo: list | None = [] if durable else None
        # what the history needs of a writing transaction (`Notes`), given by its first write
        # statement: a read's transaction never gets one
        self.notes: Notes | None = None

    def rollback(self) -> None:
        while self.undo:
            self.undo.pop()()
        if self.redo is not None:
            self.redo.clear()

    def savepoint(self) -> tuple[int, int]:
        """A mark of how far the logs reach now, for `rollback_to`."""
        return len(self.undo), (len(self.redo) if self.redo is not None else 0)

    def rollback_to(self, mark: tuple[int, int]) -> None:
        """Undo every mutation logged after `mark` (`dirty` stays: the transaction still commits)."""
        undo_mark, redo_mark = mark
        undo = self.undo
        while len(undo) > undo_mark:
            undo.pop()()
        if self.redo is not None:
            del self.redo[redo_mark:]


class Notes:
    """A writing transaction's notes for the history (history.py): its time (None until the commit
    reads the clock), its AT VALID time, its provenance, and existing records as its first change
    of each found them (id -> (record, labels, a copy of the properties)).  A transaction that only
    created undated records gets none: the commit records it from the ids and one clock reading."""

    __slots__ = ("now", "valid", "provenance", "pre_nodes", "pre_rels")

    def __init__(self, now: int | None, valid: int | None = None, provenance: dict | None = None) -> None:
        self.now = now
        self.valid = valid
        self.provenance = provenance
        self.pre_nodes: dict = {}
        self.pre_rels: dict = {}


class Graph(Adjacency, GraphLoad, GraphSchema):
    def __init__(self) -> None:
        self.nodes: dict[int, Node] = {}
        self.rels = RelTable()
        self.by_label: dict[str, dict[int, Node]] = {}
        self.indexes: dict[str, IndexDef] = {}
        self.constraints: dict[str, ConstraintDef] = {}
        # (label, key) -> value -> the node holding it, or {node id: node} when several do
        self.index_data: dict[tuple[str, str], dict[object, Node | dict[int, Node]]] = {}
        # label -> ((key, index_data[(label, key)]), ...): what a node write of that label keeps up
        # (derived from index_data by `_indexes_changed`, after every change of its entries)
        self._label_indexes: dict[str, tuple] = {}
        # (type, key) -> value -> the relationship holding it, or {rel id: rel} (graph_schema.py)
        self.rel_index_data: dict[tuple[str, str], dict] = {}
        # (label, key) -> the index's keys in order, kept once a range seek asked (index_order.py)
        self._ordered: dict[tuple[str, str], OrderedKeys] = {}
        # label -> index name -> the entries of a composite or TEXT node index (index_entries.py)
        self.node_entries: dict[str, dict] = {}
        self.touched: dict | None = None  # id -> entity written by the running statement (graph_schema.py)
        self._label_sets: dict[frozenset | tuple, frozenset] = {frozenset(): frozenset()}
        self._shared_props = SharedMaps()  # relationship property maps shared by value (props.py)
        self.next_node_id = 0
        self.next_rel_id = 0
        self.txn: Transaction | None = None
        self.schema_version = 0
        self.durable = False  # set by a store that writes redo ops to disk
        # label -> its cached scan (label_columns.py), kept up to date by the writers below
        self._columns: dict[str, label_columns.Column] = {}
        # once a search ran (relate/search/state.py): the ids of the nodes changed since its
        # indexes last caught up, and the search's own state (None: built anew on first use)
        self.search_dirty: set[int] | None = None
        self.search_state: object = None
        self.history = History()  # versions beside the current state (history.py)

    def replace_with(self, other: "Graph") -> None:
        """Take over `other`'s contents (a live reader reloading from a newer snapshot), keeping
        this object, which the database and its plans refer to."""
        version = self.schema_version
        durable = self.durable
        self.__dict__.update(other.__dict__)  # `other`'s label columns (if any) describe its nodes
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

    def _pre(self, entity, is_node: bool) -> None:
        """Keep what an existing record looked like before this transaction first changed it."""
        t = self.txn
        if t is not None:
            notes = t.notes
            if notes is None:  # the first change of an existing record: its time is read at commit
                notes = t.notes = Notes(None)
            pre = notes.pre_nodes if is_node else notes.pre_rels
            if entity.id not in pre:
                pre[entity.id] = (entity, entity.labels if is_node else None, dict(entity.props))

    def _labels(self, labels) -> frozenset:
        """The graph's shared frozenset holding exactly `labels` (a tuple seen before is a key
        of `_label_sets` too, so a CREATE's label tuple finds its set without building one)."""
        sets = self._label_sets
        if type(labels) is tuple:
            shared = sets.get(labels)
            if shared is not None:
                return shared
        key = frozenset(labels)
        shared = sets.get(key)
        if shared is None:
            shared = sets[key] = key
        if type(labels) is tuple:
            sets[labels] = shared
        return shared

    # ---------------------------------------------------------------- index upkeep
    def _indexes_changed(self) -> None:
        """`index_data` gained, lost or replaced an entry map: derive `_label_indexes` again."""
        found: dict[str, list] = {}
        for (lb, k), data in self.index_data.items():
            found.setdefault(lb, []).append((k, data))
        self._label_indexes = {lb: tuple(pairs) for lb, pairs in found.items()}

    def _index_add(self, node: Node, label: str, key: str | None = None) -> None:
        pairs = self._label_indexes.get(label)
        if pairs is not None:
            props = node.props
            for k, data in pairs:
                if (key is not None and k != key) or k not in props:
                    continue
                v = props[k]
                value = v if type(v) is str or type(v) is int else hashable(v)
                held = data.get(value)
                if held is None:
                    data[value] = node
                    if self._ordered:
                        self._order_changed(label, k, value, True)
                elif held.__class__ is dict:
                    held[node.id] = node
                elif held is not node:
                    # a Node: `__class__ is dict` (no isinstance on this path) narrows only its own branch
                    data[value] = {held.id: held, node.id: node}  # type: ignore[union-attr,dict-item]
        if self.node_entries:
            for entries in self.node_entries.get(label, {}).values():
                entries.add(node, key)

    def _index_remove(self, node: Node, label: str, key: str | None = None) -> None:
        pairs = self._label_indexes.get(label)
        if pairs is not None:
            props = node.props
            for k, data in pairs:
                if (key is not None and k != key) or k not in props:
                    continue
                value = hashable(props[k])
                held = data.get(value)
                if held is None:
                    continue
                if held.__class__ is dict:
                    held.pop(node.id, None)
                    if len(held) == 1:
                        data[value] = next(iter(held.values()))
                    elif not held:
                        del data[value]
                        if self._ordered:
                            self._order_changed(label, k, value, False)
                elif held is node:
                    del data[value]
                    if self._ordered:
                        self._order_changed(label, k, value, False)
        if self.node_entries:
            for entries in self.node_entries.get(label, {}).values():
                entries.remove(node, key)

    # ---------------------------------------------------------------- writes
    def create_node(self, labels, props: dict) -> Node:
        node = Node(self.next_node_id, self._labels(labels), dict(props) if props else _NO_PROPS)
        self.next_node_id += 1
        self.nodes[node.id] = node
        for lb in node.labels:
            self.by_label.setdefault(lb, {})[node.id] = node
            self._index_add(node, lb)
        if self.search_dirty is not None:
            self.search_dirty.add(node.id)
        if self.touched is not None:
            self._touch(node)
        t = self.txn
        if t is not None:
            t.undo.append(lambda: self._drop_node_record(node))
            t.dirty = True
            if t.redo is not None:
                t.redo.append(("cn", node.id, list(node.labels), dict(node.props)))
        return node

    def _drop_node_record(self, node: Node) -> None:
        if self._columns:
            label_columns.drop(self._columns, node.labels)
        if self.search_dirty is not None:
            self.search_dirty.add(node.id)
        for lb in node.labels:
            self._index_remove(node, lb)
            self.by_label.get(lb, {}).pop(node.id, None)
        self.nodes.pop(node.id, None)

    def _restore_node_record(self, node: Node) -> None:
        # appended to its labels' members: their columns catch up when read
        if self.search_dirty is not None:
            self.search_dirty.add(node.id)
        node.deleted = False
        self.nodes[node.id] = node
        for lb in node.labels:
            self.by_label.setdefault(lb, {})[node.id] = node
            self._index_add(node, lb)

    def create_rel(self, type: str, start: Node, end: Node, props: dict) -> Relationship:
        rel = Relationship(self.next_rel_id, type, start, end, self._shared_props.share(props) if props else _NO_PROPS)
        self.next_rel_id += 1
        self._link(rel)
        if self.rel_index_data:
            self._rel_index_add(rel)
        if self.touched is not None:
            self._touch(rel)
        t = self.txn
        if t is not None:
            t.undo.append(lambda: self._unlink_indexed(rel))
            t.dirty = True
            if t.redo is not None:
                t.redo.append(("cr", rel.id, type, start.id, end.id, dict(rel.props)))
        return rel

    def _unlink_indexed(self, rel: Relationship) -> None:
        if self.rel_index_data:
            self._rel_index_remove(rel)
        self._unlink(rel)

    def _link_indexed(self, rel: Relationship) -> None:
        self._link(rel)
        if self.rel_index_data:
            self._rel_index_add(rel)

    def delete_rel(self, rel: Relationship) -> bool:
        if rel.id not in self.rels:
            return False
        self._pre(rel, False)
        self._unlink_indexed(rel)
        rel.deleted = True
        self._log(lambda: self._link_indexed(rel), ("dr", rel.id))
        return True

    def delete_node(self, node: Node) -> bool:
        if node.id not in self.nodes:
            return False
        self._pre(node, True)
        self._drop_node_record(node)
        node.deleted = True
        self._log(lambda: self._restore_node_record(node), ("dn", node.id))
        return True

    def set_prop(self, entity, key: str, value) -> None:
        is_node = isinstance(entity, Node)
        t = self.txn
        if t is not None:
            notes = t.notes
            if notes is None:
                notes = t.notes = Notes(None)
            pre = notes.pre_nodes if is_node else notes.pre_rels
            if entity.id not in pre:
                pre[entity.id] = (entity, entity.labels if is_node else None, dict(entity.props))
        props = entity.props
        if props is _NO_PROPS or not is_node and self._shared_props.owns(props):
            props = entity.props = dict(props)  # a shared map is never changed in place
        had = key in props
        old = props.get(key)
        rel_indexed = not is_node and bool(self.rel_index_data)
        if is_node and self.search_dirty is not None:
            self.search_dirty.add(entity.id)
        if is_node:
            for lb in entity.labels:
                self._index_remove(entity, lb, key)
        elif rel_indexed:
            self._rel_index_remove(entity, key)
        if value is None:
            props.pop(key, None)
        else:
            props[key] = value
        if is_node:
            for lb in entity.labels:
                self._index_add(entity, lb, key)
            if self._columns:
                label_columns.set_value(self._columns, entity, key, value)
        elif rel_indexed:
            self._rel_index_add(entity, key)
        if self.touched is not None:
            self._touch(entity)

        def undo():
            indexed = not is_node and bool(self.rel_index_data)
            if is_node and self.search_dirty is not None:
                self.search_dirty.add(entity.id)
            if is_node:
                for lb in entity.labels:
                    self._index_remove(entity, lb, key)
            elif indexed:
                self._rel_index_remove(entity, key)
            if had:
                props[key] = old
            else:
                props.pop(key, None)
            if is_node:
                for lb in entity.labels:
                    self._index_add(entity, lb, key)
                if self._columns:
                    label_columns.set_value(self._columns, entity, key, old if had else None)
            elif indexed:
                self._rel_index_add(entity, key)
        self._log(undo, ("sn" if isinstance(entity, Node) else "sr", entity.id, key, value))

    def add_label(self, node: Node, label: str) -> bool:
        if label in node.labels:
            return False
        self._pre(node, True)
        self._add_label_raw(node, label)
        if self.touched is not None:
            self._touch(node)
        self._log(lambda: self._remove_label_raw(node, label), ("al", node.id, label))
        return True

    def _add_label_raw(self, node: Node, label: str) -> None:
        # appended to the label's members: its column catches up when read
        if self.search_dirty is not None:
            self.search_dirty.add(node.id)
        node.labels = self._labels(node.labels | {label})
        self.by_label.setdefault(label, {})[node.id] = node
        self._index_add(node, label)

    def _remove_label_raw(self, node: Node, label: str) -> None:
        if self._columns:
            label_columns.drop(self._columns, (label,))
        if self.search_dirty is not None:
            self.search_dirty.add(node.id)
        self._index_remove(node, label)
        node.labels = self._labels(node.labels - {label})
        self.by_label.get(label, {}).pop(node.id, None)

    def remove_label(self, node: Node, label: str) -> bool:
        if label not in node.labels:
            return False
        self._pre(node, True)
        self._remove_label_raw(node, label)
        self._log(lambda: self._add_label_raw(node, label), ("rl", node.id, label))
        return True

    # ---------------------------------------------------------------- reads
    def nodes_with_label(self, label: str):
        return self.by_label.get(label, {}).values()

    # `(nodes, values)`: the nodes carrying a label, in scan order, and their values of a key
    # (None where absent), kept between statements and through writes (`label_columns.py`); None
    # the first time a label is asked for: building the column costs a scan, so it is built on
    # the second read (a label read more than once).  A plain function as the method: no frame
    # of its own.
    column = label_columns.read

    def label_count(self, label: str) -> int:
        return len(self.by_label.get(label, {}))

    def index_lookup(self, label: str, key: str, value) -> list[Node]:
        """The `label` nodes whose `key` equals `value` in Cypher's sense, through the index on
        (label, key), which must exist; a new list."""
        data = self.index_data[(label, key)]
        t = type(value)
        held = data.get(value if t is str or t is int else hashable(value))
        if held is None:
            return []
        nodes: list[Node] = list(held.values()) if held.__class__ is dict else [held]  # type: ignore[list-item]
        if t not in _EXACT_IN_INDEX or value != value:
            # the index groups values the way DISTINCT does (NaN with NaN, lists holding nulls
            # by their elements); equality is stricter there
            nodes = [n for n in nodes if equals(n.props.get(key), value) is True]
        return nodes
