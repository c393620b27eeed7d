"""Writing operators: CREATE, MERGE, SET, REMOVE, DELETE.

Each drains its input first (reads before writes), then mutates the graph through its
transaction-logged methods and counts what it changed in `ctx.stats`.
"""
from __future__ import annotations

from ..errors import E
from ..syntax import ast as A
from ..values import Node, Path, Relationship, type_name
from .operators import Operator


def _prop_value_ok(v) -> None:
    if isinstance(v, (Node, Relationship, Path, dict)):
        raise E.Type.InvalidPropertyType(f"a property cannot hold a {type_name(v)}")
    if isinstance(v, list):
        for x in v:
            if x is None or isinstance(x, (Node, Relationship, Path, dict, list)):
                raise E.Type.InvalidPropertyType("a list property holds only numbers, strings or booleans")


def _map(v, what: str) -> dict:
    if v is None:
        return {}
    if isinstance(v, (Node, Relationship)):
        return dict(v.props)
    if not isinstance(v, dict):
        raise E.Type.InvalidArgumentType(f"{what} expects a map, got {type_name(v)}")
    return v


class NodeSpec:
    """How CREATE/MERGE makes one node: a bound slot, or labels and a property closure."""

    __slots__ = ("bound_slot", "labels", "props", "distinct_labels")

    def __init__(self, bound_slot, labels, props) -> None:
        self.bound_slot = bound_slot
        self.labels = labels
        self.props = props  # closure(row, ctx) -> dict, or None
        self.distinct_labels = len(set(labels)) if type(labels) is tuple else -1  # -1: dynamic


class RelSpec:
    __slots__ = ("type", "props", "from_index", "to_index", "dynamic")

    def __init__(self, type_, props, from_index, to_index) -> None:
        self.type = type_  # the type, or a closure (row, ctx) -> the type for `:$(expr)`
        self.dynamic = type(type_) is not str
        self.props = props
        self.from_index = from_index
        self.to_index = to_index


def _created_props(fn, row, ctx) -> dict:
    """The property map a created entity gets: null values are dropped, the rest checked.  It may
    be the map `fn` made itself (the graph copies what it stores)."""
    if fn is None:
        return {}
    m = fn(row, ctx)
    if type(m) is not dict:
        m = _map(m, "CREATE")
    if set(map(type, m.values())) <= _SCALARS:
        return m  # no null to drop, nothing to check: one pass in C
    props = {}
    for k, v in m.items():
        if v is None:
            continue
        if type(v) not in _SCALARS:
            _prop_value_ok(v)
        props[k] = v
    return props


_SCALARS = frozenset((str, int, float, bool))


def _merge_props_check(nodes: list[NodeSpec], rels: list[RelSpec], row, ctx) -> None:
    """MERGE cannot create what it could never match again: a null property value is refused."""
    for spec in list(nodes) + list(rels):
        fn = getattr(spec, "props", None)
        if fn is None:
            continue
        v = fn(row, ctx)
        if isinstance(v, dict):
            for k, x in v.items():
                if x is None:
                    raise E.Semantic.MergeReadOwnWrites(key=k)


def create_part(row, ctx, nodes: list[NodeSpec], rels: list[RelSpec]):
    """Create one pattern part for one row; returns (new values in slot order, node list, rel list)."""
    g = ctx.graph
    st = ctx.stats
    made: list = []
    out_nodes = []
    cur = row  # `row` and the nodes made so far (what later expressions read); None: to be built
    for spec in nodes:
        if cur is None:
            cur = row + tuple(made)
        if spec.bound_slot is not None:
            # a node made earlier in the same part (`CREATE (a)-[:T]->(a)`) is not in `row` yet
            n = cur[spec.bound_slot]
            if n is None:
                raise E.Semantic.CreateNullNode()
            out_nodes.append(n)
            continue
        props = _created_props(spec.props, cur, ctx)
        if spec.distinct_labels >= 0:
            n = g.create_node(spec.labels, props)
            st.labels_added += spec.distinct_labels
        else:  # dynamic labels, read from the row
            labels = spec.labels(cur, ctx)
            n = g.create_node(labels, props)
            st.labels_added += len(labels)
        st.nodes_created += 1
        st.properties_set += len(props)
        made.append(n)
        out_nodes.append(n)
        cur = None
    out_rels = []
    for spec in rels:
        if cur is None:
            cur = row + tuple(made)
        props = _created_props(spec.props, cur, ctx)
        a, b = out_nodes[spec.from_index], out_nodes[spec.to_index]
        t = spec.type
        if spec.dynamic:
            t = t(cur, ctx)
        r = g.create_rel(t, a, b, props)
        st.relationships_created += 1
        st.properties_set += len(props)
        out_rels.append(r)
    return made, out_nodes, out_rels


class Create(Operator):
    name = "Create"
    writes = True

    def __init__(self, child, parts, details: str) -> None:
        super().__init__(child)
        self.parts = parts  # list of (nodes, rels, slot_order, path_slot)
        self.details = details

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        out = []
        append = out.append
        timed = ctx.deadline is not None
        parts = self.parts
        for row in rows:
            if timed:
                ctx.check_deadline()
            for nodes, rels, _order, want_path in parts:
                made, all_nodes, all_rels = create_part(row, ctx, nodes, rels)
                # the part's slots (its `order`): the nodes it made, then its relationships
                row = row + tuple(made) + tuple(all_rels)
                if want_path:
                    row = row + (Path(tuple(all_nodes), tuple(all_rels)),)
            append(row)
        return iter(out)


class SetItemOp:
    """One compiled SET item."""

    __slots__ = ("kind", "target", "key", "value", "labels")

    def __init__(self, kind, target, key, value, labels) -> None:
        self.kind = kind
        self.target = target
        self.key = key
        self.value = value
        self.labels = labels


def apply_set(items: list[SetItemOp], row, ctx) -> None:
    g = ctx.graph
    st = ctx.stats
    for it in items:
        ent = it.target(row, ctx)
        if ent is None:
            continue
        if it.kind is A.SetKind.LABELS:
            if not isinstance(ent, Node):
                raise E.Type.InvalidArgumentType(f"cannot set labels on {type_name(ent)}")
            if ent.deleted:
                raise E.Deleted.DeletedEntityAccess(
                    "cannot set labels on a node deleted earlier in this statement")
            for lb in (it.labels if type(it.labels) is tuple else it.labels(row, ctx)):
                if g.add_label(ent, lb):
                    st.labels_added += 1
            continue
        if not isinstance(ent, (Node, Relationship)):
            raise E.Type.InvalidArgumentType(f"cannot set a property on {type_name(ent)}")
        if ent.deleted:
            raise E.Deleted.DeletedEntityAccess(
                "cannot set a property on an entity deleted earlier in this statement")
        if it.kind is A.SetKind.PROPERTY:
            key = it.key if type(it.key) is str else it.key(row, ctx)
            v = it.value(row, ctx)
            if v is not None:
                _prop_value_ok(v)
            if v is None and key not in ent.props:
                continue
            g.set_prop(ent, key, v)
            st.properties_set += 1
            continue
        m = _map(it.value(row, ctx), "SET")
        if it.kind is A.SetKind.REPLACE:
            for k in list(ent.props):
                if k not in m or m[k] is None:
                    g.set_prop(ent, k, None)
                    st.properties_set += 1
        for k, v in m.items():
            if v is None:
                if k in ent.props:
                    g.set_prop(ent, k, None)
                    st.properties_set += 1
                continue
            _prop_value_ok(v)
            g.set_prop(ent, k, v)
            st.properties_set += 1


class SetOp(Operator):
    name = "SetProperty"
    writes = True

    def __init__(self, child, items) -> None:
        super().__init__(child)
        self.items = items

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        for row in rows:
            apply_set(self.items, row, ctx)
        return iter(rows)


class RemoveOp(Operator):
    name = "Remove"
    writes = True

    def __init__(self, child, items) -> None:
        super().__init__(child)
        self.items = items  # (target closure, key or None, labels)

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        g, st = ctx.graph, ctx.stats
        for row in rows:
            for target, key, labels in self.items:
                ent = target(row, ctx)
                if ent is None:
                    continue
                if isinstance(ent, (Node, Relationship)) and ent.deleted:
                    raise E.Deleted.DeletedEntityAccess(
                        "cannot remove from an entity deleted earlier in this statement")
                if key is not None:
                    if not isinstance(ent, (Node, Relationship)):
                        raise E.Type.InvalidArgumentType(f"cannot remove a property of {type_name(ent)}")
                    if type(key) is not str:  # `REMOVE n[key]`
                        key = key(row, ctx)
                    if key in ent.props:
                        g.set_prop(ent, key, None)
                        st.properties_set += 1
                else:
                    for lb in (labels if type(labels) is tuple else labels(row, ctx)):
                        if g.remove_label(ent, lb):
                            st.labels_removed += 1
        return iter(rows)


class DeleteOp(Operator):
    name = "Delete"
    writes = True

    def __init__(self, child, fns, detach: bool) -> None:
        super().__init__(child)
        self.fns = fns
        self.detach = detach
        self.name = "DetachDelete" if detach else "Delete"

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        g, st = ctx.graph, ctx.stats
        nodes: dict[int, Node] = {}
        rels: dict[int, Relationship] = {}
        for row in rows:
            for fn in self.fns:
                v = fn(row, ctx)
                stack = [v]
                while stack:
                    x = stack.pop()
                    if x is None:
                        continue
                    if isinstance(x, Node):
                        nodes[x.id] = x
                    elif isinstance(x, Relationship):
                        rels[x.id] = x
                    elif isinstance(x, Path):
                        nodes.update((n.id, n) for n in x.nodes)
                        rels.update((r.id, r) for r in x.rels)
                    elif isinstance(x, list):
                        stack.extend(x)
                    else:
                        raise E.Type.InvalidArgumentType(
                            f"DELETE expects a node, relationship or path, got {type_name(x)}")
        for r in rels.values():
            if g.delete_rel(r):
                st.relationships_deleted += 1
        for n in nodes.values():
            if n.id not in g.nodes:
                continue
            attached = g.node_rels(n)
            if attached and not self.detach:
                raise E.Constraint.DeleteConnectedNode(id=n.id)
            for r in attached:
                if g.delete_rel(r):
                    st.relationships_deleted += 1
            g.delete_node(n)
            st.nodes_deleted += 1
        return iter(rows)


class MergeOp(Operator):
    """MERGE one pattern part: match it per row; when nothing matches, create it."""

    name = "Merge"
    writes = True
    reads = True

    def __init__(self, child, matcher, nodes, rels, order, path_slot_wanted, on_match, on_create, details) -> None:
        super().__init__(child)
        self.matcher = matcher
        self.nodes = nodes
        self.rels = rels
        self.order = order
        self.want_path = path_slot_wanted
        self.on_match = on_match
        self.on_create = on_create
        self.details = details

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        out = []
        for row in rows:
            found = list(self.matcher.run(row, ctx))
            if found:
                for r in found:
                    apply_set(self.on_match, r, ctx)
                    out.append(r)
                continue
            _merge_props_check(self.nodes, self.rels, row, ctx)
            made, all_nodes, all_rels = create_part(row, ctx, self.nodes, self.rels)
            # the matcher's slots are in walk order; rebuild the row the same way
            r = row + self._walk_values(all_nodes, all_rels)
            if self.want_path:
                r = r + (Path(tuple(all_nodes), tuple(all_rels)),)
            apply_set(self.on_create, r, ctx)
            out.append(r)
        return iter(out)

    def _walk_values(self, nodes, rels) -> tuple:
        m = self.matcher
        vals = []
        if not m.anchor_bound:
            vals.append(nodes[m.anchor])
        el = m.part.element
        for st in m.steps:
            i = next(k for k, r in enumerate(el.rels) if r is st.rel)
            to = i + 1 if i >= m.anchor else i
            if not st.rel_bound:
                vals.append(rels[i])
            if not st.node_bound:
                vals.append(nodes[to])
        return tuple(vals)


class ForeachOp(Operator):
    """FOREACH (x IN list | updates): per input row and per element, the body's update
    pipeline runs on the row extended with the element; the input rows pass through unchanged."""

    name = "Foreach"
    writes = True

    def __init__(self, child, source, argument, body) -> None:
        super().__init__(child)
        self.source = source
        self.argument = argument  # the body's leaf operator; fed one row at a time
        self.body = body

    def children(self):
        return [self.child, self.body]

    def rows(self, ctx):
        rows = list(self.child.rows(ctx))
        arg, body, source = self.argument, self.body, self.source
        for row in rows:
            items = source(row, ctx)
            if items is None:
                continue
            if not isinstance(items, list):
                raise E.Type.InvalidArgumentType(f"FOREACH expects a list, got {type_name(items)}")
            for x in items:
                arg.row = row + (x,)
                for _ in body.rows(ctx):
                    pass
        return iter(rows)
