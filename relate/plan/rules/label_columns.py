"""Rule `label_columns`: reads the graph's per-label property columns (`Graph.column`) instead
of the nodes, where a label scan allows it.

- In a label scan, an equality test whose value may be a string or a number is marked: when the
  column is kept, the scan finds the matching nodes with `list.index` on it (which value class
  the test has is known only per execution; the first marked test with a string or number wins).
- A grouped count over every node of one label (no seek, no test, no inline map) reads the key
  columns instead of the candidates.
Columns are kept once a label is read twice without a node write in between; until then the
scan runs as it would without this rule.  Off: no column is read.
"""
from __future__ import annotations

from dataclasses import replace

from ...exec.scan_filter import Op
from ...syntax import ast as A
from ..match_spec import Access, CountSpec, Counting, MatchSpec


def apply(spec, graph):
    if isinstance(spec, MatchSpec):
        if spec.access is not Access.LABEL_SCAN or not spec.tests:
            return spec
        tests = tuple(replace(t, column=True) if t.op is Op.EQ and _may_be_keyed(t.value) else t
                      for t in spec.tests)
        return replace(spec, tests=tests) if tests != spec.tests else spec
    if isinstance(spec, CountSpec):
        if spec.counting is Counting.CANDIDATES and spec.keys and spec.match.whole_label is not None:
            return replace(spec, counting=Counting.COLUMNS)
    return spec


def _may_be_keyed(value: A.Expr | None) -> bool:
    """Whether the value can be a string or a number (a literal says; anything else may)."""
    if isinstance(value, A.Literal):
        v = value.value
        return type(v) is str or type(v) is int or type(v) is float
    return value is not None
