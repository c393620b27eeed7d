"""Rule `label_union`: an anchor whose label expression is a disjunction of label names
(`(n:A|B)`, `(n:(A|B)|C)`) -> the union of those labels' scans instead of every node.

The candidates are each node carrying one of the labels, once, in node id order (the order of
the scan of every node, so the answer is the same with the rule off).  The label expression is
still tested per node by the matcher; it is true of each candidate, so that costs a test but
changes nothing.  Does not apply to a bound anchor, an index seek, an anchor with plain labels
(their label scan is smaller) or an expression with `&`, `!`, `%` or a dynamic label.
Off: every node is scanned and the expression filters.
"""
from __future__ import annotations

from dataclasses import replace

from ...syntax import ast as A
from ..match_spec import MatchSpec


def apply(spec, graph):
    if not isinstance(spec, MatchSpec) or spec.anchor_bound or spec.seek is not None:
        return spec
    node = spec.anchor_node
    if node.labels or node.label_expr is None:
        return spec
    names = disjunction_names(node.label_expr)
    return spec if names is None else replace(spec, union=names)


def disjunction_names(e: A.LabelExpr) -> tuple[str, ...] | None:
    """The label names of a disjunction of names, once each, in the order written; else None."""
    out: list[str] = []
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, A.LabelName):
            if x.name not in out:
                out.append(x.name)
        elif isinstance(x, A.LabelOr):
            stack.extend(reversed(x.operands))
        else:
            return None
    return tuple(out)
