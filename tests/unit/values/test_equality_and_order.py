"""Cypher equality, comparison and the global sort order across value types, as queries see them
(`=`, `<`, `ORDER BY`, `min`/`max`)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

import relate
from tests.unit.answers import one

_DB = relate.connect()


@pytest.mark.parametrize("expr, expected", [
    ("1 = 1.0", True), ("1 = '1'", False), ("1 = true", False), ("[1, 2] = [1.0, 2]", True),
    ("{a: 1} = {a: 1.0}", True), ("{a: 1} = {b: 1}", False), ("null = null", None),
    ("[null] = [1, 2]", False), ("[1, null] = [1, 2]", None), ("[1, null] = [2, null]", False),
    ("0.0 / 0.0 = 0.0 / 0.0", False), ("0.0 / 0.0 <> 1", True),
])
def test_equality(db, expr, expected):
    assert one(db, f"RETURN {expr}") is expected


@pytest.mark.parametrize("expr, expected", [
    ("1 < 2.5", True), ("'a' < 'b'", True), ("false < true", True), ("[1, 2] < [1, 3]", True),
    ("[1] < [1, 0]", True), ("1 < 'a'", None), ("{a: 1} < {a: 2}", None), ("null < 1", None),
    ("0.0 / 0.0 < 1", False), ("0.0 / 0.0 >= 1", False), ("1 < 2 < 3", True), ("1 < 3 < 2", False),
])
def test_comparison(db, expr, expected):
    assert one(db, f"RETURN {expr}") is expected


def test_global_sort_order_across_types(db):
    q = ("UNWIND [1.5, 'text', null, false, 0.0 / 0.0, {a: 'map'}, ['list'], 1] AS v "
         "RETURN v ORDER BY v")
    got = [r[0] for r in db.execute(q).rows]
    assert got[:5] == [{"a": "map"}, ["list"], "text", False, 1]
    assert got[5] == 1.5 and math.isnan(got[6]) and got[7] is None


def test_min_and_max_across_types_follow_the_sort_order(db):
    assert one(db, "UNWIND [1, 'a', null, [1, 2], 0.2, 'b'] AS x RETURN min(x), max(x)") == ([1, 2], 1)


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10 ** 6, 10 ** 6),
       st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10 ** 6, 10 ** 6))
def test_comparison_agrees_with_sort_order(a, b):
    lt, eq = _DB.execute("RETURN $a < $b, $a = $b", {"a": a, "b": b}).rows[0]
    order = [row[0] for row in _DB.execute("UNWIND [$a, $b] AS x RETURN x ORDER BY x", {"a": a, "b": b}).rows]
    assert lt == (a < b) and eq == (a == b)
    assert order[0] <= order[1]
