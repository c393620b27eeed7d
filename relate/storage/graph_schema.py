"""The schema half of `Graph` (the `GraphSchema` mixin): index and constraint definitions, the
entries of the indexes that keep them, and the record of what a statement touched, which the
constraint checks read.

Invariants (beside those at the top of `graph.py`):
- `indexes` maps a name to its `IndexDef`, owned indexes included (a uniqueness or key
  constraint's index carries the constraint's name); `constraints` maps a name to its
  `ConstraintDef`.  An owned index comes and goes with its constraint: one undo step, one redo op.
- `index_data[(label, key)]` exists exactly for the seekable node indexes (`IndexDef.seekable`),
  `rel_index_data[(type, key)]` for the seekable relationship indexes; both map a hashable value
  to the one entity holding it, or `{id: entity}` when several do.
- `_ordered[(label, key)]`, when present, holds the keys of `index_data[(label, key)]` in order
  (`index_order.OrderedKeys`): made by the first range seek, moved with every distinct value the
  index gains or loses, dropped whenever the index's entry map is replaced.
- `touched`, when not None (the engine sets it while a statement runs on a graph with
  constraints), maps `id(entity)` to each node or relationship the statement created, labelled or
  gave a property.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..values.compare import hashable
from .index_entries import CompositeEntries, PointEntries, TextEntries
from .index_order import OrderedKeys
from .schema_defs import NODE, ConstraintDef, IndexDef, constraint_row, index_row

if TYPE_CHECKING:
    from ..values import Relationship
    from .reltable import RelTable


def _add(data: dict, value, entity) -> None:
    held = data.get(value)
    if held is None:
        data[value] = entity
    elif held.__class__ is dict:
        held[entity.id] = entity
    elif held is not entity:
        data[value] = {held.id: held, entity.id: entity}


def _remove(data: dict, value, entity) -> None:
    held = data.get(value)
    if held is None:
        return
    if held.__class__ is dict:
        held.pop(entity.id, None)
        if len(held) == 1:
            data[value] = next(iter(held.values()))
        elif not held:
            del data[value]
    elif held is entity:
        del data[value]


class GraphSchema:
    """Schema definitions and relationship index upkeep (a mixin of `Graph`)."""

    if TYPE_CHECKING:
        indexes: dict[str, IndexDef]
        constraints: dict[str, ConstraintDef]
        index_data: dict
        rel_index_data: dict
        node_entries: dict
        _ordered: dict
        by_label: dict
        rels: RelTable
        schema_version: int
        touched: dict | None

        def _log(self, step, op: tuple) -> None: ...
        def _indexes_changed(self) -> None: ...

    # ---------------------------------------------------------------- lookups
    def index_for(self, label: str, key: str) -> IndexDef | None:
        """The seekable node index on (label, key), if any."""
        if (label, key) not in self.index_data:
            return None
        for d in self.indexes.values():
            if d.entity == NODE and d.seekable and d.label == label and d.key == key:
                return d
        return None

    def index_range(self, label: str, key: str, family: int, lower, lower_inclusive: bool,
                    upper, upper_inclusive: bool) -> list:
        """The `label` nodes whose `key` is a number (`family` 0) or a string (1) within the bounds
        (None: open), in value order, through the index on (label, key), which must exist."""
        return self._nodes_of(label, key, self.ordered(label, key).between(
            family, lower, lower_inclusive, upper, upper_inclusive))

    def index_prefix(self, label: str, key: str, prefix: str) -> list:
        """The `label` nodes whose `key` is a string starting with `prefix`, in value order."""
        return self._nodes_of(label, key, self.ordered(label, key).prefixed(prefix))

    def ordered(self, label: str, key: str) -> OrderedKeys:
        """The index's keys in order, built on first use and kept up to date from then on."""
        found = self._ordered.get((label, key))
        if found is None:
            found = self._ordered[(label, key)] = OrderedKeys(self.index_data[(label, key)])
        return found

    def _order_changed(self, label: str, key: str, value, added: bool) -> None:
        """The index on (label, key) gained (or lost) the distinct value `value`."""
        found = self._ordered.get((label, key))
        if found is not None:
            (found.add if added else found.remove)(value)

    def _nodes_of(self, label: str, key: str, keys: list) -> list:
        data = self.index_data[(label, key)]
        out: list = []
        for k in keys:
            held = data[k]
            if held.__class__ is dict:
                out.extend(held.values())
            else:
                out.append(held)
        return out

    def entries_for(self, label: str) -> list:
        """(IndexDef, entries) for each composite or TEXT index on `label` (`index_entries.py`),
        in the order of their names."""
        found = self.node_entries.get(label)
        if not found:
            return []
        return [(self.indexes[name], found[name]) for name in sorted(found)]

    def rel_index_for(self, type_: str, key: str) -> IndexDef | None:
        """The seekable relationship index on (type, key), if any."""
        if (type_, key) not in self.rel_index_data:
            return None
        for d in self.indexes.values():
            if d.entity != NODE and d.seekable and d.label == type_ and d.key == key:
                return d
        return None

    def rel_index_lookup(self, type_: str, key: str, value) -> list:
        """The `type_` relationships whose `key` equals `value` in Cypher's sense (a new list)."""
        from ..values.compare import equals
        data = self.rel_index_data[(type_, key)]
        held = data.get(hashable(value))
        if held is None:
            return []
        rels = list(held.values()) if held.__class__ is dict else [held]
        return [r for r in rels if equals(r.props.get(key), value) is True]

    # ---------------------------------------------------------------- relationship entries
    def _rel_index_add(self, rel: "Relationship", key: str | None = None) -> None:
        for (t, k), data in self.rel_index_data.items():
            if t == rel.type and (key is None or k == key) and k in rel.props:
                _add(data, hashable(rel.props[k]), rel)

    def _rel_index_remove(self, rel: "Relationship", key: str | None = None) -> None:
        for (t, k), data in self.rel_index_data.items():
            if t == rel.type and (key is None or k == key) and k in rel.props:
                _remove(data, hashable(rel.props[k]), rel)

    def _touch(self, entity) -> None:
        self.touched[id(entity)] = entity  # type: ignore[index]  # only called while it is a dict

    # ---------------------------------------------------------------- definitions
    def _build_index(self, d: IndexDef) -> tuple | None:
        """Fill the entries of a seekable index -> the key of its entry map (None: keeps none)."""
        kind = d.entries_kind
        if kind is not None:
            members = self.by_label.get(d.label, {}).values()
            entries = (CompositeEntries(d.keys, members) if kind == "composite"
                       else TextEntries(d.key, members) if kind == "text" else PointEntries(d.key, members))
            self.node_entries.setdefault(d.label, {})[d.name] = entries
            return None
        if not d.seekable:
            return None
        data: dict = {}
        if d.entity == NODE:
            for node in self.by_label.get(d.label, {}).values():
                if d.key in node.props:
                    _add(data, hashable(node.props[d.key]), node)
            self.index_data[(d.label, d.key)] = data
            self._indexes_changed()
            self._ordered.pop((d.label, d.key), None)
        else:
            for rel in self.rels.values():
                if rel.type == d.label and d.key in rel.props:
                    _add(data, hashable(rel.props[d.key]), rel)
            self.rel_index_data[(d.label, d.key)] = data
        return (d.label, d.key)

    def _unbuild_index(self, d: IndexDef):
        if d.entries_kind is not None:
            found = self.node_entries.get(d.label, {})
            entries = found.pop(d.name, None)
            if not found:
                self.node_entries.pop(d.label, None)
            return entries
        if not d.seekable:
            return None
        if d.entity == NODE:
            self._ordered.pop((d.label, d.key), None)
            data = self.index_data.pop((d.label, d.key), None)
            self._indexes_changed()
            return data
        return self.rel_index_data.pop((d.label, d.key), None)

    def _rebuild_entries(self, d: IndexDef, data) -> None:
        if data is not None and d.entries_kind is not None:
            self.node_entries.setdefault(d.label, {})[d.name] = data
        elif data is not None:
            if d.entity == NODE:
                self._ordered.pop((d.label, d.key), None)
            (self.index_data if d.entity == NODE else self.rel_index_data)[(d.label, d.key)] = data
            if d.entity == NODE:
                self._indexes_changed()

    def create_index(self, d: IndexDef) -> None:
        self.indexes[d.name] = d
        self._build_index(d)
        self.schema_version += 1

        def undo():
            self.indexes.pop(d.name, None)
            self._unbuild_index(d)
            self.schema_version += 1
        row = index_row(d)
        # the later kinds get op codes of their own, which an older relate refuses instead of misreading
        self._log(undo, ("ci" if len(row) == 3 else "xi", *row))

    def drop_index(self, name: str) -> None:
        d = self.indexes.pop(name)
        data = self._unbuild_index(d)
        self.schema_version += 1

        def undo():
            self.indexes[name] = d
            self._rebuild_entries(d, data)
            self.schema_version += 1
        self._log(undo, ("di", name))

    def create_constraint(self, d: ConstraintDef) -> None:
        self.constraints[d.name] = d
        owned = d.owned_index() if d.owns_index else None
        if owned is not None:
            self.indexes[owned.name] = owned
            self._build_index(owned)
        self.schema_version += 1

        def undo():
            self.constraints.pop(d.name, None)
            if owned is not None:
                self.indexes.pop(owned.name, None)
                self._unbuild_index(owned)
            self.schema_version += 1
        row = constraint_row(d)
        self._log(undo, ("cc" if len(row) == 4 else "xc", *row))

    def drop_constraint(self, name: str) -> None:
        d = self.constraints.pop(name)
        owned = self.indexes.get(name)
        data = None
        if owned is not None and owned.owner == name:
            del self.indexes[name]
            data = self._unbuild_index(owned)
        else:
            owned = None
        self.schema_version += 1

        def undo():
            self.constraints[name] = d
            if owned is not None:
                self.indexes[name] = owned
                self._rebuild_entries(owned, data)
            self.schema_version += 1
        self._log(undo, ("dc", name))
