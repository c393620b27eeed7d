"""The fused scan filter must answer exactly like the generic WHERE.

`MATCH (n:V) WHERE n.v <op> $c` runs through the generated comprehension of
`relate/exec/scan_filter.py`; `MATCH (n:V) WITH n WHERE n.v <op> $c` evaluates the same test with
the generic comparison functions, row by row.  Over stores holding values of every kind
(numbers, NaN, booleans, strings, lists, null, temporal values), both must keep the same nodes.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

import relate

# 1.0 sits at index 4 (the tests below name it by position: 1.0 == 1 in Python too)
VALUES = [0, 1, -1, 2, 1.0, 0.5, math.nan, math.inf, True, False, "", "a", "b", "ab", "1",
          [1], [1, 2], ["a"], None]
CONSTANTS = VALUES + [[1, None], {"a": 1}]
OPS = ["=", "<>", "<", "<=", ">", ">="]


def _store(values, db=None):
    db = relate.connect(":memory:") if db is None else db
    db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:V {i: i, v: $vs[i]})", {"vs": values})
    db.execute("CREATE (:V {i: -1}), (:V {i: -2, v: date('2020-01-02')})")
    return db


def _ids(db, text, params):
    return sorted(r[0] for r in db.execute(text, params).rows)


@pytest.fixture(scope="module")
def db(module_store):
    """Every value kind stored once per store kind and read back after a reopen."""
    return module_store.reopen(_store(VALUES, module_store.connect()))


@pytest.fixture
def empty_db(store):
    """An empty connection on this test's own store (`db` is shared by the module)."""
    return store.connect()


def test_the_stored_values_come_back_as_written(db):
    # after the reopen: NaN, 1 and 1.0, true and 1, lists and the date are still themselves
    rows = db.execute("MATCH (n:V) WHERE n.i >= 0 RETURN n.v ORDER BY n.i").rows
    assert repr([v for (v,) in rows]) == repr(VALUES)
    assert db.execute("MATCH (n:V {i: -2}) RETURN toString(n.v)").rows == [("2020-01-02",)]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("c", CONSTANTS, ids=repr)
def test_every_operator_and_value_kind(db, op, c):
    fused = _ids(db, f"MATCH (n:V) WHERE n.v {op} $c RETURN n.i", {"c": c})
    generic = _ids(db, f"MATCH (n:V) WITH n WHERE n.v {op} $c RETURN n.i", {"c": c})
    assert fused == generic


def test_the_constant_on_the_left_is_mirrored(db):
    for op, mirrored in (("<", ">"), ("<=", ">="), (">", "<"), (">=", "<=")):
        left = _ids(db, f"MATCH (n:V) WHERE $c {op} n.v RETURN n.i", {"c": 1})
        right = _ids(db, f"MATCH (n:V) WHERE n.v {mirrored} $c RETURN n.i", {"c": 1})
        assert left == right and left


def test_null_tests_and_inline_maps(db):
    assert _ids(db, "MATCH (n:V) WHERE n.v IS NULL RETURN n.i", {}) == [-1, len(VALUES) - 1]
    assert len(_ids(db, "MATCH (n:V) WHERE n.v IS NOT NULL RETURN n.i", {})) == len(VALUES)
    assert _ids(db, "MATCH (n:V {v: 'a'}) RETURN n.i", {}) == [VALUES.index("a")]
    assert _ids(db, "MATCH (n:V {v: $c, i: 0}) RETURN n.i", {"c": 0}) == [0]
    assert _ids(db, "MATCH (n:V {v: [1]}) RETURN n.i", {}) == [VALUES.index([1])]
    assert _ids(db, "MATCH (n:V {v: null}) RETURN n.i", {}) == []


def test_a_value_from_an_earlier_clause(db):
    rows = db.execute("UNWIND ['a', 'b', 1] AS x MATCH (n:V) WHERE n.v = x RETURN x, n.i ORDER BY n.i").rows
    assert rows == [(1, 1), (1, 4), ("a", VALUES.index("a")), ("b", VALUES.index("b"))]


def test_optional_match_keeps_its_null_row(db):
    assert db.execute("OPTIONAL MATCH (n:V) WHERE n.v = 'zzz' RETURN n").rows == [(None,)]


def test_the_rest_of_where_still_applies(db):
    rows = _ids(db, "MATCH (n:V) WHERE n.v >= 0 AND n.i % 2 = 0 AND n.v < 2 RETURN n.i", {})
    generic = _ids(db, "MATCH (n:V) WITH n WHERE n.v >= 0 AND n.i % 2 = 0 AND n.v < 2 RETURN n.i", {})
    assert rows == generic and rows


scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True, width=16),
                    st.sampled_from(["", "a", "b", "ba"]))
stored = st.one_of(scalars, st.lists(st.integers(-2, 2), max_size=2), st.lists(st.sampled_from("ab"), max_size=2))
constants = st.one_of(scalars, st.lists(scalars, max_size=2))


@settings(max_examples=60, deadline=None)
@given(st.lists(stored, max_size=12), st.sampled_from(OPS), constants)
def test_random_stores_agree(vs, op, c):
    db = _store(vs)
    fused = _ids(db, f"MATCH (n:V) WHERE n.v {op} $c RETURN n.i", {"c": c})
    generic = _ids(db, f"MATCH (n:V) WITH n WHERE n.v {op} $c RETURN n.i", {"c": c})
    assert fused == generic


def test_an_index_seek_keeps_equality_strict(empty_db, reopen):
    db = empty_db
    db.execute("CREATE INDEX v_index FOR (n:V) ON (n.v)")
    db.execute("UNWIND $vs AS v CREATE (:V {v: v})", {"vs": [math.nan, 1, 1.0, True, [1, 2], "x"]})
    db = reopen(db)

    def count(c):
        return db.execute("MATCH (n:V {v: $c}) RETURN count(*) AS n", {"c": c}).rows[0][0]
    assert [count(c) for c in (math.nan, 1, True, [1, 2], [1.0, 2], [1, None], "x", None)] == \
        [0, 2, 1, 1, 1, 0, 1, 0]


def test_where_equality_on_an_indexed_property_seeks_the_index(empty_db):
    db = empty_db
    db.execute("CREATE INDEX v_index FOR (n:V) ON (n.v)")
    db.execute("UNWIND $vs AS v CREATE (:V {v: v, w: 1})", {"vs": [math.nan, 1, 1.0, True, [1, 2], "x", 2]})
    plan = db.execute("EXPLAIN MATCH (n:V) WHERE n.v = $c AND n.w = 1 RETURN n").plan
    ops = []
    while plan is not None:
        ops.append(plan.operator)
        plan = plan.children[0] if plan.children else None
    assert "NodeIndexSeek" in ops
    for c in (math.nan, 1, True, [1, 2], [1.0, 2], "x", None, 3):
        for where in ("n.v = $c", "$c = n.v AND n.w = 1", "n.v = $c AND n.w = 2"):
            seek = _ids(db, f"MATCH (n:V) WHERE {where} RETURN n.v", {"c": c})
            generic = _ids(db, f"MATCH (n:V) WITH n WHERE {where} RETURN n.v", {"c": c})
            assert repr(seek) == repr(generic), (c, where)
