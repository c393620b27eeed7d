"""A POINT index narrows `point.withinBBox` and `point.distance(...) < r` to a seek, with the rows
(or the error) a scan gives.

The seek gives a superset of the nodes the predicate keeps and the predicate still decides, so it
must never leave out a node the predicate keeps or errs on: over Cartesian and WGS-84 points in
two and three dimensions, NaN coordinates, values that are no point, boxes across the 180th
meridian, radii of any type, and after writes that move values in and out of the index.  Each
statement is run through the database (rules on) and through the generic plan (`point_seek` off).
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
from relate.temporal.point import Point

_C = st.sampled_from([-3.0, -1.0, 0.0, 0.5, 1.0, 2.0, 4.0])
_LON = st.sampled_from([-179.5, -10.0, 0.0, 10.0, 170.0, 179.9])
_LAT = st.sampled_from([-89.0, -10.0, 0.0, 45.0, 89.9])
_POINTS = st.one_of(
    st.builds(lambda x, y: Point(7203, (x, y)), _C, _C),
    st.builds(lambda x, y, z: Point(9157, (x, y, z)), _C, _C, _C),
    st.builds(lambda x, y: Point(4326, (x, y)), _LON, _LAT),
    st.just(Point(7203, (float("nan"), 0.0))))
_VALUES = st.one_of(_POINTS, st.none())
_ARGS = st.one_of(_POINTS, st.none(), st.sampled_from([1, "a"]))
_RADII = st.one_of(st.sampled_from([0, 1, 1.5, 3, -1, 2000000, float("nan")]), st.none(), st.just("r"))
_SHAPES = [
    ("MATCH (n:G) WHERE point.withinBBox(n.p, $a, $b) RETURN n.i", "point index seek g_p :G(p) WHERE "
     "point.withinBBox(n.p, $a, $b)"),
    ("MATCH (n:G) WHERE point.distance(n.p, $a) < $r RETURN n.i", "point index seek g_p :G(p) WHERE "
     "point.distance(n.p, $a) < $r"),
    ("MATCH (n:G) WHERE $r >= point.distance($a, n.p) AND n.i > 0 RETURN n.i", "point index seek g_p :G(p) "
     "WHERE point.distance(n.p, $a) <= $r"),
]
_WRITES = [
    "MATCH (n:G) WHERE n.i % 3 = $k SET n.p = $a",
    "MATCH (n:G) WHERE n.i % 4 = $k REMOVE n.p",
    "MATCH (n:G) WHERE n.i % 5 = $k REMOVE n:G",
    "CREATE (:G {i: 100 + $k, p: $a})",
    "MATCH (n:G) WHERE n.i % 2 = $k SET n.p = $a WITH count(*) AS c RETURN 1 / 0",
]


def _rows(db, text: str, params: dict, generic: bool):
    try:
        if not generic:
            return Counter(db.execute(text, params).rows)
        plan = Planner(db.graph, db.procedures, disabled_rules={"point_seek"}).plan(db.prepare(text).statement)
        return Counter(tuple(r) for r in plan.root.rows(ExecContext(db.graph, params)))
    except RelateError as e:
        return ("error", e.kind)


def _check(db, a, b, r) -> None:
    for text, _ in _SHAPES:
        p = {"a": a, "b": b, "r": r}
        assert _rows(db, text, p, False) == _rows(db, text, p, True), (text, a, b, r)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.lists(_VALUES, max_size=20),
       queries=st.lists(st.tuples(_ARGS, _ARGS, _RADII), min_size=1, max_size=3),
       writes=st.lists(st.tuples(st.sampled_from(_WRITES), st.integers(0, 2),
                                 st.one_of(_VALUES, st.just("text"))), max_size=3))
def test_a_point_seek_gives_the_rows_a_scan_gives(values, queries, writes):
    db = relate.connect()
    db.execute("CREATE POINT INDEX g_p FOR (n:G) ON (n.p)")
    db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:G {i: i, p: $vs[i]})", {"vs": values})
    for text, seek in _SHAPES:
        assert seek in db.execute("EXPLAIN " + text).plan.children[0].details, text
    for a, b, r in queries:
        _check(db, a, b, r)  # the first seek sorts the points, the writes below move them
    for text, k, a in writes:
        try:
            db.execute(text, {"k": k, "a": a})
        except RelateError:
            pass
        for qa, qb, qr in queries:
            _check(db, qa, qb, qr)


@pytest.fixture
def places(db):
    db.execute("CREATE POINT INDEX place_at FOR (p:Place) ON (p.at)")
    db.execute("UNWIND range(0, 9) AS i CREATE (:Place {i: i, at: point({x: i, y: i % 3})})")
    db.execute("CREATE (:Place {i: 50, at: point({longitude: 12.5, latitude: 41.9})})")
    return db


def test_box_and_distance_tests_are_point_index_seeks(places, reopen):
    places = reopen(places)  # the entries are rebuilt from the stored index on reopening
    text = "MATCH (p:Place) WHERE point.withinBBox(p.at, point({x: 2, y: 0}), point({x: 6, y: 1})) RETURN p.i"
    d = places.execute("EXPLAIN " + text).plan.children[0]
    assert d.operator == "NodeIndexSeek"
    assert d.details == ("(p:Place), point index seek place_at :Place(at) WHERE "
                         "point.withinBBox(p.at, point({x: 2, y: 0}), point({x: 6, y: 1}))")
    assert sorted(places.execute(text).rows) == [(3,), (4,), (6,)]
    text = "MATCH (p:Place) WHERE point.distance(p.at, $c) <= 1000000 RETURN p.i"
    assert "point index seek place_at" in places.execute("EXPLAIN " + text).plan.children[0].details
    rome = {"c": Point(4326, (12.5, 41.9))}
    assert places.execute(text, rome).rows == [(50,)]
