"""Pattern variables -> the names a pattern binds, checked against what is already bound.

One rule set per clause kind, because the same pattern means different things:
- MATCH (and pattern comprehensions, EXISTS/COUNT patterns): a bound name may be reused if its
  type fits (a node where a node is expected, ...), except that one relationship variable may
  not stand for two relationships of the same MATCH (`RelationshipUniquenessViolation`).
- CREATE / MERGE: a bound node may only be referred to inside a longer pattern and without new
  labels or properties; a bound relationship or path is always `VariableAlreadyBound`.
A name bound to a value whose static type cannot be the expected entity is `VariableTypeConflict`
(`WITH 1 AS n MATCH (n)`, `MATCH p = ()--() MATCH (p)`).
"""
from __future__ import annotations

from . import types as T
from ..syntax import ast as A
from .checks import labels as label_checks
from .checks.path_patterns import group_variables

NODE = T.NODE
REL = T.RELATIONSHIP
RELS = T.list_of(T.RELATIONSHIP)
PATH = T.PATH


def _fits(t: T.SType, want: T.Kind) -> bool:
    return T.admits(t, want)


class PatternBinder:
    """Binds the variables of pattern parts into `scope` (a dict name -> SType), raising through
    `fail(kind, detail, pos)`.  `check_expr(expr, scope)` validates inline property maps."""

    def __init__(self, fail, check_expr, text: str = "") -> None:
        self.fail = fail
        self.check_expr = check_expr
        self.text = text

    # ------------------------------------------------------------ MATCH-like
    def match(self, parts, scope: dict, clause_rels: set | None = None) -> None:
        clause_rels = set() if clause_rels is None else clause_rels
        for part in parts:
            el = part.element
            for i, node in enumerate(el.nodes):
                self._match_node(node, scope)
                if i < len(el.rels) and el.rels[i].group is not None:
                    self._group(el.rels[i].group, scope)
                elif i < len(el.rels):
                    self._match_rel(el.rels[i], scope, clause_rels)
            for node in el.nodes:
                if node.properties is not None:
                    self._props(node.properties, scope)
            for rel in el.rels:
                if rel.properties is not None:
                    self._props(rel.properties, scope)
            label_checks.match_element(el, self.text)
            for item in el.nodes + el.rels:
                for e in label_checks.element_exprs(item):
                    self.check_expr(e, scope)
            self._path(part, scope)
            if part.where is not None:  # `(p = ... WHERE ...)`: sees the part's own variables
                self.check_expr(part.where, scope)

    def _group(self, q: A.QuantifiedPath, scope: dict) -> None:
        """A quantified path pattern: its variables are new names, single entities inside it (its
        property maps and WHERE see them so) and lists outside it (group variables)."""
        inner = dict(scope)
        for name, is_node in group_variables(q):
            if name in scope:
                self.fail("VariableAlreadyBound",
                          f"Variable `{name}` already declared: the variables of a quantified path pattern "
                          "must be new", q.pos)
            inner[name] = NODE if is_node else REL
        for item in q.element.nodes + q.element.rels:
            if item.properties is not None:
                self._props(item.properties, inner)
        if q.where is not None:
            self.check_expr(q.where, inner)
        for name, is_node in group_variables(q):
            scope[name] = T.list_of(NODE if is_node else REL)

    def _props(self, props, scope) -> None:
        if isinstance(props, A.Parameter):
            self.fail("InvalidParameterUse",
                      "Parameter maps cannot be used in MATCH patterns (use a literal map instead)",
                      props.pos)
        self.check_expr(props, scope)

    def _match_node(self, node: A.NodePattern, scope: dict) -> None:
        name = node.variable
        if not name:
            return
        if name in scope:
            if not _fits(scope[name], T.Kind.NODE):
                self._conflict(name, scope[name], "Node", node.pos)
            return
        scope[name] = NODE

    def _match_rel(self, rel: A.RelPattern, scope: dict, clause_rels: set) -> None:
        name = rel.variable
        if not name:
            return
        if name in scope:
            t = scope[name]
            if rel.length is None:
                if not _fits(t, T.Kind.RELATIONSHIP):
                    self._conflict(name, t, "Relationship", rel.pos)
            elif not _fits(t, T.Kind.LIST) or (t.elem is not None and not _fits(t.elem, T.Kind.RELATIONSHIP)):
                self._conflict(name, t, "List<Relationship>", rel.pos)
            if name in clause_rels:
                self.fail("RelationshipUniquenessViolation",
                          f"Cannot use the same relationship variable '{name}' for multiple relationships",
                          rel.pos)
            clause_rels.add(name)
            return
        scope[name] = REL if rel.length is None else RELS
        clause_rels.add(name)

    def _path(self, part: A.PatternPart, scope: dict) -> None:
        name = part.variable
        if not name:
            return
        if name in scope:
            # naming a path declares a new variable, whatever the old one held
            self.fail("VariableAlreadyBound", f"Variable `{name}` already declared", part.pos)
        scope[name] = PATH

    def _conflict(self, name: str, t: T.SType, expected: str, pos: int) -> None:
        self.fail("VariableTypeConflict",
                  f"Type mismatch: {name} defined with conflicting type {T.describe(t.kinds)} "
                  f"(expected {expected})", pos)

    # ------------------------------------------------------------ CREATE / MERGE
    def create(self, parts, scope: dict, clause: str) -> None:
        for part in parts:
            el = part.element
            single = not el.rels
            label_checks.write_element(el, clause, self.text)
            for item in el.nodes + el.rels:
                for e in label_checks.element_exprs(item):
                    self.check_expr(e, scope)
            if clause == "MERGE":
                for item in el.nodes + el.rels:
                    if isinstance(item.properties, A.Parameter):
                        self.fail("InvalidParameterUse",
                                  "Parameter maps cannot be used in MERGE patterns (use a literal map instead)",
                                  item.properties.pos)
            for i, node in enumerate(el.nodes):
                name = node.variable
                if node.properties is not None:
                    self.check_expr(node.properties, scope)
                if name and name in scope:
                    if not _fits(scope[name], T.Kind.NODE):
                        self._conflict(name, scope[name], "Node", node.pos)
                    if single or node.labels or node.properties is not None:
                        self.fail("VariableAlreadyBound",
                                  f"Can't create node `{name}` with labels or properties here. "
                                  f"The variable is already declared in this context", node.pos)
                elif name:
                    scope[name] = NODE
            for rel in el.rels:
                if rel.properties is not None:
                    self.check_expr(rel.properties, scope)
                name = rel.variable
                if name and name in scope:
                    self.fail("VariableAlreadyBound",
                              f"Can't create relationship `{name}`: the variable is already declared "
                              f"in this context", rel.pos)
                if name:
                    scope[name] = REL
            if part.variable:
                if part.variable in scope:
                    self.fail("VariableAlreadyBound", f"Variable `{part.variable}` already declared", part.pos)
                scope[part.variable] = PATH
