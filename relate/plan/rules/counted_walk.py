"""What the two counting-walk rules (`count_trails`, `distinct_ends`) both ask of a `CountSpec`:
a `CountSpec` -> the walk's end variable when its match is a plain chain whose rows only feed
counts, else None.

A plain chain: one non-optional part without a selector or a WHERE of its own, no grouping
keys, walked from one of its two ends; its relationships carry no inline map, type expression or
quantified group; its other nodes only labels (the anchor keeps whatever the access path
answers); no variable of the part is bound before it or named twice in it.  What is left of the
WHERE after the scan must be simple tests (`conjuncts.match_conjunct`) on the walk's end, so a
test can run once per end node.
"""
from __future__ import annotations

from ...syntax import ast as A
from ..conjuncts import match_conjunct
from ..match_spec import CountSpec, Counting


def end_of_walk(spec, keyed: bool = False) -> str | None:
    """The variable name of the node the walk ends at, when the spec's match is a plain chain
    (grouped by keys that only read the walk's start, when `keyed`)."""
    if not isinstance(spec, CountSpec) or spec.counting is not Counting.ROWS:
        return None
    m = spec.match
    if m is None or spec.optional or not spec.aggregates:
        return None
    if spec.keys and not (keyed and all(_reads_start(e, m) for e in spec.keys)):
        return None
    if len(spec.arguments) != len(spec.aggregates) or len(spec.distinct) != len(spec.aggregates):
        return None
    if m.part.shortest or m.part.selector is not None or m.part.where is not None:
        return None
    el = m.part.element
    if not el.rels or m.anchor not in (0, len(el.nodes) - 1):
        return None
    for r in el.rels:
        if r.group is not None or r.properties is not None or r.type_expr is not None:
            return None
    for i, n in enumerate(el.nodes):
        if i != m.anchor and (n.properties is not None or n.label_expr is not None):
            return None
    names = [n for n in m.names] + [r.variable for r in el.rels if r.variable]
    if len(set(names)) != len(names) or any(n in m.outer for n in names if n != m.anchor_name):
        return None
    if m.part.variable and m.part.variable in m.outer:
        return None
    end = m.names[-1] if m.anchor == 0 else m.names[0]
    if spec.filtered and not all(match_conjunct(c, end, m.outer) is not None for c in m.where):
        return None
    return end


def _reads_start(e, m) -> bool:
    """Whether a grouping key is the walk's start, a variable from before the part, or a property
    of one of them: the same for every row one anchor gives."""
    if isinstance(e, A.Property):
        e = e.subject
    return isinstance(e, A.Variable) and (e.name == m.anchor_name or e.name in m.outer)


def part_variables(spec: CountSpec) -> frozenset[str]:
    """The variables the part binds (nodes, relationships, the path): never null in its rows."""
    m = spec.match
    el = m.part.element
    out = {n.variable for n in el.nodes if n.variable} | {r.variable for r in el.rels if r.variable}
    if m.part.variable:
        out.add(m.part.variable)
    return frozenset(out)


def reads_variable(e, names) -> bool:
    return isinstance(e, A.Variable) and e.name in names
