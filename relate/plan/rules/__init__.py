"""The planner's access-path rules, in the order they run: a generic `MatchSpec` / `CountSpec`
-> the one the executor runs.

Each rule is a function (spec, graph) -> spec of the same type that hands back its input when it
does not apply (the shape of sqlglot's optimizer `RULES`); they run once per plan, never per row.
Any of them can be switched off, by name: `Planner(..., disabled_rules=...)`, or for a whole
process the environment variable `RELATE_PLANNER_RULES_OFF` (names separated by commas, or `all`).
With every rule off each part is matched from its first node over a label scan (or every node),
its inline property map checked node by node, every WHERE conjunct filtered after the match, and
aggregations count rows; the answers are the same (`tests/plan/test_rules_differential.py`).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable

from . import (anchor, composite_seek, count_trails, distinct_ends, grouped_count, index_seek, label_columns,
               label_union, point_seek, push_filters, text_seek)

ENVIRONMENT_VARIABLE = "RELATE_PLANNER_RULES_OFF"


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    apply: Callable  # (MatchSpec | CountSpec, graph) -> the same kind of spec


RULES: tuple[Rule, ...] = (
    Rule("anchor", anchor.apply),                # which node a part starts from
    Rule("composite_seek", composite_seek.apply),  # a composite index answers equalities (then a range)
    Rule("index_seek", index_seek.apply),        # an index answers =, IN, a range or a prefix on the anchor
    Rule("text_seek", text_seek.apply),          # a TEXT index answers CONTAINS or ENDS WITH on the anchor
    Rule("point_seek", point_seek.apply),        # a POINT index narrows a box or distance test on the anchor
    Rule("label_union", label_union.apply),      # `(n:A|B)` scans A and B, not every node
    Rule("push_filters", push_filters.apply),    # simple tests on the anchor run in the scan
    Rule("grouped_count", grouped_count.apply),  # count candidates per key values, not rows
    Rule("label_columns", label_columns.apply),  # equalities and counts read the label columns
    Rule("count_trails", count_trails.apply),    # count a var-length expand's trails, no paths or rows
    Rule("distinct_ends", distinct_ends.apply),  # count(DISTINCT end) of a fixed chain from node frontiers
)
NAMES = frozenset(r.name for r in RULES)


def checked(names) -> frozenset[str]:
    """`names` as a set of rule names (`all` stands for every rule); ValueError for an unknown one."""
    out: set[str] = set()
    for n in names:
        out |= NAMES if n == "all" else {n}
    unknown = sorted(out - NAMES)
    if unknown:
        raise ValueError(f"unknown planner rule(s) {', '.join(unknown)}; known: {', '.join(sorted(NAMES))}")
    return frozenset(out)


def disabled_by_environment() -> frozenset[str]:
    text = os.environ.get(ENVIRONMENT_VARIABLE, "")
    return checked(n.strip() for n in text.split(",") if n.strip())


def optimize(spec, graph, disabled: frozenset[str] = frozenset()):
    """`spec` after every rule that is not disabled, in `RULES` order."""
    for rule in RULES:
        if rule.name not in disabled:
            spec = rule.apply(spec, graph)
    return spec
