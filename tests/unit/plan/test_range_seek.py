"""A range index answers bounds, chains, IN and STARTS WITH as a seek, with the rows a scan gives.

The seek answers its conjuncts itself (they leave the WHERE), so it must give exactly the nodes
for which they are true: over mixed types (numbers of both kinds, NaN, strings, booleans, lists,
null), with bounds of any type, and after writes that move values in and out of the index (and
the undo of a failed statement).  Each statement is run through the database (rules on) and
through the generic plan (`index_seek` off), whose answer is the scan's.
"""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import relate
from relate.errors import RelateError
from relate.exec.context import ExecContext
from relate.plan.planner import Planner

_SCALARS = st.one_of(
    st.integers(-5, 5), st.sampled_from([0.5, -1.5, 2.0, 1.0, float("nan"), float("inf")]),
    st.sampled_from(["", "a", "ab", "abc", "b", "B", "é", "a\U0001F600"]), st.booleans(), st.none(),
    st.lists(st.integers(0, 2), max_size=2))
_BOUNDS = st.one_of(st.integers(-6, 6), st.sampled_from([0.5, 1.0, float("nan")]),
                    st.sampled_from(["", "a", "ab", "b", "z"]), st.booleans(), st.none(),
                    st.lists(st.integers(0, 2), max_size=2))
_SHAPES = [
    "MATCH (n:R) WHERE n.v > $a RETURN n.i",
    "MATCH (n:R) WHERE n.v <= $a RETURN n.i",
    "MATCH (n:R) WHERE n.v >= $a AND n.v < $b RETURN n.i",
    "MATCH (n:R) WHERE $a < n.v <= $b RETURN n.i",
    "MATCH (n:R) WHERE $b > n.v AND n.w = 1 AND $a <= n.v RETURN n.i",
    "MATCH (n:R) WHERE n.v IN [$a, $b] RETURN n.i",
    "MATCH (n:R) WHERE n.v IN $a RETURN n.i",
    "MATCH (n:R) WHERE n.v STARTS WITH $a RETURN n.i",
]
_WRITES = [
    "MATCH (n:R) WHERE n.i % 3 = $k SET n.v = $a",
    "MATCH (n:R) WHERE n.i % 4 = $k REMOVE n.v",
    "MATCH (n:R) WHERE n.i % 5 = $k REMOVE n:R",
    "MATCH (n) WHERE n.i % 5 = $k SET n:R",
    "MATCH (n:R) WHERE n.i % 7 = $k DETACH DELETE n",
    "CREATE (:R {i: 100 + $k, v: $a, w: 1})",
    # a failing statement: its writes are undone, the ordered keys with them
    "MATCH (n:R) WHERE n.i % 2 = $k SET n.v = $b WITH count(*) AS c RETURN 1 / 0",
]


def _rows(db, text: str, params: dict, generic: bool):
    try:
        if not generic:
            return Counter(db.execute(text, params).rows)
        plan = Planner(db.graph, db.procedures, disabled_rules={"index_seek"}).plan(db.prepare(text).statement)
        return Counter(tuple(r) for r in plan.root.rows(ExecContext(db.graph, params)))
    except RelateError as e:
        return ("error", e.kind)


def _check(db, a, b) -> None:
    for text in _SHAPES:
        p = {"a": a, "b": b}
        assert _rows(db, text, p, False) == _rows(db, text, p, True), (text, a, b)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.lists(_SCALARS, min_size=0, max_size=25),
       queries=st.lists(st.tuples(_BOUNDS, _BOUNDS), min_size=1, max_size=4),
       writes=st.lists(st.tuples(st.sampled_from(_WRITES), st.integers(0, 2), _SCALARS, _SCALARS), max_size=4))
def test_a_range_seek_gives_the_rows_a_scan_gives(values, queries, writes):
    db = relate.connect()
    db.execute("CREATE INDEX r_v FOR (n:R) ON (n.v)")
    db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:R {i: i, v: $vs[i], w: i % 2})", {"vs": values})
    assert all("index seek r_v :R(v)" in _details(db, text) for text in _SHAPES)
    for a, b in queries:
        _check(db, a, b)  # the first seek builds the ordered keys, the writes below move them
    for text, k, a, b in writes:
        try:
            db.execute(text, {"k": k, "a": a, "b": b})
        except RelateError:
            pass
        for qa, qb in queries:
            _check(db, qa, qb)


def _details(db, text: str) -> str:
    return db.execute("EXPLAIN " + text).plan.children[0].details


@pytest.fixture
def ages(db):
    db.execute("CREATE INDEX person_age FOR (p:Person) ON (p.age)")
    db.execute("CREATE INDEX person_name FOR (p:Person) ON (p.name)")
    db.execute("UNWIND range(1, 50) AS i CREATE (:Person {age: i, name: 'p' + toString(i)})")
    return db


@pytest.mark.parametrize("where, seek, rows", [
    ("p.age > 47", "index seek person_age :Person(age) WHERE p.age > 47", [48, 49, 50]),
    ("p.age >= 10 AND p.age < 12", "index seek person_age :Person(age) WHERE p.age >= 10 AND p.age < 12", [10, 11]),
    ("3 < p.age <= 5", "index seek person_age :Person(age) WHERE p.age > 3 AND p.age <= 5", [4, 5]),
    ("p.age IN [7, 2, 7, 99]", "index seek person_age :Person(age) WHERE p.age IN [7, 2, 7, 99]", [2, 7]),
    ("p.name STARTS WITH 'p4'", "index seek person_name :Person(name) WHERE p.name STARTS WITH \"p4\"",
     [4] + list(range(40, 50))),
])
def test_range_predicates_are_index_seeks_named_in_explain(ages, where, seek, rows):
    text = f"MATCH (p:Person) WHERE {where} RETURN p.age AS age"
    d = ages.execute("EXPLAIN " + text).plan.children[0]
    assert d.operator == "NodeIndexSeek"
    assert d.details == "(p:Person), " + seek
    assert sorted(r[0] for r in ages.execute(text).rows) == rows


def test_a_range_seek_keeps_the_other_tests_and_follows_writes(ages, reopen):
    text = "MATCH (p:Person) WHERE p.age < 4 AND p.name <> 'p2' RETURN p.age AS age"
    assert _details(ages, text) == ("(p:Person), index seek person_age :Person(age) WHERE p.age < 4, "
                                    "pushed filter p.name <> \"p2\"")
    assert sorted(ages.execute(text).rows) == [(1,), (3,)]
    ages.execute("MATCH (p:Person {age: 3}) SET p.age = 0.5")
    ages.execute("MATCH (p:Person {age: 1}) DELETE p")
    ages.execute("CREATE (:Person {age: -2, name: 'new'}), (:Person {age: '1', name: 'text'})")
    ages = reopen(ages)
    assert sorted(ages.execute(text).rows) == [(-2,), (0.5,)]
    assert ages.execute("MATCH (p:Person) WHERE p.age < '2' RETURN p.name").rows == [("text",)]
