"""The Neo4j 5 corpus, judged strictly: every scenario of a construct named in `WIRED` must pass,
and must not pass only because relate cannot parse the statement (an expected error that is a
parse error of the construct itself proves nothing).

A construct joins `WIRED` when all of its cases pass; once every construct of the corpus has
joined, the list goes and the whole corpus runs.  `python tests/neo4j5/run.py` shows the rest.
"""
from __future__ import annotations

import pytest

from tests.neo4j5.runner import construct_of, discover, run_one

WIRED = frozenset({
    "element-id", "load-csv",
    "errors-runtime", "math-errors", "math-functions", "offset", "timezone",
    "call-import-with", "call-returning", "call-scope", "call-unit", "collect-subquery", "count-subquery",
    "exists-subquery", "finish", "in-transactions", "in-transactions-errors", "limit", "optional-call",
    "standalone-order-by", "subquery-expression-scope",
    "graph-functions", "list-functions", "neo4j5-removals", "normalize", "null-if", "random-uuid",
    "round", "string-concat", "string-errors", "timestamp", "type-predicate", "value-type",
    "constraint-ddl", "constraint-existence", "constraint-key", "constraint-type", "constraint-unique",
    "index-create", "index-drop", "show-constraints", "show-indexes", "composite-index-seek", "text-index-seek",
    "point-index-seek",
    "label-and", "label-create", "label-is", "label-not", "label-or", "label-where", "label-wildcard",
    "type-expression", "dynamic-label-match", "dynamic-label-write", "dynamic-type", "dynamic-property",
    "inline-where", "inline-where-errors",
    "load-csv-errors", "load-csv-format",
    "any-path", "qpp", "qpp-errors", "qpp-group-variables", "qpp-path", "qpp-semantics", "shortest-groups",
    "shortest-path-function", "qpp-where", "quantified-relationship", "shortest",
})

_SCENARIOS = [s for s in discover() if construct_of(s) in WIRED]


def test_every_wired_construct_has_cases():
    assert {construct_of(s) for s in _SCENARIOS} == WIRED


@pytest.mark.parametrize("scenario", _SCENARIOS, ids=lambda s: f"{construct_of(s)}: {s.name}")
def test_scenario(scenario):
    outcome = run_one(scenario)
    assert outcome.verdict.passed, outcome.why
    assert not outcome.vacuous, "passes only because the statement does not parse"
