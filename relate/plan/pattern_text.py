"""Pattern parts -> the text EXPLAIN shows for them: as walked from the anchor (MATCH, MERGE) or
as written (CREATE)."""
from __future__ import annotations

from dataclasses import replace

from ..syntax import ast as A


def node_text(n: A.NodePattern) -> str:
    labels = "".join(":" + lb for lb in n.labels)
    if n.label_expr is not None:
        labels += ":" + label_text(n.label_expr)
    return "(" + (n.variable or "") + labels + ")"


def _dyn_text(e: A.Expr) -> str:
    if isinstance(e, A.Parameter):
        return "$" + e.name
    if isinstance(e, A.Variable):
        return e.name
    if isinstance(e, A.Property):
        return _dyn_text(e.subject) + "." + e.key
    if isinstance(e, A.Literal) and isinstance(e.value, str):
        return "'" + e.value.replace("'", "\\'") + "'"
    if isinstance(e, A.ListLiteral):
        return "[" + ", ".join(_dyn_text(x) for x in e.items) + "]"
    return "..."


def label_text(e: A.LabelExpr, outer: str = "") -> str:
    """A label or type expression as Cypher writes it (parentheses only where they are needed)."""
    if isinstance(e, A.LabelName):
        return e.name
    if isinstance(e, A.LabelWildcard):
        return "%"
    if isinstance(e, A.LabelNot):
        return "!" + label_text(e.operand, "!")
    if isinstance(e, A.DynamicLabel):
        return ("$any(" if e.any else "$(") + _dyn_text(e.expr) + ")"
    op, sep = ("&", "&") if isinstance(e, A.LabelAnd) else ("|", "|")
    text = sep.join(label_text(x, op) for x in e.operands)
    return f"({text})" if outer and (outer == "!" or outer != op) and not (outer == "|" and op == "&") else text


def quantifier_text(lo: int, hi: int | None) -> str:
    if hi is None:
        return {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
    return f"{{{lo}}}" if lo == hi else f"{{{lo},{hi}}}"


def group_text(q: A.QuantifiedPath, reverse: bool) -> str:
    """A quantified path pattern as written (walked right to left: its element reversed)."""
    el = q.element
    if reverse:
        el = A.PatternElement(tuple(reversed(el.nodes)),
                              tuple(replace(r, direction=_FLIP[r.direction]) for r in reversed(el.rels)))
    where = " WHERE ..." if q.where is not None else ""
    return " (" + create_text(el) + where + ")" + quantifier_text(q.lo, q.hi) + " "


def rel_text(r: A.RelPattern, direction: A.Direction) -> str:
    if r.group is not None:
        return group_text(r.group, False)
    inner = (r.variable or "") + (":" + "|".join(r.types) if r.types else "")
    if r.type_expr is not None:
        inner += ":" + label_text(r.type_expr)
    if r.quantified:
        body = f"[{inner}]" if inner else ""
        arrow = {A.Direction.OUT: f"-{body}->", A.Direction.IN: f"<-{body}-"}.get(direction, f"-{body}-")
        return arrow + quantifier_text(*r.length)
    if r.length is not None:
        lo, hi = r.length
        bounds = f"{lo if lo is not None else ''}..{hi if hi is not None else ''}"
        inner += "*" + ("" if lo is None and hi is None else bounds)
    body = f"[{inner}]" if inner else ""
    if direction is A.Direction.OUT:
        return f"-{body}->"
    if direction is A.Direction.IN:
        return f"<-{body}-"
    return f"-{body}-"


_FLIP = {A.Direction.OUT: A.Direction.IN, A.Direction.IN: A.Direction.OUT, A.Direction.BOTH: A.Direction.BOTH}


def walk_text(el: A.PatternElement, anchor: int) -> str:
    """The pattern as walked from its anchor: right of it as written, left of it reversed."""
    out = node_text(el.nodes[anchor])
    for i in range(anchor, len(el.rels)):
        out += rel_text(el.rels[i], el.rels[i].direction) + node_text(el.nodes[i + 1])
    left = ""
    for i in range(anchor - 1, -1, -1):
        r = el.rels[i]
        left += (group_text(r.group, True) if r.group is not None else rel_text(r, _FLIP[r.direction])) \
            + node_text(el.nodes[i])
    if not left or anchor == len(el.nodes) - 1:
        return out + left
    return out + ", " + node_text(el.nodes[anchor]) + left


def create_text(el: A.PatternElement) -> str:
    out = node_text(el.nodes[0])
    for r, n in zip(el.rels, el.nodes[1:]):
        out += rel_text(r, r.direction) + node_text(n)
    return out
