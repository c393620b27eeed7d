"""A graph's label columns: label -> its nodes in scan order and, per property key asked for,
their values (None where absent), kept up to date through writes instead of dropped by them.

Scans with an equality and per-property counts read these (`Graph.column`, used by
`exec/scan_filter.py` and `exec/grouped_count.py`).  A label gets a column the second time it is
asked for (the first ask only registers it: building costs a scan), and from then on:

- a node joining the label (created, labelled, restored by an undo) is appended to the end of
  `by_label[label]`, so the column catches up when it is next read: the members past its end are
  the newest ones (`reversed` over the dict), and their values are read then;
- a property write changes the value in place (`set_value`; the node's position is found in
  `pos`, built the first time a write needs it); a node not yet caught up is read later anyway;
- a node leaving the label (deleted, unlabelled, a create undone) drops the column's contents
  (`drop`): the label's next read builds it again, from a fresh scan.

So what each column holds equals a scan of `by_label[label]` at the moment it is read, as long
as every change to a node's labels or properties goes through `Graph`'s writers (the property
test in tests/storage/test_label_columns_writes.py interleaves writes and cached reads).
"""
from __future__ import annotations

from itertools import islice


class Column:
    """One label's cached scan: `members` is the graph's `by_label[label]` dict it mirrors (None:
    registered, not built yet), `nodes` the members in order as far as caught up, `values` key ->
    the values of `nodes` in the same order, `pos` node id -> index in `nodes` (None until a write
    needed it)."""

    __slots__ = ("members", "nodes", "values", "pos")

    def __init__(self) -> None:
        self.members: dict | None = None
        self.nodes: list = []
        self.values: dict[str, list] = {}
        self.pos: dict[int, int] | None = None


def read(graph, label: str, key: str):
    """-> (nodes, values of `key`) for `label` in `graph`, caught up with every write; None the
    first time the label is asked for.  (`Graph.column` is this function.)"""
    columns = graph._columns
    col = columns.get(label)
    if col is None:
        columns[label] = Column()
        return None
    members = graph.by_label.get(label)
    if members is None:
        return [], []
    rebuilt = col.members is not members  # (a flag: mypy would narrow `members` to the attribute's type)
    if rebuilt:
        col.members = members
        col.nodes = list(members.values())
        col.values = {}
        col.pos = None
    elif len(members) != len(col.nodes):
        _catch_up(col, members)
    nodes = col.nodes
    got = col.values.get(key)
    if got is None:
        got = col.values[key] = [n.props.get(key) for n in nodes]
    return nodes, got


def _catch_up(col: Column, members: dict) -> None:
    """Take in the members appended since the column was last read (the newest ones)."""
    nodes = col.nodes
    new = list(islice(reversed(members.values()), len(members) - len(nodes)))
    new.reverse()
    start = len(nodes)
    nodes += new
    for k, values in col.values.items():
        values += [n.props.get(k) for n in new]
    pos = col.pos
    if pos is not None:
        for i, n in enumerate(new, start):
            pos[n.id] = i


def drop(columns: dict[str, Column], labels) -> None:
    """A node left each of `labels`: their columns are built again when next read."""
    for lb in labels:
        col = columns.get(lb)
        if col is not None:
            col.members = None
            col.nodes = []
            col.values = {}
            col.pos = None


def set_value(columns: dict[str, Column], node, key: str, value) -> None:
    """`node`'s `key` is now `value` (None: removed): change it in the columns that hold it."""
    for lb in node.labels:
        col = columns.get(lb)
        if col is None:
            continue
        values = col.values.get(key)
        if values is None:
            continue
        pos = col.pos
        if pos is None:
            pos = col.pos = {n.id: i for i, n in enumerate(col.nodes)}
        i = pos.get(node.id)
        if i is not None:  # else not caught up yet: read when it is
            values[i] = value
