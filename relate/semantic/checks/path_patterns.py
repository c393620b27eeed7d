"""Neo4j 5 path patterns as Neo4j accepts them: quantifiers with ordered bounds, quantified path
patterns that contain a relationship, do not nest and hold no `*` variable-length relationship, a
pattern that does not mix `*` with quantifiers, a selective pattern (`SHORTEST`, `ANY`) alone in
its clause, and none of them where a pattern is created.  `at(offset)` gives
an error's position."""
from __future__ import annotations

from ...errors import E
from ...syntax import ast as A


def groups(el: A.PatternElement):
    """The quantified path patterns of an element."""
    return [r.group for r in el.rels if r.group is not None]


def group_variables(q: A.QuantifiedPath) -> list[tuple[str, bool]]:
    """(name, is a node) for each variable inside a quantified path pattern, once, in order."""
    out: dict[str, bool] = {}
    for i, n in enumerate(q.element.nodes):
        if n.variable:
            out.setdefault(n.variable, True)
        if i < len(q.element.rels) and q.element.rels[i].variable:
            out.setdefault(q.element.rels[i].variable, False)
    return list(out.items())


def is_new_syntax(el: A.PatternElement) -> bool:
    return any(r.group is not None or r.quantified for r in el.rels)


def match_pattern(pattern: A.Pattern, at) -> None:
    parts = pattern.parts
    quantified = star = None
    for part in parts:
        for r in part.element.rels:
            if r.group is not None:
                quantified = quantified or r
                _group(r.group, at)
            elif r.quantified:
                quantified = quantified or r
                _bounds(r.length[0], r.length[1], r.pos, at)
            elif r.length is not None:
                star = star or r
        if part.shortest and (groups(part.element) or part.where is not None):
            raise E.Syntax.InvalidPathPattern(f"{part.shortest}() takes one relationship pattern: no quantified path "
                                              "pattern, no WHERE inside (use SHORTEST 1 or ALL SHORTEST)",
                                              position=at(next((q.pos for q in groups(part.element)), part.pos)))
        if part.selector is not None and len(parts) > 1:
            raise E.Syntax.InvalidPathPattern(f"A selective path pattern ({part.selector.text}) must be the only "
                                              "path pattern of its MATCH", position=at(part.selector.pos))
        if part.selector is not None and part.selector.kind != "all" and part.selector.k < 1:
            raise E.Syntax.InvalidPathPattern(f"{part.selector.text}: the number of paths must be at least 1",
                                              position=at(part.selector.pos))
    if quantified is not None and star is not None:
        raise E.Syntax.InvalidPathPattern("Variable-length relationships (`-[*]->`) cannot be combined with "
                                          "quantified relationships or quantified path patterns in one pattern",
                                          position=at(star.pos))


def creating(pattern_parts, clause: str, at) -> None:
    """CREATE and MERGE make fixed patterns: no quantifier, no selector, no parenthesised WHERE."""
    for part in pattern_parts:
        if part.selector is not None:
            raise E.Syntax.InvalidPathPattern(f"{clause} cannot take a path selector ({part.selector.text})",
                                              position=at(part.selector.pos))
        if part.where is not None:
            raise E.Syntax.InvalidPathPattern(f"{clause} cannot take a WHERE inside its pattern", position=at(part.pos))
        for r in part.element.rels:
            if r.group is not None or r.quantified:
                raise E.Syntax.InvalidPathPattern(f"{clause} cannot create a quantified pattern", position=at(r.pos))


def _bounds(lo: int, hi: int | None, pos: int, at) -> None:
    if hi is not None and lo > hi:
        raise E.Syntax.InvalidQuantifier(lo=lo, hi=hi, position=at(pos))


def _group(q: A.QuantifiedPath, at) -> None:
    _bounds(q.lo, q.hi, q.pos, at)
    if not q.element.rels:
        raise E.Syntax.InvalidPathPattern("A quantified path pattern must contain at least one relationship",
                                          position=at(q.pos))
    for r in q.element.rels:
        if r.group is not None:
            raise E.Syntax.InvalidPathPattern("Quantified path patterns cannot be nested", position=at(r.pos))
        if r.length is not None:
            raise E.Syntax.InvalidPathPattern(
                "A quantified path pattern cannot contain a variable-length or quantified relationship",
                position=at(r.pos))
