"""Label and type expressions, dynamic labels and inline pattern WHERE, where Neo4j 5 allows them.

- CREATE, MERGE (and INSERT) write labels: a node takes `:A:B` or `:A&B` (with `$(expr)` parts),
  never `|`, `!`, `%` or `$any(...)` (`LabelExpressionNotAllowed`); one clause does not mix `:A:B`
  with `:A&B`, and INSERT takes only `&` (`InvalidLabelExpression`, as Neo4j's grammar refuses it);
  a relationship takes one type or a dynamic `$(expr)`.
- An inline WHERE stays in a pattern only where it may not stand (CREATE, MERGE, a
  variable-length relationship): `InlineWhereNotAllowed` (MATCH lifted the others, see
  `syntax/transform/labels.py`).
- A dynamic label whose expression is a literal that is no string nor list of strings:
  `InvalidDynamicLabel`.
"""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A
from ...syntax.position import position


def _at(text: str, pos: int):
    return position(text, pos) if text else None


def dynamic_parts(e: A.LabelExpr | None):
    """The `$(expr)` parts of a label expression, left to right."""
    if e is None:
        return
    if isinstance(e, A.DynamicLabel):
        yield e
    elif isinstance(e, A.LabelNot):
        yield from dynamic_parts(e.operand)
    elif isinstance(e, (A.LabelAnd, A.LabelOr)):
        for x in e.operands:
            yield from dynamic_parts(x)


def dynamic_exprs(e: A.LabelExpr) -> list[A.Expr]:
    return [d.expr for d in dynamic_parts(e)]


def element_exprs(item) -> list[A.Expr]:
    """The expressions a node or relationship pattern's dynamic labels or types read."""
    e = item.label_expr if isinstance(item, A.NodePattern) else item.type_expr
    return [d.expr for d in dynamic_parts(e)]


_TYPE_NAMES = {bool: "BOOLEAN", int: "INTEGER", float: "FLOAT"}


def dynamic_literal(d: A.DynamicLabel, text: str = "") -> None:
    e = d.expr
    bad = None
    if isinstance(e, A.Literal) and not isinstance(e.value, str):
        bad = "null" if e.value is None else _TYPE_NAMES.get(type(e.value), "a value")
    elif isinstance(e, A.ListLiteral):
        for x in e.items:
            if isinstance(x, A.Literal) and not isinstance(x.value, str):
                bad = "LIST<" + ("NULL" if x.value is None else _TYPE_NAMES.get(type(x.value), "ANY")) + ">"
                break
    elif isinstance(e, (A.MapLiteral,)):
        bad = "MAP"
    if bad is not None:
        raise E.Semantic.InvalidDynamicLabel(got=bad, position=_at(text, d.pos))


def pattern_dynamics(el: A.PatternElement, text: str = "") -> None:
    for item in el.nodes + el.rels:
        e = item.label_expr if isinstance(item, A.NodePattern) else item.type_expr
        for d in dynamic_parts(e):
            dynamic_literal(d, text)


def match_element(el: A.PatternElement, text: str = "") -> None:
    """A MATCH-like pattern: what the transform could not lift, and literal dynamic labels."""
    for r in el.rels:
        if r.where is not None:
            raise E.Semantic.InlineWhereNotAllowed(where="on a variable-length relationship (use a "
                                                   "WHERE after the pattern)", position=_at(text, r.where.pos))
    for n in el.nodes:
        if n.where is not None:  # a pattern the transform does not lift (a pattern expression)
            raise E.Semantic.InlineWhereNotAllowed(where="in a pattern expression (write EXISTS { ... })",
                                                   position=_at(text, n.where.pos))
    pattern_dynamics(el, text)


def _writable_labels(e: A.LabelExpr, clause: str, text: str) -> None:
    parts = e.operands if isinstance(e, A.LabelAnd) else (e,)
    for p in parts:
        if isinstance(p, A.LabelName) or (isinstance(p, A.DynamicLabel) and not p.any):
            continue
        what = ("$any(...)" if isinstance(p, A.DynamicLabel) else
                "the label wildcard %" if isinstance(p, A.LabelWildcard) else
                "a label negation (!)" if isinstance(p, A.LabelNot) else
                "a label disjunction (|)" if isinstance(p, A.LabelOr) else "this label expression")
        raise E.Semantic.LabelExpressionNotAllowed(what=what, clause=clause, position=_at(text, getattr(p, "pos", 0)))


def write_element(el: A.PatternElement, clause: str, text: str = "") -> None:
    """A CREATE or MERGE pattern: labels it can write, one type per relationship, no inline WHERE."""
    for item in el.nodes + el.rels:
        if item.where is not None:
            raise E.Semantic.InlineWhereNotAllowed(where=f"in {clause}", position=_at(text, item.where.pos))
    for n in el.nodes:
        if n.label_expr is not None:
            _writable_labels(n.label_expr, clause, text)
    for r in el.rels:
        t = r.type_expr
        if t is not None and not (isinstance(t, A.DynamicLabel) and not t.any):
            if isinstance(t, A.LabelOr) or (isinstance(t, A.DynamicLabel) and t.any):
                return  # NoSingleRelationshipType, as for `[:A|B]`, comes later
            _writable_labels(t, clause, text)
    pattern_dynamics(el, text)


def write_clause(parts, clause: str, insert: bool = False, text: str = "") -> None:
    """One CREATE/INSERT clause does not mix `:A:B` with `:A&B`; INSERT takes `&` only."""
    colon = amp = None
    for part in parts:
        for n in part.element.nodes:
            if n.amp:
                amp = amp or n
            elif len(n.labels) > 1:
                colon = colon or n
    if insert and colon is not None:
        raise E.Syntax.InvalidLabelExpression(
            "INSERT joins labels with & (`:A&B`), not with colons", position=_at(text, colon.pos))
    if colon is not None and amp is not None:
        raise E.Syntax.InvalidLabelExpression(
            f"{clause} cannot mix `:A:B` and `:A&B` in one clause", position=_at(text, max(colon.pos, amp.pos)))
