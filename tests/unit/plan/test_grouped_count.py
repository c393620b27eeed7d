"""Counting per property values over a scan must group exactly like the generic aggregation.

`MATCH (n:V) RETURN n.v, count(*)` is answered by `relate/exec/grouped_count.py` (columns and a
Counter); `MATCH (n:V) WITH n RETURN n.v, count(*)` goes through the generic Aggregate loop.  Both
must give the same groups, with the same representative values, in the same order.
"""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

import relate


def _store(values, others=(), db=None):
    db = relate.connect(":memory:") if db is None else db
    db.execute("UNWIND range(0, size($vs) - 1) AS i CREATE (:V {i: i, v: $vs[i], w: $ws[i % size($ws)]})",
               {"vs": values, "ws": list(others) or [0]})
    return db


def _both(db, returns, where=""):
    fast = db.execute(f"MATCH (n:V) {where} RETURN {returns}").rows
    generic = db.execute(f"MATCH (n:V) WITH n {where} RETURN {returns}").rows
    return fast, generic


def _same(fast, generic):
    # NaN keys are equal for grouping but not under ==; compare their text
    assert repr(fast) == repr(generic)


def test_booleans_do_not_merge_with_numbers(db, reopen):
    db = reopen(_store([True, 1, 1.0, False, 0, None, None, "1", True], db=db))
    fast, generic = _both(db, "n.v AS v, count(*) AS c")
    _same(fast, generic)
    assert (True, 2) in fast and (1, 2) in fast and (None, 2) in fast


def test_nan_groups_together_and_lists_group_by_value(db, reopen):
    db = reopen(_store([math.nan, math.nan, 1.5, [1, 2], [1, 2], [1.0, 2], ["a"]], db=db))
    fast, generic = _both(db, "n.v AS v, count(*) AS c")
    _same(fast, generic)
    assert len(fast) == 4


def test_several_keys_filters_and_bare_counts(db):
    _store(["a", "b", "a", "a", None], others=[1, 2], db=db)
    for returns in ("n.v AS v, n.w AS w, count(*) AS c", "count(*) AS c",
                    "n.w AS w, count(*) AS c, count(*) AS d"):
        for where in ("", "WHERE n.v = 'a'", "WHERE n.i > 10"):
            _same(*_both(db, returns, where))
    assert db.execute("MATCH (n:Missing) RETURN count(*) AS c").rows == [(0,)]
    assert db.execute("MATCH (n:Missing) RETURN n.v, count(*) AS c").rows == []


def test_counts_over_several_incoming_rows(db):
    _store(["a", "b", "a"], db=db)
    rows = db.execute("UNWIND [1, 2] AS x MATCH (n:V) RETURN n.v AS v, count(*) AS c ORDER BY v").rows
    assert rows == [("a", 4), ("b", 2)]


def test_temporal_values_group_by_equality(db, reopen):
    db.execute("CREATE (:V {v: date('2020-01-01')}), (:V {v: date('2020-01-01')}), (:V {v: date('2021-01-01')})")
    db = reopen(db)
    _same(*_both(db, "n.v AS v, count(*) AS c"))


scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from([0.0, 1.0, 2.5, math.nan]),
                    st.sampled_from(["", "a", "b"]))
stored = st.one_of(scalars, st.lists(st.integers(-1, 1), max_size=2))


@settings(max_examples=80, deadline=None)
@given(st.lists(stored, min_size=1, max_size=15), st.lists(scalars, min_size=1, max_size=3))
def test_random_stores_group_alike(vs, ws):
    db = _store(vs, ws)
    _same(*_both(db, "n.v AS v, n.w AS w, count(*) AS c"))
    _same(*_both(db, "n.w AS w, count(*) AS c"))
