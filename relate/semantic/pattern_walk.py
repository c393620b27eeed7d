"""A pattern part and the names before it -> the names after it, checking its property maps in
the order the matcher compiles them.

A part is walked from its anchor node (the planner's choice, asked through `anchor`), right of it
as written, then left of it; a property map sees the names bound before it in that walk (a
relationship's map also sees the node it leads to), each of them without a known type until the
part ends.  shortestPath parts bind their two end nodes first, then the relationship.
"""
from __future__ import annotations

from ..syntax import ast as A
from .checks import shortest_paths, variables as V
from .checks.path_patterns import group_variables
from .names import Names
from .checks.labels import dynamic_exprs


def first_node(el: A.PatternElement, bound: set, where) -> int:
    """The anchor when no planner is asked: the first bound node, else the first node."""
    return next((i for i, n in enumerate(el.nodes) if n.variable and n.variable in bound), 0)


class PatternWalk:
    def __init__(self, check_expr, anchor=None) -> None:
        self.check_expr = check_expr  # (expr, Names) -> None
        self.anchor = anchor or first_node  # (element, bound names, WHERE conjuncts) -> node index

    def part(self, part: A.PatternPart, scope: Names, where=()) -> Names:
        el = part.element
        scope = scope.copy()
        a = 0 if len(el.nodes) == 1 else self.anchor(el, set(scope.types), list(where))
        node = el.nodes[a]
        scope = self._bind(node.variable, scope)
        self._props(node.properties, scope)
        self._dynamic(node, scope)
        order = [(i, i + 1) for i in range(a, len(el.rels))] + [(i, i) for i in range(a - 1, -1, -1)]
        for i, to in order:
            rel = el.rels[i]
            scope = self._bind(rel.variable, scope)
            if rel.group is not None:
                scope = self._group(rel.group, scope)
            scope = self._bind(el.nodes[to].variable, scope)
            self._props(rel.properties, scope)
            self._props(el.nodes[to].properties, scope)
            self._dynamic(rel, scope)
            self._dynamic(el.nodes[to], scope)
        scope = self._path(part, scope)
        if part.where is not None:
            self.check_expr(part.where, scope)
        return scope

    def _group(self, q: A.QuantifiedPath, scope: Names) -> Names:
        """A quantified path pattern: its maps and WHERE see its variables; then they are bound."""
        inner = scope
        for name, _ in group_variables(q):
            inner = self._bind(name, inner)
        for item in q.element.nodes + q.element.rels:
            self._props(item.properties, inner)
        if q.where is not None:
            self.check_expr(q.where, inner)
        for name, _ in group_variables(q):
            scope = self._bind(name, scope)
        return scope

    def _dynamic(self, item, scope: Names) -> None:
        """The expressions of a node's dynamic labels or a relationship's dynamic types."""
        e = item.label_expr if isinstance(item, A.NodePattern) else item.type_expr
        if e is not None:
            for x in dynamic_exprs(e):
                self.check_expr(x, scope)

    def shortest(self, part: A.PatternPart, scope: Names) -> Names:
        shortest_paths.shape(part)
        el = part.element
        scope = self.part(A.PatternPart(None, A.PatternElement((el.nodes[0],), ()), None, part.pos), scope)
        scope = self.part(A.PatternPart(None, A.PatternElement((el.nodes[1],), ()), None, part.pos), scope)
        rel = el.rels[0]
        self._props(rel.properties, scope)
        if rel.variable:
            V.fresh(rel.variable, scope.has(rel.variable))
            scope = scope.extended(rel.variable)
        return self._path(part, scope)

    @staticmethod
    def _bind(name: str | None, scope: Names) -> Names:
        return scope.extended(name) if name and not scope.has(name) else scope

    def _props(self, props, scope: Names) -> None:
        if props is None:
            return
        if isinstance(props, A.MapLiteral):
            for _, v in props.entries:
                self.check_expr(v, scope)
        else:
            self.check_expr(props, scope)

    @staticmethod
    def _path(part: A.PatternPart, scope: Names) -> Names:
        if not part.variable:
            return scope
        V.fresh(part.variable, scope.has(part.variable))
        return scope.extended(part.variable)
