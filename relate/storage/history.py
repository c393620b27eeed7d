"""The graph's history: committed transactions -> versions of nodes, relationships, label sets
and property values, beside the current `Graph` (which stays the state valid now as recorded now).

A version is `(value, vf, vt, tf, tt)`: valid time `[vf, vt)` and transaction time `[tf, tt)`,
int nanoseconds since the epoch, None for an open end.  Writes never destroy a version: they
close it (`tt` = the transaction's time) and append what replaces it, leftovers included.

Sparse on purpose: an entity created and never changed has no versions, only the `TxRecord` of
the transaction that created it, found by its id (`Creators`: ids come in order, so each
transaction's creations are one range of ids and cost nothing each; an id from a store written
before history existed counts as created at time 0 by transaction 0, TX0).  Its
full record (`Full`) is made the first time a transaction changes or deletes it, from the state
that transaction found.  Deleted and future-dated entities live only here (their `Full` keeps
the record object), not in the current graph.

How a transaction reaches this module: while it runs, `Graph`'s writers note, on the first change of
an existing record, that record's labels and properties before the change (`Notes.pre_nodes` /
`pre_rels`); what it created are the ids past the last transaction's.  After the store made the transaction
durable, `commit` compares before and after and writes the versions, dated by the transaction's
AT VALID time `v` (its own time without one):
- property and label writes are timeline inserts: the new value holds from `v` to the next later
  version's valid_from (or open); the version it splits is closed and its part before `v` appended;
- a delete ends validity from `v` (every version reaching past `v` is closed, the part before `v`
  appended);
- then, when the transaction was dated (or the entity has future versions), the current graph is
  brought to what is valid now (`_reconcile`): a back-dated value behind a newer one leaves the
  current value, a future-dated create or value waits.  Times at which something becomes due are
  kept in `due` (a heap); `apply_due(now)` reconciles what became due (each statement does it
  after its clock reading, replay before each transaction).
"""
from __future__ import annotations

import heapq
from bisect import bisect_right
from operator import itemgetter

from ..values import Node, Relationship
from ..values.compare import equals

ABSENT = object()  # a tombstone: the property (or entity) is absent in the version's span
_NEVER = 1 << 126  # "no due time": compares above every real time
_tuple_new = tuple.__new__


class TxRecord(tuple):
    """One committed transaction: its number, its time (txn_from of what it wrote), its AT VALID
    time (None: its own time) and the provenance passed with it (a dict or None).  A tuple: every
    commit makes one, and `tuple.__new__` builds it without running Python code."""

    __slots__ = ()

    def __new__(cls, seq: int, time: int, valid: int | None, provenance: dict | None) -> "TxRecord":
        return _tuple_new(cls, (seq, time, valid, provenance))

    seq = property(itemgetter(0))
    time = property(itemgetter(1))
    valid = property(itemgetter(2))
    provenance = property(itemgetter(3))

    @property
    def valid_from(self) -> int:
        return self.time if self.valid is None else self.valid

    def as_dict(self) -> dict:
        from ..temporal.instant import render_ns
        return {"seq": self.seq, "txnTime": render_ns(self.time), "txnTimeNanos": self.time,
                "validTime": render_ns(self.valid_from), "validTimeNanos": self.valid_from,
                "provenance": dict(self.provenance) if self.provenance else None}


TX0 = TxRecord(0, 0, None, None)


class Version:
    __slots__ = ("value", "vf", "vt", "tf", "tt")

    def __init__(self, value, vf: int, vt: int | None, tf: int, tt: int | None) -> None:
        self.value = value
        self.vf = vf
        self.vt = vt
        self.tf = tf
        self.tt = tt

    def row(self) -> list:
        return [self.value, self.vf, self.vt, self.tf, self.tt]


class Full:
    """The version lists of one entity.  `obj` is its record (in the current graph or not);
    `labels` is empty for a relationship."""

    __slots__ = ("obj", "exist", "labels", "props")

    def __init__(self, obj, exist: list, labels: list, props: dict) -> None:
        self.obj = obj
        self.exist = exist
        self.labels = labels
        self.props = props


def _same(a, b) -> bool:
    if a is b:
        return True
    if a is ABSENT or b is ABSENT or type(a) is not type(b):
        return False
    return equals(a, b) is True


def holding(versions: list, t: int, tt: int | None, seen: list | None = None):
    """The version of `versions` valid at `t` as recorded at `tt` (None: now, the open ones)."""
    if seen is not None:
        seen[0] += len(versions)
    for x in versions:
        if tt is None:
            if x.tt is not None:
                continue
        elif x.tf > tt or (x.tt is not None and x.tt <= tt):
            continue
        if x.vf <= t and (x.vt is None or t < x.vt):
            return x
    return None


def timeline_insert(versions: list, v: int, value, now: int, last: bool = False):
    """Record that `value` holds from `v` until the next later version (recorded now) -> the new
    version, or None when `value` already holds at `v`.  `last`: no version anywhere begins after
    `v` (`History.max_vf`), so what holds at `v` is the open-ended one (every other end is some
    version's beginning): found from the newest end, where it was appended."""
    held = None
    later = None
    if last:
        for x in reversed(versions):
            if x.tt is None and x.vt is None:
                held = x
                break
    else:
        for x in reversed(versions):
            if x.tt is not None:
                continue
            if x.vf > v:
                if later is None or x.vf < later:
                    later = x.vf
            elif held is None and (x.vt is None or v < x.vt):
                held = x
    if held is not None and _same(held.value, value):
        return None
    if held is not None:
        held.tt = now
        if held.vf < v:
            versions.append(Version(held.value, held.vf, v, now, None))
    elif value is ABSENT and later is None:
        return None
    new = Version(value, v, later, now, None)
    versions.append(new)
    return new


def _off_now(x: Version | None, now: int) -> bool:
    """Whether a new version is not what holds now (so the current graph may need fixing)."""
    return x is not None and (x.vf > now or (x.vt is not None and x.vt <= now))


def range_end(versions: list, v: int, now: int) -> None:
    """End validity from `v` on: close every version reaching past `v`, keep its part before `v`."""
    for x in [x for x in versions if x.tt is None and (x.vt is None or x.vt > v)]:
        x.tt = now
        if x.vf < v:
            versions.append(Version(x.value, x.vf, v, now, None))


class Creators:
    """Which transaction created each id of one kind: ids are handed out in order and never
    reused, so the ids one transaction created form a range; `starts[i]` is where the range of
    `recs[i]` begins and `top` where the last one ends.  An id below every range (a store
    written before history) was created by TX0."""

    __slots__ = ("starts", "recs", "top")

    def __init__(self, top: int = 0) -> None:
        self.starts: list[int] = []
        self.recs: list[TxRecord] = []
        self.top = top

    def note(self, top: int, rec: TxRecord) -> int:
        """Ids up to `top` that are new were created by `rec` -> where its range begins."""
        start = self.top
        if top > start:
            self.starts.append(start)
            self.recs.append(rec)
            self.top = top
        return start

    def of(self, id: int) -> TxRecord:
        i = bisect_right(self.starts, id) - 1
        return self.recs[i] if i >= 0 else TX0


class History:
    def __init__(self) -> None:
        self.seq = 0           # the last committed transaction's number
        self.last_time = 0     # the last committed transaction's time
        self.txns: dict[int, TxRecord] = {}
        self.node_tx = Creators()  # sparse: which transaction created an id
        self.rel_tx = Creators()
        self.nodes: dict[int, Full] = {}         # full records
        self.rels: dict[int, Full] = {}
        self.due: list[tuple[int, int, int, int]] = []  # (time, 0 node / 1 rel, id, 1 if it activates)
        self.starts = 0        # due entries that activate a future version (the warning's test)
        self.next_due = _NEVER
        self.max_vf = 0        # the latest AT VALID time any transaction wrote at (timeline_insert's `last`)
        self.views: dict = {}  # (t, tt, seq) -> Graph (as_of.py)

    # ------------------------------------------------------------------ commit
    def created(self, graph, t: int) -> TxRecord:
        """Record a just-committed transaction that only created undated records, at clock reading
        `t` (moved past the last transaction's time): `commit` with empty notes, in fewer steps."""
        now = self.last_time
        now = self.last_time = t if t > now else now + 1
        seq = self.seq = self.seq + 1
        rec = self.txns[seq] = _tuple_new(TxRecord, (seq, now, None, None))
        if self.views:
            self.views.clear()
        creators = self.node_tx
        top = graph.next_node_id
        if top > creators.top:
            creators.starts.append(creators.top)
            creators.recs.append(rec)
            creators.top = top
        creators = self.rel_tx
        top = graph.next_rel_id
        if top > creators.top:
            creators.starts.append(creators.top)
            creators.recs.append(rec)
            creators.top = top
        return rec

    def commit(self, graph, notes) -> TxRecord:
        """Record the just-committed transaction of `graph` from its `Notes` (graph.py)."""
        now, valid = notes.now, notes.valid
        seq = self.seq = self.seq + 1
        rec = self.txns[seq] = TxRecord(seq, now, valid, notes.provenance)
        before = self.last_time
        if now > before:
            self.last_time = now
        if self.views:
            self.views.clear()
        # what the transaction created: the ids past the last transaction's (Creators.note, inlined)
        creators = self.node_tx
        node_lo = creators.top
        if graph.next_node_id > node_lo:
            creators.starts.append(node_lo)
            creators.recs.append(rec)
            creators.top = graph.next_node_id
        creators = self.rel_tx
        rel_lo = creators.top
        if graph.next_rel_id > rel_lo:
            creators.starts.append(rel_lo)
            creators.recs.append(rec)
            creators.top = graph.next_rel_id
        pre_nodes, pre_rels = notes.pre_nodes, notes.pre_rels
        if valid is None and not pre_nodes and not pre_rels:
            return rec  # the common write: undated creates, which the ranges above record
        v = now if valid is None else valid
        # an undated version begins at its transaction's time, so no version begins after
        # max(max_vf, last_time)
        last = v >= self.max_vf and v >= before
        if valid is not None and v > self.max_vf:
            self.max_vf = v
        future = v > now
        # a record created here: its own later changes are part of its creation
        for eid in [i for i in pre_nodes if i >= node_lo]:
            del pre_nodes[eid]
        for eid in [i for i in pre_rels if i >= rel_lo]:
            del pre_rels[eid]
        made: list = []
        if future:
            made = [n for n in map(graph.nodes.get, range(node_lo, self.node_tx.top)) if n is not None]
            made += [r for r in map(graph.rels.get, range(rel_lo, self.rel_tx.top)) if r is not None]
            for e in made:
                full = Full(e, [Version(True, v, None, now, None)],
                            [Version(e.labels, v, None, now, None)] if e.__class__ is Node else [],
                            {k: [Version(val, v, None, now, None)] for k, val in e.props.items()})
                (self.nodes if e.__class__ is Node else self.rels)[e.id] = full
        touched: list[tuple[bool, Full]] = []  # full records whose current state may be off now
        for is_node, pre in ((False, pre_rels), (True, pre_nodes)):
            for eid, (e, labels, props) in pre.items():
                changed = self._changed(graph, is_node, e, labels, props, v, now, last)
                if changed is not None:
                    touched.append((is_node, changed))
        # future creates wait in the history: relationships leave the current graph first
        for e in reversed(made):
            is_node = e.__class__ is Node
            waiting = (self.nodes if is_node else self.rels)[e.id]
            if not e.deleted:
                self._detach(graph, is_node, e)
                self._schedule(waiting, is_node, now)
        for is_node, full in sorted(touched, key=lambda p: not p[0]):  # nodes before relationships
            self._reconcile(graph, is_node, full, now)
            self._schedule(full, is_node, now)
        return rec

    def _changed(self, graph, is_node: bool, e, labels, props: dict, v: int, now: int, last: bool) -> Full | None:
        """Versions for one existing record the transaction touched -> its full record when the
        current graph may not show what is valid now (a back-dated value behind a newer one, a
        future value or delete), else None."""
        alive = (graph.nodes.get(e.id) is e) if is_node else (graph.rels.get(e.id) is e)
        if alive:
            new_props = e.props
            keys = []
            for k in (props.keys() | new_props.keys()) if props.keys() != new_props.keys() else props:
                a, b = props.get(k, ABSENT), new_props.get(k, ABSENT)
                if a is not b and not _same(a, b):  # an unchanged value is the very same object
                    keys.append(k)
            label_change = is_node and e.labels != labels
            if not keys and not label_change:
                return None
        full = self._full(is_node, e, labels, props)
        if not alive:
            range_end(full.exist, v, now)
            return full if v > now else None
        off = False
        for k in keys:
            x = timeline_insert(full.props.setdefault(k, []), v, new_props.get(k, ABSENT), now, last)
            off |= _off_now(x, now)
        if label_change:
            off |= _off_now(timeline_insert(full.labels, v, e.labels, now, last), now)
        return full if off else None

    def _full(self, is_node: bool, e, labels, props: dict) -> Full:
        table = self.nodes if is_node else self.rels
        full = table.get(e.id)
        if full is not None:
            full.obj = e
            return full
        rec = (self.node_tx if is_node else self.rel_tx).of(e.id)
        vf, tf = rec.valid_from, rec.time
        full = Full(e, [Version(True, vf, None, tf, None)],
                    [Version(labels, vf, None, tf, None)] if is_node else [],
                    {k: [Version(val, vf, None, tf, None)] for k, val in props.items()})
        table[e.id] = full
        return full

    def _schedule(self, full: Full, is_node: bool, now: int) -> None:
        times = set()
        starts = set()
        for versions in (full.exist, full.labels, *full.props.values()):
            for x in versions:
                if x.tt is None:
                    if x.vf > now:
                        starts.add(x.vf)
                    if x.vt is not None and x.vt > now:
                        times.add(x.vt)
        for t in starts | times:
            start = 1 if t in starts else 0
            heapq.heappush(self.due, (t, 0 if is_node else 1, full.obj.id, start))
            self.starts += start
        if self.due:
            self.next_due = self.due[0][0]

    # ------------------------------------------------------------------ the current graph
    def apply_due(self, graph, now: int) -> None:
        """Bring the current graph to `now`: reconcile every entity with something due by then."""
        due = self.due
        saved, graph.txn = graph.txn, None  # derived state: no undo, no redo
        try:
            while due and due[0][0] <= now:
                _t, order, eid, start = heapq.heappop(due)
                self.starts -= start
                full = (self.rels if order else self.nodes).get(eid)
                if full is not None:
                    self._reconcile(graph, not order, full, now)
        finally:
            graph.txn = saved
        self.next_due = due[0][0] if due else _NEVER
        self.views.clear()

    def _detach(self, graph, is_node: bool, e) -> None:
        saved, graph.txn = graph.txn, None
        try:
            if is_node:
                graph._drop_node_record(e)
            else:
                graph._unlink_indexed(e)
        finally:
            graph.txn = saved

    def _reconcile(self, graph, is_node: bool, full: Full, now: int) -> None:
        """Make the current graph hold what `full` says is valid now, as recorded now."""
        e = full.obj
        saved, graph.txn = graph.txn, None
        try:
            exists = holding(full.exist, now, None) is not None
            present = (graph.nodes.get(e.id) is e) if is_node else (graph.rels.get(e.id) is e)
            if not exists:
                if present:
                    if is_node:
                        for rel in [*e.out_rels, *e.in_rels]:  # a node's end ends its relationships
                            if graph.rels.get(rel.id) is rel:
                                graph._unlink_indexed(rel)
                                rel.deleted = True
                        graph._drop_node_record(e)
                    else:
                        graph._unlink_indexed(e)
                    e.deleted = True
                return
            props = {}
            for k, versions in full.props.items():
                x = holding(versions, now, None)
                if x is not None and x.value is not ABSENT:
                    props[k] = x.value
            if not present:
                if is_node:
                    x = holding(full.labels, now, None)
                    e.labels = graph._labels(x.value if x is not None else ())
                    e.props = props
                    graph._restore_node_record(e)
                else:
                    if graph.nodes.get(e.start.id) is not e.start or graph.nodes.get(e.end.id) is not e.end:
                        return
                    e.props = props
                    e.deleted = False
                    graph._link_indexed(e)
                return
            if is_node:
                x = holding(full.labels, now, None)
                want = x.value if x is not None else frozenset()
                for lb in e.labels - want:
                    graph._remove_label_raw(e, lb)
                for lb in want - e.labels:
                    graph._add_label_raw(e, lb)
            for k in set(e.props) | set(props):
                if not _same(e.props.get(k, ABSENT), props.get(k, ABSENT)):
                    graph.set_prop(e, k, props.get(k))
        finally:
            graph.txn = saved

    # ------------------------------------------------------------------ reading
    def span(self, entity, now: int) -> tuple[int | None, int | None, int | None, int | None] | None:
        """(valid_from, valid_to, txn_from, txn_to) of the existence version of `entity` valid now."""
        is_node = isinstance(entity, Node)
        full = (self.nodes if is_node else self.rels).get(entity.id)
        if full is None:
            if not isinstance(entity, (Node, Relationship)):
                return None
            rec = (self.node_tx if is_node else self.rel_tx).of(entity.id)
            return rec.valid_from, None, rec.time, None
        x = holding(full.exist, now, None)
        if x is None:
            return None
        return x.vf, x.vt, x.tf, x.tt
