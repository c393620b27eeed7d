"""Rule `push_filters`: simple tests on an unbound anchor -> one scan filter over its candidates.

The tests are the anchor's inline map entries whose value is fixed for the scan (those the index
seek does not answer already) and the WHERE conjuncts that are simple tests on the anchor
(`conjuncts.match_conjunct`); the conjuncts leave the WHERE.  `exec/scan_filter.py` runs them as
one generated comprehension before any row is built.  Off: the inline map is checked node by node
and the conjuncts stay in the filter after the match.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.scan_filter import Op
from ...syntax import ast as A
from ..conjuncts import is_stable, match_conjunct
from ..match_spec import MatchSpec, PropertyTest


def apply(spec, graph):
    if not isinstance(spec, MatchSpec) or spec.anchor_bound:
        return spec
    outer = spec.outer
    tests = list(spec.tests)
    answered = list(spec.answered)
    props = spec.anchor_node.properties
    if isinstance(props, A.MapLiteral):
        for j, (key, value) in enumerate(props.entries):
            if j not in answered and is_stable(value, outer):
                tests.append(PropertyTest(key, Op.EQ, value))
                answered.append(j)
    where = []
    for c in spec.where:
        m = match_conjunct(c, spec.anchor_name, outer)
        if m is None:
            where.append(c)
        else:
            key, op, value = m
            tests.append(PropertyTest(key, op, value, c))
    if len(tests) == len(spec.tests):
        return spec
    return replace(spec, tests=tuple(tests), answered=tuple(answered), where=tuple(where))
