"""The Neo4j 5 corpus stays well-formed: every feature parses as Gherkin, there are at least 320
scenarios, and each has the shape the runner judges (one construct tag, setup steps, exactly one
query, an expectation, known steps, parseable expected values, known error families).

This does not run the corpus against relate (most cases fail until the constructs are built);
`python tests/neo4j5/run.py` does.
"""
from __future__ import annotations

import re
from collections import Counter

import pytest
from gherkin.parser import Parser

from tests.neo4j5.runner import FAMILIES, FEATURES, TCK_TYPES, SCHEMA_KEYS, construct_of, discover
from tests.tck import runner as tck
from tests.tck.values import parse_value

MIN_SCENARIOS = 320

GIVEN = {"an empty graph", "any graph"}
SETUP = {"having executed:", "parameters are:"}
RESULT = {"the result should be, in any order:", "the result should be, in order:",
          "the result should be (ignoring element order for lists):",
          "the result should be, in order (ignoring element order for lists):", "the result should be empty"}
EFFECTS = {"no side effects", "the side effects should be:"}
IMPORT = re.compile(r'^the import file "[^"/\\]+" contains:$')


def _files():
    return sorted(FEATURES.glob("*.feature"))


def test_every_feature_parses_as_gherkin_with_one_feature():
    names = []
    for f in _files():
        doc = Parser().parse(f.read_text(encoding="utf-8"))
        assert doc["feature"], f"{f.name} has no Feature"
        names.append(doc["feature"]["name"])
    assert len(names) == len(set(names)), f"feature names repeat: {names}"
    assert len(names) >= 10


def test_at_least_320_scenarios():
    assert len(discover()) >= MIN_SCENARIOS


def test_scenario_names_are_unique_within_a_feature():
    seen = Counter((s.feature, s.name) for s in discover())
    dupes = [k for k, n in seen.items() if n > 1]
    assert not dupes, dupes


@pytest.mark.parametrize("scenario", discover(), ids=lambda s: s.id)
def test_scenario_shape(scenario):
    tags = [t for t in scenario.tags if t != "@ignore"]
    assert len(tags) == 1, f"one construct tag per scenario, got {tags}"
    assert construct_of(scenario) == tags[0].lstrip("@")
    texts = [st["text"].strip() for st in scenario.steps if not st["text"].startswith("\x00")]
    assert texts and texts[0] in GIVEN, "a scenario starts with a Given graph step"
    assert texts.count("executing query:") == 1, "exactly one query per scenario"
    q = texts.index("executing query:")
    for t in texts[1:q]:
        assert t in SETUP or IMPORT.match(t), f"unknown setup step {t!r}"
    after = texts[q + 1:]
    assert after, "a query needs an expectation"
    first = after[0]
    error = tck._ERROR_STEP.match(first)
    assert first in RESULT or error, f"the query's first expectation is a result or an error: {first!r}"
    if error:
        family, phase, _ = error.groups()
        assert family in TCK_TYPES or family in FAMILIES, f"unknown error family {family!r}"
        assert phase in ("compile time", "runtime", "any time")
    for t in after[1:]:
        assert (t in RESULT or t in EFFECTS or t == "executing control query:"
                or tck._ERROR_STEP.match(t)), f"unknown step {t!r}"
    for st in scenario.steps:
        text = st["text"].strip()
        table = tck._table(st)
        if text in RESULT and text != "the result should be empty":
            assert table and table[0], "a result table has a header"
            for row in table[1:]:
                assert len(row) == len(table[0])
                for cell in row:
                    parse_value(cell)
        if text == "the side effects should be:":
            for key, value in table:
                assert key in tck.SIDE_EFFECT_KEYS or key in SCHEMA_KEYS
                int(value)
        if text == "parameters are:":
            for _, value in table:
                parse_value(value)
        if text in ("having executed:", "executing query:", "executing control query:"):
            assert tck._doc(st).strip(), "a statement step has a docstring"
