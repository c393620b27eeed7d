"""Transformer rules for Neo4j 5 label and relationship type expressions (`:A|B`, `:A&B`, `:!A`,
`:%`, `IS A`, `:$(expr)`) and inline pattern WHERE -> `ast` label expressions.

A plain conjunction of labels (`:A:B`, `:A&B`) stays the label tuple of old, and a plain
disjunction of types (`:R|S`, `:R|:S`) the type tuple, so the statements openCypher already had
keep their trees; anything else is carried as an expression (`NodePattern.label_expr`,
`RelPattern.type_expr`, `LabelTest.expr`).  Colons mixed with the new symbols (`:A:B|C`) are
refused here, where the text is (Neo4j refuses them in its grammar).

`lift_where` moves inline WHERE predicates (`(n WHERE n.x > 1)`) out of a MATCH pattern into the
clause's WHERE, which Neo4j documents as the same: the predicate sees the element and every
variable in scope of the pattern.  What stays in a pattern (CREATE, MERGE, a variable-length
relationship) is refused by `semantic/checks/labels.py`.
"""
from __future__ import annotations

from dataclasses import replace

from lark import Token, v_args

from ...errors import E
from .. import ast as A
from ..position import position
from .base import start_of

_SPEC = "labelspec"


def names_of(e: A.LabelExpr, op: type) -> tuple[str, ...] | None:
    """The label names of a plain `op` chain of names (a name alone counts), else None."""
    if isinstance(e, A.LabelName):
        return (e.name,)
    if isinstance(e, (A.LabelAnd, A.LabelOr)) and isinstance(e, op):
        if all(isinstance(x, A.LabelName) for x in e.operands):
            return tuple(x.name for x in e.operands if isinstance(x, A.LabelName))
    return None


class LabelRules:
    """Mixed into `transform.Build`; `BuildBase` gives `text`."""

    text: str

    def _label_error(self, detail: str, offset: int):
        return E.Syntax.InvalidLabelExpression(detail, position=position(self.text, offset))

    @v_args(meta=True)
    def label_colon(self, meta, c):
        parts = tuple(c)
        if len(parts) > 1:
            for x in parts:
                if not isinstance(x, (A.LabelName, A.DynamicLabel)):
                    raise self._label_error("colon-separated labels (`:A:B`) cannot be mixed with the "
                                            "label expression symbols |, &, ! and % (write `:A&(B|C)`)",
                                            getattr(x, "pos", start_of(meta)))
        return (_SPEC, parts, start_of(meta))

    @v_args(meta=True)
    def label_is(self, meta, c):
        return (_SPEC, (c[-1],), start_of(meta))

    @v_args(meta=True)
    def label_or(self, meta, c):
        ops = tuple(x for x in c if isinstance(x, A.LabelExpr))
        return ops[0] if len(ops) == 1 else A.LabelOr(ops, start_of(meta))

    def label_bar_colon(self, c):
        return None

    @v_args(meta=True)
    def label_and(self, meta, c):
        ops = tuple(x for x in c if isinstance(x, A.LabelExpr))
        return ops[0] if len(ops) == 1 else A.LabelAnd(ops, start_of(meta))

    @v_args(meta=True)
    def label_neg(self, meta, c):
        return A.LabelNot(c[-1], start_of(meta))

    @v_args(meta=True)
    def label_leaf(self, meta, c):
        return A.LabelName(c[0], start_of(meta))

    @v_args(meta=True)
    def label_wildcard(self, meta, c):
        return A.LabelWildcard(start_of(meta))

    def label_word(self, c):
        return self.symbolic_name(c)  # type: ignore[attr-defined]

    @v_args(meta=True)
    def dynamic_label(self, meta, c):
        mode = next((str(x).lower() for x in c if isinstance(x, Token) and x.type in ("ANY", "ALL")), "all")
        expr = next(x for x in c if isinstance(x, A.Expr))
        return A.DynamicLabel(expr, mode == "any", start_of(meta))

    def pattern_where(self, c):
        return ("pwhere", c[-1])

    # ---- what a node pattern, a relationship pattern and a label test make of a spec
    def node_label_spec(self, spec) -> tuple[tuple[str, ...], A.LabelExpr | None]:
        _, parts, pos = spec
        if all(isinstance(x, A.LabelName) for x in parts):
            return tuple(x.name for x in parts), None
        if len(parts) == 1:
            names = names_of(parts[0], A.LabelAnd)
            if names is not None:
                return names, None
            return (), parts[0]
        return (), A.LabelAnd(parts, pos)

    def rel_type_spec(self, spec) -> tuple[tuple[str, ...], A.LabelExpr | None]:
        _, parts, pos = spec
        if len(parts) > 1:
            raise self._label_error("a relationship has one type: write `:A|B` for either type or "
                                    "`:A&B` for both", getattr(parts[1], "pos", pos))
        names = names_of(parts[0], A.LabelOr)
        if names is not None:
            return names, None
        return (), parts[0]

    def label_test_of(self, subject, spec, pos):
        labels, expr = self.node_label_spec(spec)
        if expr is None:
            return A.LabelTest(subject, labels, pos)
        return A.LabelTest(subject, (), pos, expr)


def _lift_element(el: A.PatternElement, out: list) -> A.PatternElement:
    nodes = []
    for n in el.nodes:
        if n.where is not None:
            out.append(n.where)
            n = replace(n, where=None)
        nodes.append(n)
    rels = []
    for r in el.rels:
        if r.where is not None and r.length is None:
            out.append(r.where)
            r = replace(r, where=None)
        elif r.where is not None and r.quantified:
            r = _quantified_as_group(r)
        if r.group is not None:
            r = replace(r, group=_lift_group(r.group))
        rels.append(r)
    if all(a is b for a, b in zip(nodes, el.nodes)) and all(a is b for a, b in zip(rels, el.rels)):
        return el
    return A.PatternElement(tuple(nodes), tuple(rels))


def _and(conj: list):
    out = conj[0]
    for x in conj[1:]:
        out = A.Binary(A.BinOp.AND, out, x, getattr(out, "pos", 0))
    return out


def _lift_group(q: A.QuantifiedPath) -> A.QuantifiedPath:
    """Inline WHEREs inside a quantified path pattern hold per iteration: they join its own WHERE."""
    inner: list = []
    el = _lift_element(q.element, inner)
    if not inner:
        return q
    return replace(q, element=el, where=_and(inner + ([q.where] if q.where is not None else [])))


def _quantified_as_group(r: A.RelPattern) -> A.RelPattern:
    """`-[r:R WHERE p]->{m,n}` is `(()-[r:R]->() WHERE p){m,n}`: the predicate holds for each hop."""
    assert r.length is not None
    lo, hi = r.length
    assert lo is not None  # a quantifier always gives its minimum
    hop = replace(r, length=None, quantified=False, where=None)
    ends = (A.NodePattern(None, (), None, r.pos), A.NodePattern(None, (), None, r.pos))
    group = A.QuantifiedPath(A.PatternElement(ends, (hop,)), lo, hi, r.where, r.pos)
    return A.RelPattern(None, (), A.Direction.BOTH, None, (lo, hi), r.pos, group=group)


def lift_where(pattern, where):
    """(pattern or element, WHERE) -> the same without inline WHEREs, and the WHERE with them
    ANDed in front, in pattern order."""
    lifted: list = []
    if isinstance(pattern, A.Pattern):
        parts = tuple(replace(p, element=e) if (e := _lift_element(p.element, lifted)) is not p.element else p
                      for p in pattern.parts)
        changed = any(a is not b for a, b in zip(parts, pattern.parts))
        new = A.Pattern(parts) if changed else pattern
    else:
        new = _lift_element(pattern, lifted)
    if not lifted:
        return new, where
    return new, _and(lifted + ([where] if where is not None else []))


def split_labels(items) -> tuple[tuple[str, ...], tuple[A.DynamicLabel, ...]]:
    """SET/REMOVE `n:A:$(x)` items -> (static labels, dynamic labels)."""
    return (tuple(x for x in items if isinstance(x, str)),
            tuple(x for x in items if isinstance(x, A.DynamicLabel)))
