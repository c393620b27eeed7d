"""The planner's write section: CREATE and MERGE patterns -> node and relationship specs of the
write operators (`exec/writes.py`), SET items -> `SetItemOp`s."""
from __future__ import annotations

from ..errors import E
from ..exec import labels as L
from ..exec import writes as W
from ..exec.compile import Scope
from ..exec.match import hidden_name
from ..semantic.types import pattern_types
from ..syntax import ast as A
from .pattern_text import create_text, walk_text


class WritePlanner:
    """Mixin of `Planner`: needs `compiler`, `_part_matcher` and the `reads`/`writes` flags."""

    def _node_spec(self, n: A.NodePattern, scope: Scope, for_create: bool, local: dict):
        name = n.variable
        if name and (scope.has(name) or name in local):
            if n.labels or n.properties is not None:
                raise E.Internal.Internal(f"planner: CREATE redeclares `{name}`")
            slot = scope.slot(name) if scope.has(name) else local[name]
            return W.NodeSpec(slot, (), None), False
        props = self.compiler.compile(n.properties, _TailScope(scope, local)) if n.properties is not None else None
        return W.NodeSpec(None, self._write_labels(n, _TailScope(scope, local)), props), True

    def _create(self, c: A.Create, op, scope: Scope):
        self.writes = True
        parts = []
        texts = []
        for part in c.pattern.parts:
            el = part.element
            local: dict[str, int] = {}
            nodes = []
            order = []
            new_scope = Scope(scope.slots)
            for i, n in enumerate(el.nodes):
                spec, new = self._node_spec(n, scope, True, local)
                if spec.bound_slot is None:
                    nm = n.variable or hidden_name("n", n.pos, i)
                    new_scope, slot = new_scope.extended(nm)
                    local[nm] = slot
                    order.append("n")
                nodes.append(spec)
            rels = []
            for i, r in enumerate(el.rels):
                one_type = len(r.types) == 1 or isinstance(r.type_expr, A.DynamicLabel)
                if (not one_type or r.direction is A.Direction.BOTH or r.length is not None
                        or (r.variable and (scope.has(r.variable) or r.variable in local))):
                    raise E.Internal.Internal("planner: a relationship CREATE cannot make")
                a, b = (i, i + 1) if r.direction is A.Direction.OUT else (i + 1, i)
                props = (self.compiler.compile(r.properties, _TailScope(scope, local))
                         if r.properties is not None else None)
                rels.append(W.RelSpec(self._write_type(r, _TailScope(scope, local)), props, a, b))
            # rows are extended node values first, then relationship values
            for i, r in enumerate(el.rels):
                nm = r.variable or hidden_name("r", r.pos, i)
                new_scope, slot = new_scope.extended(nm)
                local[nm] = slot
                order.append("r")
            if part.variable:
                new_scope, _ = new_scope.extended(part.variable)
            parts.append((nodes, rels, order, bool(part.variable)))
            scope = new_scope
            for name, stype in pattern_types(part):
                scope.set_type(name, stype)
            texts.append(create_text(el))
        return W.Create(op, parts, ", ".join(texts)), scope

    def _merge(self, c: A.Merge, op, scope: Scope):
        self.writes = True
        self.reads = True
        part = c.part
        el = part.element
        for r in el.rels:
            if (len(r.types) != 1 and not isinstance(r.type_expr, A.DynamicLabel)) or r.length is not None:
                raise E.Internal.Internal("planner: a relationship MERGE cannot make")
        m = self._part_matcher(part, scope)
        nodes = []
        for i, n in enumerate(el.nodes):
            if n.variable and scope.has(n.variable):
                if (n.labels or n.properties is not None) and len(el.nodes) == 1:
                    raise E.Internal.Internal(f"planner: MERGE redeclares `{n.variable}`")
                nodes.append(W.NodeSpec(scope.slot(n.variable), (), None))
            else:
                props = self.compiler.compile(n.properties, scope) if n.properties is not None else None
                nodes.append(W.NodeSpec(None, self._write_labels(n, scope), props))
        rels = []
        for i, r in enumerate(el.rels):
            a, b = (i, i + 1) if r.direction is not A.Direction.IN else (i + 1, i)
            props = self.compiler.compile(r.properties, scope) if r.properties is not None else None
            rels.append(W.RelSpec(self._write_type(r, scope), props, a, b))
        new_scope = m.scope
        for name, stype in pattern_types(part):
            new_scope.set_type(name, stype)
        on_match = [self._set_item(it, new_scope) for it in c.on_match]
        on_create = [self._set_item(it, new_scope) for it in c.on_create]
        op = W.MergeOp(op, m, nodes, rels, None, bool(part.variable), on_match, on_create,
                       walk_text(el, m.anchor))
        return op, new_scope

    def _set_item(self, it: A.SetItem, scope: Scope) -> W.SetItemOp:
        comp = self.compiler
        if it.kind is A.SetKind.PROPERTY:
            key = (L.dynamic_key(comp.compile(it.target.index, scope)) if isinstance(it.target, A.Subscript)
                   else it.target.key)
            return W.SetItemOp(it.kind, comp.compile(it.target.subject, scope), key,
                               comp.compile(it.value, scope), ())
        if it.kind is A.SetKind.LABELS:
            return W.SetItemOp(it.kind, comp.compile(it.target, scope), None, None, self._item_labels(it, scope))
        return W.SetItemOp(it.kind, comp.compile(it.target, scope), None, comp.compile(it.value, scope), ())


    # ---- dynamic labels and types (`exec/labels.py`)
    def _write_labels(self, n: A.NodePattern, scope: Scope):
        return L.write_labels(n.labels, n.label_expr, lambda e: self.compiler.compile(e, scope))

    def _write_type(self, r: A.RelPattern, scope: Scope):
        if isinstance(r.type_expr, A.DynamicLabel):
            return L.dynamic_type(self.compiler.compile(r.type_expr.expr, scope))
        return r.types[0]

    def _item_labels(self, it, scope: Scope):
        """A SET or REMOVE item's labels: a tuple, or a `DynamicLabels` for `n:$(expr)`."""
        if not it.dynamic:
            return it.labels
        return L.DynamicLabels(it.labels, [self.compiler.compile(d.expr, scope) for d in it.dynamic])


class _TailScope(Scope):
    """A scope seeing the outer variables plus those a CREATE pattern made so far."""

    def __init__(self, outer: Scope, local: dict) -> None:
        super().__init__(outer.slots)
        self.slots.update(local)
