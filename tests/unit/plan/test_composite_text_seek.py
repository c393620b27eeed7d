"""A composite RANGE index answers equalities on its keys (then a range on the next key) and a
TEXT index answers CONTAINS and ENDS WITH, each as a seek with the rows a scan gives.

Each seek answers its conjuncts itself (they leave the WHERE), so it must give exactly the nodes
for which they are true: over mixed types (numbers of both kinds, NaN, strings, booleans, lists,
null, absent keys), with values of any type, and after writes that move nodes in and out of the
index (and the undo of a failed statement).  Each statement is run through the database (rules
on) and through the generic plan (`composite_seek` and `text_seek` off), whose answer is the scan's.
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
    st.integers(-3, 3), st.sampled_from([0.5, 1.0, 2.0, float("nan")]),
    st.sampled_from(["", "a", "ab", "ba", "abc", "cab", "b", "é"]), st.booleans(), st.none(),
    st.lists(st.integers(0, 1), max_size=2))
_SHAPES = [
    ("MATCH (n:R {a: $x, b: $y}) RETURN n.i", "composite index seek r_ab :R(a, b) WHERE n.a = $x AND n.b = $y"),
    ("MATCH (n:R) WHERE n.b = $y AND $x = n.a RETURN n.i",
     "composite index seek r_ab :R(a, b) WHERE n.a = $x AND n.b = $y"),
    ("MATCH (n:R {a: $x}) WHERE n.b > $y RETURN n.i", "composite index seek r_ab :R(a, b) WHERE n.a = $x AND n.b > $y"),
    ("MATCH (n:R) WHERE n.a = $x AND $y <= n.b < $z RETURN n.i",
     "composite index seek r_ab :R(a, b) WHERE n.a = $x AND n.b >= $y AND n.b < $z"),
    ("MATCH (n:R) WHERE n.a = $x AND n.b = $y AND n.c = $z RETURN n.i",
     "composite index seek r_abc :R(a, b, c) WHERE n.a = $x AND n.b = $y AND n.c = $z"),
    ("MATCH (n:R) WHERE n.s CONTAINS $x RETURN n.i", "text index seek r_s :R(s) WHERE n.s CONTAINS $x"),
    ("MATCH (n:R) WHERE n.s ENDS WITH $y AND n.a <> 1 RETURN n.i", "text index seek r_s :R(s) WHERE n.s ENDS WITH $y"),
]
_WRITES = [
    "MATCH (n:R) WHERE n.i % 3 = $k SET n.a = $x",
    "MATCH (n:R) WHERE n.i % 3 = $k SET n.s = $y",
    "MATCH (n:R) WHERE n.i % 4 = $k REMOVE n.b",
    "MATCH (n:R) WHERE n.i % 5 = $k REMOVE n:R",
    "MATCH (n) WHERE n.i % 5 = $k SET n:R",
    "MATCH (n:R) WHERE n.i % 7 = $k DETACH DELETE n",
    "CREATE (:R {i: 100 + $k, a: $x, b: $y, c: $x, s: $y})",
    # a failing statement: its writes are undone, the index entries with them
    "MATCH (n:R) WHERE n.i % 2 = $k SET n.b = $y, n.s = $x WITH count(*) AS c RETURN 1 / 0",
]
_OFF = {"composite_seek", "text_seek"}


def _rows(db, text: str, params: dict, generic: bool):
    try:
        if not generic:
            return Counter(db.execute(text, params).rows)
        plan = Planner(db.graph, db.procedures, disabled_rules=_OFF).plan(db.prepare(text).statement)
        return Counter(tuple(r) for r in plan.root.rows(ExecContext(db.graph, params)))
    except RelateError as e:
        return ("error", e.kind)


def _check(db, x, y, z) -> None:
    for text, _ in _SHAPES:
        p = {"x": x, "y": y, "z": z}
        assert _rows(db, text, p, False) == _rows(db, text, p, True), (text, x, y, z)


def _details(db, text: str) -> str:
    return db.execute("EXPLAIN " + text).plan.children[0].details


_NODES = st.fixed_dictionaries({}, optional={"a": _SCALARS, "b": _SCALARS, "c": _SCALARS, "s": _SCALARS})


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nodes=st.lists(_NODES, max_size=20),
       queries=st.lists(st.tuples(_SCALARS, _SCALARS, _SCALARS), min_size=1, max_size=3),
       writes=st.lists(st.tuples(st.sampled_from(_WRITES), st.integers(0, 2), _SCALARS, _SCALARS), max_size=4))
def test_composite_and_text_seeks_give_the_rows_a_scan_gives(nodes, queries, writes):
    db = relate.connect()
    db.execute("UNWIND range(0, size($ns) - 1) AS i CREATE (n:R {i: i}) SET n += $ns[i]",
               {"ns": [{k: v for k, v in n.items() if v is not None} for n in nodes]})
    # made after the nodes (entries built from the label) and before the writes (entries kept)
    db.execute("CREATE INDEX r_ab FOR (n:R) ON (n.a, n.b)")
    db.execute("CREATE INDEX r_abc FOR (n:R) ON (n.a, n.b, n.c)")
    db.execute("CREATE TEXT INDEX r_s FOR (n:R) ON (n.s)")
    for text, seek in _SHAPES:
        assert seek in _details(db, text), text
    for x, y, z in queries:
        _check(db, x, y, z)  # the first range seek groups the entries, the writes below move them
    for text, k, x, y in writes:
        try:
            db.execute(text, {"k": k, "x": x, "y": y})
        except RelateError:
            pass
        for qx, qy, qz in queries:
            _check(db, qx, qy, qz)


@pytest.fixture
def people(db):
    db.execute("CREATE INDEX person_city_age FOR (p:Person) ON (p.city, p.age)")
    db.execute("CREATE TEXT INDEX person_name FOR (p:Person) ON (p.name)")
    db.execute("UNWIND range(1, 30) AS i CREATE (:Person {age: i, city: ['Oslo', 'Rome', 'Lima'][i % 3],"
               " name: 'p' + toString(i)})")
    db.execute("CREATE (:Person {city: 'Oslo', name: 'no age'}), (:Person {age: 3, name: 'no city'})")
    return db


@pytest.mark.parametrize("where, seek, rows", [
    ("p.city = 'Rome' AND p.age = 4", "composite index seek person_city_age :Person(city, age) "
     "WHERE p.city = \"Rome\" AND p.age = 4", [4]),
    ("p.city = 'Lima' AND p.age >= 20", "composite index seek person_city_age :Person(city, age) "
     "WHERE p.city = \"Lima\" AND p.age >= 20", [20, 23, 26, 29]),
    ("p.name ENDS WITH '7'", "text index seek person_name :Person(name) WHERE p.name ENDS WITH \"7\"", [7, 17, 27]),
    ("p.name CONTAINS '2'", "text index seek person_name :Person(name) WHERE p.name CONTAINS \"2\"",
     [2, 12] + list(range(20, 30))),
])
def test_composite_and_text_predicates_are_seeks_named_in_explain(people, reopen, where, seek, rows):
    text = f"MATCH (p:Person) WHERE {where} RETURN p.age AS age"
    people = reopen(people)  # the entries are rebuilt from the stored index on reopening
    d = people.execute("EXPLAIN " + text).plan.children[0]
    assert d.operator == "NodeIndexSeek"
    assert d.details == "(p:Person), " + seek
    assert sorted(r[0] for r in people.execute(text).rows) == rows


def test_a_composite_seek_needs_every_key_tested(people):
    # an equality on the first key alone: the index holds no node without an age, so no seek
    assert "seek" not in _details(people, "MATCH (p:Person) WHERE p.city = 'Oslo' RETURN p")
    assert len(people.execute("MATCH (p:Person) WHERE p.city = 'Oslo' RETURN p").rows) == 11
    # a range on a middle key is taken only when the keys after it are tested for presence
    people.execute("CREATE INDEX person_city_age_name FOR (p:Person) ON (p.city, p.age, p.name)")
    people.execute("DROP INDEX person_city_age")
    text = "MATCH (p:Person) WHERE p.city = 'Rome' AND p.age < 3 {} RETURN p.age"
    assert "seek" not in _details(people, text.format(""))
    assert "composite index seek person_city_age_name" in _details(people, text.format("AND p.name IS NOT NULL"))
    assert people.execute(text.format("AND p.name IS NOT NULL")).rows == [(1,)]
